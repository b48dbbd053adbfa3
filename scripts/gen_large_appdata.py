#!/usr/bin/env python3
"""Write a large synthetic v2 appData document for benchmarks.

Usage:  python3 scripts/gen_large_appdata.py OUT.json [--seed N]

The document has 20,000 artworks, 25,000 audio files (each with es, zh-hant
and fr translations and transcripts of a few hundred characters), 80 tours of
10-20 stops, 40 galleries on four floors and the map, messages, general info
and API settings of the Wrenfield sample (scripts/make_sampledata.py). The text
is nonsense assembled from word lists with a fixed random seed, so the output
is identical on every run. It keeps the format's quirks (ids as numbers or
numeric strings, HTML entities, CRLF line breaks, `|` in artist lines).

Relative URLs (audio, floor plans, search endpoints) point at the files of
SampleData/, so writing OUT.json into SampleData/ gives a playable document;
audio URLs cycle through the sample narrations. The output is not committed.
"""

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_sampledata as sample  # noqa: E402  (same folder; geo transform and shared sections)

N_OBJECTS = 20000
N_AUDIO = 25000
N_TOURS = 80
N_BUMPERS = 1000
FLOORS = 4
GALLERIES_PER_FLOOR = 10
# The languages of the translations, and how many sentences a transcript has (a second shape,
# scripts/gen_large_appdata_cjk.py, changes these).
TRANSLATIONS = ("es", "zh-hant", "fr")
TRANSCRIPT_SENTENCES = (3, 5)

EN_WORDS = """harbour light canvas painter lantern tide portrait weaver glaze kiln bronze
marble river morning evening storm fog quay boat sail rope anchor gull heron field snow
colour blue green rose grey gold silver thread loom clay porcelain stoneware brush stroke
shadow window garden court studio workshop collector museum gallery sketch study figure
listen look closely notice corner edge surface layer detail pattern border frame
family friend neighbour sailor fisherman child mother daughter artist maker""".split()
EN_GLUE = "the a of in with and on from by at for while as".split()
ES_WORDS = """puerto luz lienzo pintor farol marea retrato tejedor vidriado horno bronce
mármol río mañana tarde tormenta niebla muelle barco vela cuerda ancla gaviota garza
campo nieve color azul verde rosa gris oro plata hilo telar arcilla porcelana pincel
sombra ventana jardín patio taller coleccionista museo sala boceto estudio figura
mire observe esquina borde superficie capa detalle motivo marco familia amigo marinero
pescador niño madre hija artista""".split()
ES_GLUE = "el la de en con y sobre desde por para mientras como".split()
FR_WORDS = """port lumière toile peintre lanterne marée portrait tisserand glaçure four
bronze marbre rivière matin soir tempête brouillard quai bateau voile corde ancre
mouette héron champ neige couleur bleu vert rose gris or argent fil métier argile
porcelaine pinceau ombre fenêtre jardin cour atelier collectionneur musée salle
esquisse étude figure regardez observez coin bord surface couche détail motif cadre
famille ami marin pêcheur enfant mère fille artiste""".split()
FR_GLUE = "le la de dans avec et sur depuis par pour pendant comme".split()
ZH_WORDS = """港口 光線 畫布 畫家 燈籠 潮汐 肖像 織工 釉色 窯爐 青銅 大理石 河流 清晨 黃昏
暴風雨 霧氣 碼頭 船隻 船帆 纜繩 船錨 海鷗 蒼鷺 田野 白雪 顏色 藍色 綠色 玫瑰色 灰色 金色
銀色 絲線 織布機 陶土 瓷器 畫筆 筆觸 陰影 窗戶 花園 中庭 工作室 工坊 收藏家 博物館 展廳
素描 習作 人物 聆聽 觀看 仔細 注意 角落 邊緣 表面 層次 細節 圖案 邊框 家人 朋友 水手 漁夫
孩子 母親 女兒 藝術家""".split()
ZH_GLUE = "的 在 和 與 從 把 讓 被 也 就".split()
SURNAMES = """Velden Orlik Carvalhal Brandt Raman Lunde Stroud Rautio Rivalta Okonjo Penhallow
Bellweather Ferrante Assel Varga Marchetti Whitlock Auger Lassen Sandaker Kessling Dufort
Marwood Kiyomi Fenwick Ashby Greaves Hatch Pryce Vane""".split()
GIVEN = """Mara Tomasz Ines Hollis Priya Edvard Wilhelmina Aino Giacomo Amara Lucius Clara
Basilio Geertruyd Teodor Odile Jonah Clementine Henrike Tove Ada Mireille Eliza Sato""".split()
NATIONS = """Dutch Polish Portuguese American British Norwegian English Finnish Italian
Nigerian Flemish Hungarian French Canadian Danish Korean Japanese""".split()
MEDIA = ["Oil on canvas", "Watercolour on paper", "Gelatin silver print", "Porcelain",
         "Glazed stoneware", "Wool and silk tapestry", "Bronze", "Marble", "Silver",
         "Cast aluminium", "Oak and pine", "Folded paper and thread"]


