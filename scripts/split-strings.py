#!/usr/bin/env python3
"""Moves the UI strings of a feature from the shared tables to the feature's folder (issue 46).

A key whose first word names a feature (`pulse.box.title` -> Pulse, `tour.…` -> Tours) lives in
`Sources/Features/<Name>/Strings/<code>.json`; every other key stays in `Resources/strings/<code>.json`.
Run once for the move, and again after a merge that added such keys to the shared tables: keys
already in a feature's table are left, new ones are appended in the shared file's order.

    python3 scripts/split-strings.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "Resources", "strings")
FEATURES = os.path.join(ROOT, "Sources", "Features")
# The first word of a key -> its feature's folder.
HOMES = {
    "pulse": "Pulse", "map": "Map", "player": "Player", "tour": "Tours", "search": "Search",
    "member": "Member", "home": "Home", "info": "Info", "offline": "Offline", "keypad": "Keypad",
    "pictures": "Pictures", "kiosk": "Kiosk",
}


def read(path):
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f, object_pairs_hook=dict)


def write(path, table):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(table, f, ensure_ascii=False, indent=2)
        f.write("\n")


def main():
    moved = 0
    for name in sorted(os.listdir(SHARED)):
        if not name.endswith(".json"):
            continue
        shared = read(os.path.join(SHARED, name))
        kept, per_feature = {}, {}
        for k, v in shared.items():
            home = HOMES.get(k.split(".")[0])
            if home:
                per_feature.setdefault(home, {})[k] = v
            else:
                kept[k] = v
        for home, table in per_feature.items():
            path = os.path.join(FEATURES, home, "Strings", name)
            current = read(path)
            for k, v in table.items():
                current[k] = v
                moved += 1
            write(path, current)
        write(os.path.join(SHARED, name), kept)
    print(f"split-strings: {moved} strings moved to their features' folders")


if __name__ == "__main__":
    sys.exit(main())
