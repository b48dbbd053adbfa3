#!/usr/bin/env python3
"""Write a fifth large appData for benchmarks: a museum written in plain prose (issue 48).

Usage:  python3 scripts/gen_large_appdata_prose.py OUT.json [--seed N] [--scale X]

Written from issue 48's description of a held-out museum alone (it shares no code nor word
lists with the other generators, and was not tuned to Docent's parser):

- 20,000 works and 25,000 recordings;
- nearly all the bytes are long strings of plain prose: every recording's transcript is about
  150 English words, with translations of about 150 Spanish words and about 200 Chinese
  characters, and a French one for every fifth recording;
- few escapes (now and then a quotation in double quotes, a line break between paragraphs,
  a tab), few numbers (ids, sort orders), short keys (the v2 schema's own);
- ids mixed: integers and numeric strings; member keys are strings;
- written as json.dump writes by default: UTF-8 as it is, ", " and ": " separators.

About 95 MB. Deterministic for a seed (random.Random only, no clock, no hash order). The
museum's scaffolding (general info, floors, annotations, messages, data) is SampleData's so the
guide opens the file. The output is not committed.
"""

import argparse
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "SampleData", "appData.json")

# Ordinary English prose vocabulary: function words weighted by repetition, content words once.
EN_FUNCTION = ("the the the the of of of and and and a a to to in in is was it that that "
               "with as for on his her this by from at which they their were but an be or").split()
EN_CONTENT = """painter painting portrait canvas colour light shadow morning evening river harbour
city street window garden figure woman man child mother father family friend artist studio
brush stroke surface detail pattern texture landscape village church market boat sail water
winter summer autumn spring field flower tree forest mountain valley road bridge house room
table chair cloth silk wool cotton thread loom potter clay glaze kiln bronze marble stone
wood gold silver blue green red yellow white black grey quiet bright dark soft heavy small
large early late ancient modern famous careful patient young old looked painted carved
woven made found kept showed turned remembered noticed wanted began finished travelled
returned collection museum gallery visitor curator century decade generation tradition
workshop apprentice master commission patron letter journal sketch study drawing print
photograph sculpture vessel bowl jar plate mirror lantern mask shield sword helmet coin
seal scroll screen fan robe crown throne temple palace court garden courtyard fountain
between beneath across toward during before after because although while never always
often perhaps almost together alone again""".split()
ES_FUNCTION = ("el el la la de de de que y y en en los las un una por con para es fue su "
               "se al lo del como más pero sus").split()
ES_CONTENT = """pintor pintura retrato lienzo color luz sombra mañana tarde río puerto ciudad calle
ventana jardín figura mujer hombre niño madre padre familia amigo artista taller pincel
trazo superficie detalle textura paisaje pueblo iglesia mercado barco vela agua invierno
verano otoño primavera campo flor árbol bosque montaña valle camino puente casa habitación
mesa silla tela seda lana algodón hilo telar alfarero arcilla esmalte horno bronce mármol
piedra madera oro plata azul verde rojo amarillo blanco negro gris tranquilo brillante
oscuro suave pesado pequeño grande antiguo moderno famoso joven viejo pintó talló tejió
encontró guardó mostró volvió recordó colección museo galería visitante siglo generación
tradición aprendiz maestro encargo carta dibujo grabado escultura vasija cuenco espejo
máscara escudo corona templo palacio patio fuente entre durante después antes porque
aunque nunca siempre quizá juntos otra vez también""".split()
FR_FUNCTION = "le le la la les de de des et et un une dans sur pour avec qui que est était son sa ses au".split()
FR_CONTENT = """peintre peinture portrait toile couleur lumière ombre matin soir rivière port ville
rue fenêtre jardin figure femme homme enfant mère père famille ami artiste atelier pinceau
touche surface détail motif paysage village église marché bateau voile eau hiver été
automne printemps champ fleur arbre forêt montagne vallée chemin pont maison chambre table
soie laine fil métier potier argile émail four bronze marbre pierre bois or argent bleu
vert rouge jaune blanc noir gris calme clair sombre doux lourd petit grand ancien moderne
célèbre jeune vieux peignit sculpta tissa trouva garda montra revint collection musée
galerie visiteur siècle génération tradition apprenti maître commande lettre dessin
gravure sculpture vase bol miroir masque bouclier couronne temple palais cour fontaine
entre pendant après avant parce toujours souvent peut-être ensemble encore""".split()
# Simplified Chinese characters frequent in writing about art, history and places.
ZH_CHARS = ("的一是在了不和有大这主中人上为们地个用工时要动国产以我到他会作来分生对于学下级"
            "就年阶义发成部民可出能方进同行面说种过命度革而多子后自社加小机也经力线本电高量"
            "长党得实家定深法表着水理化争现所二起政三好十战无农使性前等反体合斗路图把结第里"
            "画家艺术馆藏品展厅作品色彩光影山水花鸟人物肖像雕塑陶瓷青铜纸墨绢丝城市港口清晨"
            "黄昏河流田野窗户庭院工坊收藏世纪传统朝代宫殿寺庙画笔笔触细节图案表面层次")