def sentence_en(rng, n):
    words = rng.choices(EN_WORDS, k=n)
    glue = rng.choices(EN_GLUE, k=n)
    out = " ".join(w for pair in zip(glue, words) for w in pair)
    return out[0].upper() + out[1:] + "."


def text(rng, words, glue, sentences, joiner=" ", end=".", cap=True):
    parts = []
    for _ in range(sentences):
        n = rng.randint(6, 11)
        ws = rng.choices(words, k=n)
        gs = rng.choices(glue, k=n)
        s = joiner.join(w for pair in zip(gs, ws) for w in pair)
        if cap:
            s = s[0].upper() + s[1:]
        parts.append(s + end)
    return (" " if joiner else "").join(parts)


SENTENCE_POOL = 3000  # sentences per language; transcripts are drawn from these
_POOLS = {}


def sentence_pools(rng):
    if not _POOLS:
        spec = {"en": (EN_WORDS, EN_GLUE, " ", ".", True),
                "es": (ES_WORDS, ES_GLUE, " ", ".", True),
                "fr": (FR_WORDS, FR_GLUE, " ", ".", True),
                "zh-hant": (ZH_WORDS, ZH_GLUE, "", "。", False)}
        for lang, (words, glue, joiner, end, cap) in spec.items():
            _POOLS[lang] = [text(rng, words, glue, 1, joiner, end, cap)
                            for _ in range(SENTENCE_POOL)]
    return _POOLS


def transcript(rng, lang):
    k = rng.randint(*TRANSCRIPT_SENTENCES)
    pool = _POOLS[lang]
    if lang == "zh-hant":
        t = "".join(rng.choices(pool, k=k * 3))
    else:
        t = " ".join(rng.choices(pool, k=k))
    r = rng.random()
    if r < 0.15:
        t = t.replace(". ", ".\r\n\r\n", 1)
    elif r < 0.25 and lang != "zh-hant":
        t = t.replace(" the ", " the artist&#039;s ", 1) if lang == "en" else t + " &quot;"
    return t


def title(rng):
    n = rng.randint(2, 4)
    ws = rng.choices(EN_WORDS, k=n)
    t = " ".join(w.capitalize() for w in ws)
    r = rng.random()
    if r < 0.03:
        t = t.replace(" ", " &amp; ", 1)
    elif r < 0.05:
        t = rng.choice(GIVEN) + "&#039;s " + t
    return t


