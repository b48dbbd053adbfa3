#!/usr/bin/env python3
"""Draws the pictures of a few SampleData artworks: small PNGs of our own making.

The Wrenfield Museum and its artworks are invented (see SampleData/README.md), so are
their pictures: simple compositions drawn here from the artworks' titles, with Python's
standard library only (zlib for PNG). Deterministic: the same bytes every run. Writes
SampleData/images/<slug>.png; make_sampledata.py references them from appData.json.
"""
import math
import os
import struct
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "SampleData", "images")
W, H = 192, 144


def png(path, width, height, pixel):
    """Writes an 8-bit RGB PNG; pixel(x, y) -> (r, g, b)."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter: none
        for x in range(width):
            raw.extend(bytes(max(0, min(255, int(c))) for c in pixel(x, y)))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    data = (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))
    with open(path, "wb") as fh:
        fh.write(data)
    return len(data)


def mix(a, b, t):
    t = max(0.0, min(1.0, t))
    return tuple(a[i] + (b[i] - a[i]) * t for i in range(3))


def harbour(x, y):
    """Harbour at First Light: a rising sun over a calm sea, a dark pier."""
    horizon = 88
    if y < horizon:
        sky = mix((46, 52, 110), (250, 170, 90), y / horizon)
        d = math.hypot(x - 120, y - 84)
        if d < 18:
            return mix((255, 236, 160), sky, max(0.0, (d - 14) / 4))
        return sky
    if 30 < x < 40 and y < 120 or 20 < x < 90 and 112 < y < 118:
        return (40, 34, 40)
    sea = mix((230, 140, 80), (30, 50, 90), (y - horizon) / (H - horizon))
    if abs(x - 120) < 12 - (y - horizon) / 6 and (y // 3) % 2 == 0:
        return mix(sea, (255, 220, 150), 0.6)
    return sea


def night_ferry(x, y):
    """Night Ferry (a gelatin silver print): grey, as the photograph."""
    r, g, b = ferry_colours(x, y)
    v = 0.3 * r + 0.59 * g + 0.11 * b
    return (v, v, v * 0.96)


def ferry_colours(x, y):
    """A lit boat crossing dark water under a few stars."""
    if y < 80:
        star = (x * 7 + y * 13) % 97 == 0
        return (230, 230, 200) if star else mix((8, 12, 40), (20, 34, 80), y / 80)
    if 60 < x < 140 and 70 < y < 92 and not (x > 120 and y < 78):
        if 76 < y < 82 and (x // 8) % 2 == 0:
            return (255, 214, 110)
        return (200, 196, 186) if y < 86 else (120, 40, 40)
    water = mix((20, 30, 70), (6, 10, 30), (y - 80) / 64)
    if 60 < x < 140 and y > 92 and (y + x // 5) % 6 == 0:
        return mix(water, (255, 214, 110), 0.5)
    return water


def moon_jar(x, y):
    """Moon Jar: a round white jar on a warm ground."""
    ground = (214, 196, 160) if y < 116 else (168, 140, 104)
    nx, ny = (x - 96) / 52, (y - 68) / 50
    r = nx * nx + ny * ny
    if r < 1 and 20 < y < 122:
        shade = 1 - 0.35 * max(0.0, nx + 0.3) - 0.1 * r
        return tuple(c * shade for c in (246, 242, 232))
    if 90 < x < 102 and 16 < y <= 22:
        return (236, 232, 220)
    return ground


def coverlet(x, y):
    """Indigo Field Coverlet: woven diamonds in indigo and cream."""
    u, v = (x % 24) - 12, (y % 24) - 12
    if abs(u) + abs(v) < 7:
        return (236, 228, 206)
    if abs(u) + abs(v) < 10:
        return (150, 40, 50) if ((x // 24) + (y // 24)) % 3 == 0 else (60, 90, 160)
    return (28, 38, 92) if (x + y) % 4 else (40, 52, 112)


def birches(x, y):
    """Birch Wood, Evening: pale trunks against an orange sky."""
    sky = mix((250, 150, 70), (120, 60, 90), y / H)
    for cx, w in ((24, 7), (58, 5), (101, 9), (140, 6), (171, 8)):
        if abs(x - cx) < w:
            mark = (y * 3 + cx) % 23 < 3
            return (40, 36, 34) if mark else mix((240, 236, 226), (150, 140, 130), abs(x - cx) / w)
    if y > 120:
        return mix((70, 50, 40), (40, 28, 24), (y - 120) / 24)
    return sky


PICTURES = {
    "harbour-at-first-light": harbour,
    "night-ferry": night_ferry,
    "moon-jar": moon_jar,
    "indigo-field-coverlet": coverlet,
    "birch-wood-evening": birches,
}


def main():
    os.makedirs(OUT, exist_ok=True)
    total = 0
    for slug, draw in PICTURES.items():
        total += png(os.path.join(OUT, slug + ".png"), W, H, draw)
    print(f"pictures: {len(PICTURES)} files, {total // 1024} KB in {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
