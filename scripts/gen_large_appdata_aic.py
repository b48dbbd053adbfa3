#!/usr/bin/env python3
"""Write a fourth large appData for benchmarks: the AIC app's own v2 file, scaled up.

Usage:  python3 scripts/gen_large_appdata_aic.py OUT.json [--mb N] [--source FILE]

The source is ../shared/reference/aic/appData-v2.json (real data from AIC's public repository:
read there, never copied into the project). Its works and recordings are repeated with new ids
(each copy's titles end in its number, its keypad numbers are its own) until the file is about
N megabytes (default 77); tours, galleries, map annotations and the rest are kept as they are.
Every copy says the same words, so every word of a transcript is in one work in nine: a shape
no generator of ours makes (`scripts/bench-search.sh --data OUT.json` reports it beside the
others in DECISIONS).
"""

import argparse
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--mb", type=float, default=77)
    p.add_argument("--source", default=os.path.join(HERE, "..", "..", "shared", "reference", "aic", "appData-v2.json"))
    a = p.parse_args()
    try:
        with open(a.source, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        print(f"gen_large_appdata_aic: cannot read {a.source}: {e.strerror}", file=sys.stderr)
        return 2
    works = list(doc["objects"].items())
    recordings = list(doc["audio_files"].items())
    objects, audio = {}, {}
    target = a.mb * 1_000_000
    size = len(json.dumps(doc))
    per_copy = len(json.dumps(dict(works))) + len(json.dumps(dict(recordings)))
    k = 0
    while size < target:
        for key, o in works:
            c = copy.deepcopy(o)
            nid = 100000 + k * 100 + int(key) % 100
            c["nid"] = str(nid)
            c["title"] = f'{o["title"]} {k}'
            for cm in c.get("audio_commentary") or []:
                cm["audio"] = str(200000 + k * 100 + int(cm["audio"]) % 100)
                cm["object_selector_number"] = str(10000 + k * 10 + int(cm["object_selector_number"]) % 10)
            objects[str(nid)] = c
        for key, r in recordings:
            c = copy.deepcopy(r)
            aid = 200000 + k * 100 + int(key) % 100
            c["nid"] = aid
            audio[str(aid)] = c
        k += 1
        size += per_copy
    doc["objects"] = objects
    doc["audio_files"] = audio
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    print(f"{a.out}: {k} copies, {len(objects)} works, {len(audio)} recordings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
