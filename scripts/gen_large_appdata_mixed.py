#!/usr/bin/env python3
"""Write a third large v2 appData for benchmarks: the "held-out" shape of issue 30.

Usage:  python3 scripts/gen_large_appdata_mixed.py OUT.json [--seed N] [--scale X]

Written apart from gen_large_appdata.py and gen_large_appdata_cjk.py (it shares no code nor
word lists with them), from the shape the issue describes, so the guide's speed is checked on
a museum export it was not tuned to:

- 20,000 artworks and 25,000 recordings; every recording has English and four translations:
  Spanish, Traditional Chinese, Korean whose fields are all empty strings, and French on one
  recording in five;
- transcripts of about 150 words (English, Spanish, French) or 200 CJK characters (Chinese),
  with paragraph breaks (CRLF) and the odd HTML entity, UTF-8 as it is (not escaped);
- ids mixed: numbers and numeric strings, member keys always strings;
- locations "lat,lng" and "lat, lng" alike;
- about 80 tours of 10 to 20 stops, most stops with a bumper recording;
- about 200 galleries on four floors, artworks spread over them;
- compact separators (no space after `,` or `:`), as PHP's json_encode writes.

The museum's scaffolding (general info, API settings, floor plans, annotations, messages) is
SampleData's, so the guide can open the file; the rest is generated from a fixed seed and is
identical on every run. `--scale` multiplies the counts (a smaller file for a quick look).
"""

import argparse
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "SampleData", "appData.json")

SYLLABLES = "ka ro mi sen tal vo re lin dor pa ke su mar bel to ni gra fen os ul che da wi an".split()
ES_SYLLABLES = "la de que el en un por con una su para es al lo como más pero sus le ya".split()
FR_SYLLABLES = "le la les des une dans sur pour avec qui pas plus tout son ses aux été".split()
# Common Traditional Chinese characters (a block of the frequent ones, in no meaning order).
HANZI = ("的一是在不了有和人這中大為上個國我以要他時來用們生到作地於出就分對成會可也你"
         "過家學下自後說多能之都年同工著其行十三方小長義心發然當天實回還裡部主好意法此"
         "畫館藝術作品色光線空間時代風景人物肖像雕塑陶瓷青銅紙墨山水花鳥城市港口夜晚")
PUNCT_ZH = "，。、；"
ENTITIES = ["&amp;", "&#039;", "&quot;", "&nbsp;"]


def word(rng, syllables, lo=1, hi=3):
    return "".join(rng.choice(syllables) for _ in range(rng.randint(lo, hi)))


def words_text(rng, syllables, n):
    """n words in sentences of 6-18 words, paragraphs split by CRLF, an entity now and then."""
    out = []
    left = n
    sentence_no = 0
    while left > 0:
        k = min(left, rng.randint(6, 18))
        ws = [word(rng, syllables) for _ in range(k)]
        ws[0] = ws[0].capitalize()
        if rng.random() < 0.15:
            ws.insert(rng.randint(1, len(ws)), rng.choice(ENTITIES))
        s = " ".join(ws) + rng.choice(".....?!")
        sentence_no += 1
        out.append(s)
        if sentence_no % 4 == 0 and left > k:
            out.append("\r\n\r\n")
        else:
            out.append(" ")
        left -= k
    return "".join(out).strip()


def hanzi_text(rng, n):
    chars = []
    while len(chars) < n:
        run = rng.randint(8, 24)
        chars.extend(rng.choice(HANZI) for _ in range(run))
        chars.append(rng.choice(PUNCT_ZH))
    return "".join(chars[:n - 1]) + "。"


def an_id(rng, n):
    """A numeric id as a number or as a numeric string, half and half."""
    return n if rng.random() < 0.5 else str(n)


