#!/usr/bin/env python3
"""Write a second large synthetic appData for benchmarks, of another shape than
scripts/gen_large_appdata.py, so no single shape is tuned for (issue 14).

Usage:  python3 scripts/gen_large_appdata_cjk.py OUT.json [--seed N]

The same museum plan (20,000 artworks, 25,000 audio files, 80 tours), but:
- five languages (English and four translations: es, fr, zh-Hans, ko; the first shape has
  zh-Hant), with Korean and Simplified Chinese text of their own and longer transcripts;
- every nid a string (the first shape mixes numbers and numeric strings);
- written with non-ASCII escaped (`\\uXXXX`, as many CMS exports do) and a space after every
  comma and colon, so the parser meets escapes and whitespace the first shape lacks.
About 125 MB. Deterministic for a seed. The output is not committed.
"""

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_large_appdata as base  # noqa: E402  (same folder)

KO_WORDS = """항구 빛 캔버스 화가 등불 조수 초상 직조공 유약 가마 청동 대리석 강 아침 저녁 폭풍
안개 부두 배 돛 밧줄 닻 갈매기 왜가리 들판 눈 색채 파랑 초록 장미색 회색 금색 은색 실 베틀
점토 자기 붓 붓질 그림자 창문 정원 안뜰 작업실 공방 수집가 박물관 전시실 스케치 습작 인물
듣다 보다 자세히 모서리 가장자리 표면 층 세부 무늬 액자 가족 친구 선원 어부 아이 어머니 딸
예술가""".split()
KO_GLUE = "은 는 이 가 을 를 의 에 와 과".split()
ZHS_WORDS = """港口 光线 画布 画家 灯笼 潮汐 肖像 织工 釉色 窑炉 青铜 大理石 河流 清晨 黄昏 暴风雨
雾气 码头 船只 船帆 缆绳 船锚 海鸥 苍鹭 田野 白雪 颜色 蓝色 绿色 玫瑰色 灰色 金色 银色 丝线
织布机 陶土 瓷器 画笔 笔触 阴影 窗户 花园 中庭 工作室 工坊 收藏家 博物馆 展厅 素描 习作 人物
聆听 观看 仔细 注意 角落 边缘 表面 层次 细节 图案 边框 家人 朋友 水手 渔夫 孩子 母亲 女儿
艺术家""".split()
ZHS_GLUE = "的 在 和 与 从 把 让 被 也 就".split()

base.TRANSLATIONS = ("es", "fr", "zh-hans", "ko")
base.TRANSCRIPT_SENTENCES = (4, 8)
CJK = ("zh-hans", "zh-hant")

original_pools = base.sentence_pools


def sentence_pools(rng):
    pools = original_pools(rng)
    if "ko" not in pools:
        pools["ko"] = [base.text(rng, KO_WORDS, KO_GLUE, 1, " ", ".", False) for _ in range(base.SENTENCE_POOL)]
        pools["zh-hans"] = [base.text(rng, ZHS_WORDS, ZHS_GLUE, 1, "", "。", False) for _ in range(base.SENTENCE_POOL)]
    return pools


def transcript(rng, lang):
    k = rng.randint(*base.TRANSCRIPT_SENTENCES)
    pool = base._POOLS[lang]
    if lang in CJK:
        return "".join(rng.choices(pool, k=k))
    t = " ".join(rng.choices(pool, k=k))
    return t.replace(". ", ".\r\n\r\n", 1) if rng.random() < 0.2 else t


original_urls = base.sample_audio_urls


def sample_audio_urls():
    urls = original_urls()
    for lang in base.TRANSLATIONS:
        urls.setdefault(lang, urls["en"])
    return urls


base.sentence_pools = sentence_pools
base.transcript = transcript
base.sample_audio_urls = sample_audio_urls


def stringify_ids(app):
    """Every nid (and id) a string, where the first shape mixes them."""
    for section in ("galleries", "objects", "audio_files"):
        for rec in app[section].values():
            for key in ("nid", "id"):
                if isinstance(rec.get(key), int):
                    rec[key] = str(rec[key])
    for tour in app["tours"]:
        tour["nid"] = str(tour["nid"])
        for stop in tour["tour_stops"]:
            for key in ("object", "audio_id", "audio_bumper"):
                if isinstance(stop.get(key), int):
                    stop[key] = str(stop[key])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="path of the JSON file to write")
    ap.add_argument("--seed", type=int, default=20261125)
    args = ap.parse_args()
    t0 = time.time()
    app = base.build(args.seed)
    stringify_ids(app)
    with open(args.out, "w", encoding="ascii", newline="\n") as f:
        json.dump(app, f, ensure_ascii=True, separators=(", ", ": "))
        f.write("\n")
    size = os.path.getsize(args.out)
    print(f"wrote {args.out}: {size / 1e6:.1f} MB, {len(app['objects'])} objects, "
          f"{len(app['audio_files'])} audio files, {len(app['tours'])} tours in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