ZH_PUNCT = "，，，。、；：！？"
QUOTES_EN = ["I always wanted to paint the light as it really was", "Look closer", "This is where it began",
             "We made it for the market, not for kings", "Nobody had seen a colour like that"]


def prose(rng, function_words, content_words, n_words):
    """n_words words in sentences of 8 to 24, capitalised, with commas; a paragraph break now
    and then, and on one transcript in eight a short quotation in double quotes."""
    sentences = []
    left = n_words
    while left > 0:
        k = min(left, rng.randint(8, 24))
        ws = []
        for i in range(k):
            ws.append(rng.choice(function_words) if rng.random() < 0.4 else rng.choice(content_words))
            if i and i < k - 1 and rng.random() < 0.06:
                ws[-1] += ","
        ws[0] = ws[0][:1].upper() + ws[0][1:]
        sentences.append(" ".join(ws) + rng.choice("......?!"))
        left -= k
    if function_words is EN_FUNCTION and rng.random() < 0.125:
        q = '"%s," she said.' % rng.choice(QUOTES_EN)
        sentences.insert(rng.randint(0, len(sentences)), q)
    out = []
    for i, s in enumerate(sentences):
        out.append(s)
        if i < len(sentences) - 1:
            out.append("\n\n" if rng.random() < 0.03 else " ")
    return "".join(out)


def chinese(rng, n_chars):
    out = []
    while len(out) < n_chars - 1:
        run = rng.randint(6, 20)
        out.extend(rng.choice(ZH_CHARS) for _ in range(run))
        out.append(rng.choice(ZH_PUNCT))
    return "".join(out[:n_chars - 1]) + "。"


def title(rng, content_words, lo, hi):
    return " ".join(w.capitalize() for w in (rng.choice(content_words) for _ in range(rng.randint(lo, hi))))