def location(rng, lat, lng):
    sep = ", " if rng.random() < 0.5 else ","
    return "%.12f%s%.12f" % (lat, sep, lng)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sample = json.load(open(SAMPLE, encoding="utf-8"))

    n_objects = int(20000 * args.scale)
    n_audio = int(25000 * args.scale)
    n_tours = max(2, int(80 * args.scale))
    n_galleries = max(4, int(200 * args.scale))
    floors = [k for k in sample["map_floors"]][:4]
    floor_labels = [sample["map_floors"][k]["label"] for k in floors]

    # The museum's corner of the map (SampleData's anchors), so everything lands on a floor plan.
    lat0, lat1 = 41.87930, 41.88010
    lng0, lng1 = -87.62420, -87.62230

    def spot():
        return rng.uniform(lat0, lat1), rng.uniform(lng0, lng1)

    galleries = {}
    gallery_names = []
    for g in range(n_galleries):
        nid = 50000 + g
        name = "Gallery %d%s" % (100 + g, rng.choice(["", "", "A", "B"]))
        gallery_names.append(name)
        lat, lng = spot()
        galleries[str(nid)] = {
            "nid": an_id(rng, nid),
            "title": name,
            "gallery_id": str(880000 + g),
            "closed": rng.random() < 0.03,
            "location": location(rng, lat, lng),
            "floor": floor_labels[g % len(floor_labels)] if rng.random() < 0.5 else str(g % 4),
        }

    audio = {}
    base_audio = 600000
    for a in range(n_audio):
        nid = base_audio + a
        title = " ".join(word(rng, SYLLABLES).capitalize() for _ in range(rng.randint(2, 5)))
        url = "audio/%s" % rng.choice(["2001-en.mp3", "2002-en.mp3", "2003-en.mp3"])
        translations = [
            {"language": "es", "title": title, "track_title": word(rng, ES_SYLLABLES).capitalize() + " " + word(rng, ES_SYLLABLES),
             "audio_file_url": url, "audio_transcript": words_text(rng, ES_SYLLABLES, rng.randint(135, 165))},
            {"language": "zh-hant", "title": title, "track_title": hanzi_text(rng, rng.randint(4, 9)),
             "audio_file_url": url, "audio_transcript": hanzi_text(rng, rng.randint(180, 220))},
            {"language": "ko", "title": "", "track_title": "", "audio_file_url": "", "audio_transcript": ""},
        ]
        if a % 5 == 0:
            translations.append({"language": "fr", "title": title, "track_title": word(rng, FR_SYLLABLES).capitalize(),
                                 "audio_file_url": url, "audio_transcript": words_text(rng, FR_SYLLABLES, rng.randint(135, 165))})
        audio[str(nid)] = {
            "nid": an_id(rng, nid),
            "title": title,
            "audio_file_url": url,
            "audio_transcript": words_text(rng, SYLLABLES, rng.randint(135, 165)),
            "track_title": title,
            "translations": translations,
        }

    # Recordings: the first ones belong to artworks (one each, a few artworks have two), the
    # rest are tour intros and bumpers.
    objects = {}
    next_audio = 0
    keypad = 1000
    base_object = 200000
    for o in range(n_objects):
        nid = base_object + o
        lat, lng = spot()
        commentary = []
        for _ in range(2 if o % 4 == 0 else 1):
            if next_audio >= n_audio - n_tours * 35:
                break
            keypad += rng.randint(1, 3)
            commentary.append({"object_selector_number": str(keypad), "audio": an_id(rng, base_audio + next_audio)})
            next_audio += 1
        img = "images/%s" % rng.choice(["indigo-field-coverlet.png", "harbour-at-first-light.png"])
        objects[str(nid)] = {
            "nid": an_id(rng, nid),
            "id": an_id(rng, 900000 + o),
            "title": " ".join(word(rng, SYLLABLES).capitalize() for _ in range(rng.randint(1, 6))),
            "location": location(rng, lat, lng),
            "gallery_location": rng.choice(gallery_names),
            "artist_culture_place_delim": "%s %s|%s, %d" % (word(rng, SYLLABLES).capitalize(), word(rng, SYLLABLES).capitalize(),
                                                            word(rng, SYLLABLES).capitalize(), rng.randint(1400, 2020)),
            "date_display": str(rng.randint(1400, 2020)),
            "medium_display": rng.choice(["Oil on canvas", "Bronze", "Ink on paper", "Glazed stoneware", "Wool"]),
            "credit_line": "Gift of " + word(rng, SYLLABLES).capitalize(),
            "image_url": img,
            "thumbnail_full_path": img,
            "large_image_full_path": img,
            "audio_commentary": commentary,
        }

    tours = []
    object_ids = list(range(base_object, base_object + n_objects))
    spare = list(range(next_audio, n_audio))
    for t in range(n_tours):
        nid = 700000 + t
        stops = []
        for s in range(rng.randint(10, 20)):
            obj = rng.choice(object_ids)
            stop_audio = spare.pop() if spare else 0
            bumper = spare.pop() if spare and rng.random() < 0.8 else None
            stops.append({
                "sort": s,
                "object": an_id(rng, obj),
                "audio_id": an_id(rng, base_audio + stop_audio),
                "audio_bumper": None if bumper is None else an_id(rng, base_audio + bumper),
            })
        lat, lng = spot()
        intro = spare.pop() if spare else 0
        title = "Tour of " + " ".join(word(rng, SYLLABLES).capitalize() for _ in range(rng.randint(1, 3)))
        tours.append({
            "nid": an_id(rng, nid),
            "title": title,
            "weight": t,
            "image_url": "images/harbour-at-first-light.png",
            "description": words_text(rng, SYLLABLES, 20),
            "intro": words_text(rng, SYLLABLES, 40),
            "tour_audio": an_id(rng, base_audio + intro),
            "location": location(rng, lat, lng),
            "translations": [
                {"language": "es", "title": title, "description": words_text(rng, ES_SYLLABLES, 20), "intro": ""},
                {"language": "zh-hant", "title": hanzi_text(rng, 8), "description": hanzi_text(rng, 30), "intro": ""},
                {"language": "ko", "title": "", "description": "", "intro": ""},
            ],
            "tour_stops": stops,
        })

    app = {
        "dashboard": sample.get("dashboard", {}),
        "general_info": sample["general_info"],
        "galleries": galleries,
        "objects": objects,
        "audio_files": audio,
        "tours": tours,
        "map_floors": sample["map_floors"],
        "map_annontations": sample["map_annontations"],
        "messages": sample.get("messages", {}),
        "data": sample["data"],
        "search": {"search_strings": {"0": "Tour of", "1": "Gallery"}, "search_objects": [an_id(rng, base_object + i) for i in range(0, min(n_objects, 50))]},
    }
    tmp = args.out + ".part"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(app, f, ensure_ascii=False, separators=(",", ":"))
    os.replace(tmp, args.out)
    print("%s: %d bytes, %d artworks, %d recordings, %d tours, %d galleries"
          % (args.out, os.path.getsize(args.out), n_objects, n_audio, n_tours, n_galleries))


if __name__ == "__main__":
    main()