def sample_audio_urls():
    """URLs of the sample narrations per language, to make the document playable."""
    path = os.path.join(sample.OUT, "appData.json")
    urls = {"en": [], "es": [], "zh-hant": []}
    try:
        with open(path, encoding="utf-8") as f:
            for a in json.load(f)["audio_files"].values():
                urls["en"].append(a["audio_file_url"])
                for t in a["translations"]:
                    urls.setdefault(t["language"], []).append(t["audio_file_url"])
    except (OSError, ValueError, KeyError):
        pass
    if not urls["en"]:
        urls = {lang: [f"audio/{2001 + i}-{lang}.mp3" for i in range(40)]
                for lang in ("en", "es", "zh-hant")}
    urls["fr"] = urls["en"]  # the sample has no French narration
    return urls


def build(seed):
    rng = random.Random(seed)
    sentence_pools(rng)
    base = sample.Builder().build()  # small sections are taken from the sample museum
    urls = sample_audio_urls()

    def url(lang, i):
        lst = urls[lang]
        return lst[i % len(lst)]

    # galleries: a 5x2 grid of rooms per floor inside the sample footprint
    galleries, open_titles, gallery_floor = {}, [], {}
    nid = 10001
    for floor in range(FLOORS):
        for k in range(GALLERIES_PER_FLOOR):
            col, row = k % 5, k // 5
            x0, y0 = 790 + col * 170, 900 + row * 320
            rect = (x0, y0, x0 + 150, y0 + 300)
            cx, cy = sample.centre(rect)
            ttl = f"Gallery {floor}{k:02d}" if floor else f"Gallery LL{k:02d}"
            closed = (floor, k) in ((1, 9), (3, 4))
            galleries[str(nid)] = {
                "nid": nid if k % 3 else str(nid),
                "title": ttl,
                "gallery_id": str(30000 + floor * 100 + k),
                "closed": closed,
                "location": sample.latlon(cx, cy),
                "floor": "LL" if floor == 0 and k % 2 else floor,
            }
            gallery_floor[ttl] = (floor, rect)
            if not closed:
                open_titles.append(ttl)
            nid += 1
    all_titles = list(gallery_floor)

    audio = {}
    audio_nid = [100000]

    def add_audio(ttl, lang_pool_index):
        n = audio_nid[0]
        audio_nid[0] += 1
        rec = {
            "nid": n if n % 5 else str(n),
            "title": ttl,
            "audio_file_url": url("en", lang_pool_index),
            "audio_transcript": transcript(rng, "en"),
            "translations": [
                {"language": lang, "title": ttl, "track_title": ttl + f" ({lang})",
                 "audio_file_url": url(lang, lang_pool_index),
                 "audio_transcript": transcript(rng, lang)}
                for lang in TRANSLATIONS],
        }
        audio[str(n)] = rec
        return n

    # objects: one commentary each; the first objects get a second one so
    # that the total number of audio files is exactly N_AUDIO
    n_second = N_AUDIO - N_OBJECTS - N_TOURS - N_BUMPERS
    objects, object_info = {}, []
    number = 10000
    for i in range(N_OBJECTS):
        onid = 200000 + i
        # about 1% of the objects sit in closed galleries
        gtitle = rng.choice(all_titles) if rng.random() < 0.01 else rng.choice(open_titles)
        floor, (x0, y0, x1, y1) = gallery_floor[gtitle]
        x, y = rng.uniform(x0 + 10, x1 - 10), rng.uniform(y0 + 10, y1 - 10)
        ttl = title(rng)
        commentary = []
        a1 = add_audio(ttl, i)
        # every 500th number is shared with the previous object
        if i % 500 == 499:
            number -= 1
        commentary.append({"object_selector_number": str(number), "audio": str(a1)})
        number += 1
        if i < n_second:
            a2 = add_audio(ttl + ": detail", i + 1)
            commentary.append({"object_selector_number": str(number), "audio": str(a2)})
            number += 1
        rec = {"nid": onid if i % 7 else str(onid)}
        if i % 2 == 0:
            rec["id"] = 500000 + i
        rec.update({
            "title": ttl,
            "location": sample.latlon(x, y, space=True),
            "gallery_location": gtitle,
            "artist_culture_place_delim": "%s %s|%s, %d–%d" % (
                rng.choice(GIVEN), rng.choice(SURNAMES), rng.choice(NATIONS),
                1800 + rng.randint(0, 150), 1870 + rng.randint(0, 140)),
            "credit_line": "Gift of the %s Family" % rng.choice(SURNAMES),
            "medium_display": rng.choice(MEDIA),
            "image_url": sample.IMAGE,
            "thumbnail_full_path": sample.IMAGE,
            "large_image_full_path": sample.IMAGE,
            "audio_commentary": commentary,
        })
        if i % 9 == 0:
            rec["copyright_notice"] = "© Estate of %s" % rng.choice(SURNAMES)
        objects[str(onid)] = rec
        if gtitle in open_titles:
            object_info.append((onid, a1, gtitle))
    assert number < 100000, "keypad numbers must stay within 5 digits"

    bumpers = [add_audio("Directions %d" % k, k) for k in range(N_BUMPERS)]
    intros = [add_audio("Tour introduction %d" % k, k) for k in range(N_TOURS)]
    assert len(audio) == N_AUDIO, len(audio)

    categories = [c["category"] for c in base["tour_categories"].values()]
    tours = []
    for t in range(N_TOURS):
        tnid = 4001 + t
        stops_src = rng.sample(object_info, rng.randint(10, 20))
        stops = []
        for s, (onid, aid, _g) in enumerate(stops_src):
            bumper = None if (s == 0 and t % 4 == 0) else rng.choice(bumpers)
            stops.append({"sort": s, "object": onid, "audio_id": aid, "audio_bumper": bumper})
        first_gallery = galleries[next(k for k, g in galleries.items()
                                       if g["title"] == stops_src[0][2])]
        ttl = title(rng) + " Tour"
        tours.append({
            "nid": tnid if t % 2 else str(tnid),
            "title": ttl,
            "weight": t if t % 3 else str(t),
            "image_url": sample.IMAGE,
            "description": sentence_en(rng, 8),
            "intro": transcript(rng, "en"),
            "tour_audio": intros[t],
            "location": first_gallery["location"].replace(",", ", "),
            "floor": str(gallery_floor[stops_src[0][2]][0]),
            "selector_number": str(900 + t) if t % 10 == 0 else None,
            "category": categories[t % len(categories)],
            "tour_duration": "%d min" % (len(stops) * 3),
            "tour_banner": "NEW" if t % 13 == 0 else None,
            "translations": [
                {"language": lang, "title": ttl + f" ({lang})", "description": transcript(rng, lang),
                 "intro": transcript(rng, lang), "tour_duration": "%d min" % (len(stops) * 3)}
                for lang in TRANSLATIONS],
            "tour_stops": stops,
        })

    app = dict(base)
    app["dashboard"] = {"featured_tours": ["4001", "4002", "4003"], "featured_exhibitions": []}
    app["galleries"] = galleries
    app["objects"] = objects
    app["audio_files"] = audio
    app["tours"] = tours
    app["search"] = {
        "search_strings": {"0": "Harbour", "2": "Portrait", "4": "Tapestry"},
        "search_objects": [o[0] for o in object_info[:40]],
    }
    return app


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="path of the JSON file to write")
    ap.add_argument("--seed", type=int, default=20261122)
    args = ap.parse_args()
    t0 = time.time()
    app = build(args.seed)
    data = json.dumps(app, ensure_ascii=False, separators=(",", ":"))
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(data)
        f.write("\n")
    size = os.path.getsize(args.out)
    print(f"wrote {args.out}: {size / 1e6:.1f} MB, {len(app['objects'])} objects, "
          f"{len(app['audio_files'])} audio files, {len(app['tours'])} tours, "
          f"{len(app['galleries'])} galleries in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