def mixed_id(rng, n):
    return n if rng.random() < 0.5 else str(n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with open(SAMPLE, encoding="utf-8") as f:
        sample = json.load(f)

    n_works = int(20000 * args.scale)
    n_recordings = int(25000 * args.scale)
    n_galleries = max(4, int(120 * args.scale))
    n_tours = max(2, int(40 * args.scale))
    floors = [v["label"] for v in sample["map_floors"].values()][:4]
    south, north, west, east = 41.87925, 41.88015, -87.62425, -87.62225

    def where():
        return "%.6f,%.6f" % (rng.uniform(south, north), rng.uniform(west, east))

    galleries = {}
    for g in range(n_galleries):
        nid = 3000 + g
        galleries[str(nid)] = {"nid": mixed_id(rng, nid), "title": "Gallery %d" % (101 + g),
                               "gallery_id": str(nid), "closed": False, "location": where(),
                               "floor": floors[g % len(floors)]}

    base_rec = 100000
    recordings = {}
    for r in range(n_recordings):
        nid = base_rec + r
        name = title(rng, EN_CONTENT, 2, 5)
        url = "https://media.example-museum.org/sites/default/files/audio/%d-%s.mp3" % (nid, name.lower().replace(" ", "-"))
        tr = [{"language": "es", "title": title(rng, ES_CONTENT, 2, 5), "track_title": "", "audio_file_url": url,
               "audio_transcript": prose(rng, ES_FUNCTION, ES_CONTENT, rng.randint(135, 165))},
              {"language": "zh-hans", "title": chinese(rng, rng.randint(4, 10))[:-1], "track_title": "", "audio_file_url": url,
               "audio_transcript": chinese(rng, rng.randint(180, 220))}]
        if r % 5 == 0:
            tr.append({"language": "fr", "title": title(rng, FR_CONTENT, 2, 5), "track_title": "", "audio_file_url": url,
                       "audio_transcript": prose(rng, FR_FUNCTION, FR_CONTENT, rng.randint(135, 165))})
        recordings[str(nid)] = {"nid": mixed_id(rng, nid), "title": name, "track_title": name, "audio_file_url": url,
                                "audio_transcript": prose(rng, EN_FUNCTION, EN_CONTENT, rng.randint(135, 165)),
                                "translations": tr}

    # The first recordings speak about works (one each, every tenth work has two); the rest are
    # for tours.
    works = {}
    gallery_titles = [g["title"] for g in galleries.values()]
    next_rec = 0
    keypad = 100
    for w in range(n_works):
        nid = 10000 + w
        commentary = []
        for _ in range(2 if w % 10 == 0 else 1):
            if next_rec >= n_recordings - n_tours * 30:
                break
            keypad += 1
            commentary.append({"object_selector_number": str(keypad), "audio": mixed_id(rng, base_rec + next_rec)})
            next_rec += 1
        iiif = "https://media.example-museum.org/iiif/2/%08x-%04x-%04x-%04x-%012x/full/" % tuple(rng.getrandbits(b) for b in (32, 16, 16, 16, 48))
        works[str(nid)] = {"nid": mixed_id(rng, nid), "title": title(rng, EN_CONTENT, 1, 6), "location": where(),
                           "gallery_location": rng.choice(gallery_titles),
                           "artist_culture_place_delim": "%s %s|%s" % (title(rng, EN_CONTENT, 1, 1), title(rng, EN_CONTENT, 1, 1), title(rng, EN_CONTENT, 1, 1)),
                           "credit_line": "Gift of the %s Family" % title(rng, EN_CONTENT, 1, 1),
                           "image_url": iiif + "843,/0/default.jpg", "thumbnail_full_path": iiif + "200,/0/default.jpg",
                           "large_image_full_path": iiif + "1686,/0/default.jpg",
                           "audio_commentary": commentary}

    tours = []
    spare = list(range(next_rec, n_recordings))
    for t in range(n_tours):
        stops = []
        for s in range(rng.randint(8, 16)):
            rec = spare.pop() if spare else 0
            stops.append({"sort": s, "object": mixed_id(rng, 10000 + rng.randrange(n_works)),
                          "audio_id": mixed_id(rng, base_rec + rec), "audio_bumper": None})
        name = "Tour of the " + title(rng, EN_CONTENT, 1, 2)
        tours.append({"nid": mixed_id(rng, 9000 + t), "title": name, "weight": t, "image_url": "",
                      "description": prose(rng, EN_FUNCTION, EN_CONTENT, 30), "intro": prose(rng, EN_FUNCTION, EN_CONTENT, 60),
                      "tour_audio": mixed_id(rng, base_rec + (spare.pop() if spare else 0)), "location": where(),
                      "translations": [{"language": "es", "title": title(rng, ES_CONTENT, 2, 4),
                                        "description": prose(rng, ES_FUNCTION, ES_CONTENT, 30), "intro": ""}],
                      "tour_stops": stops})

    doc = {
        "general_info": sample["general_info"],
        "galleries": galleries,
        "objects": works,
        "audio_files": recordings,
        "tours": tours,
        "map_floors": sample["map_floors"],
        "map_annontations": sample["map_annontations"],
        "messages": sample.get("messages", {}),
        "data": sample["data"],
        "search": {"search_strings": {"0": "Gallery"}, "search_objects": [10000 + i for i in range(min(n_works, 20))]},
    }
    tmp = args.out + ".part"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False)
    os.replace(tmp, args.out)
    print("%s: %d bytes, %d works, %d recordings, %d tours, %d galleries"
          % (args.out, os.path.getsize(args.out), n_works, n_recordings, n_tours, n_galleries))


if __name__ == "__main__":
    main()
