"""Build a data root holding more than ours: a copy of the official root plus, in their official formats,
fixtures of the registered datasets it lacks (STS 2017 track 5, from the shipped demo pairs, and its other six
tracks, from words of our own in Arabic, Spanish, Turkish and English; the *SEM 2013
TYPED pilot's train and test, Europeana records in the organizers' layout, from tests/test_typed2013_pipeline.py;
BIOSSES and STS22 en as MTEB's Hugging Face files hold them, from the demo pairs with their gold moved affinely
onto the tasks' scales, 0-4 and 1-4; the STS-B companion's two files, from the demo pairs with the official pairs
per source file; MTEB's multilingual STS17, STS22 and stsb_multi_mt in their files' formats, texts of our own in
their languages: fixtures, not the tasks' data). `.ci/run` runs
the whole suite on it too, so that the tests pass whichever datasets a root holds.

    python tests/full_root.py SOURCE DEST
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def sts2017(dest: Path) -> None:
    from semsts import corpora
    demo = corpora.load("demo-test")
    folder = dest / "sts2017" / "test"
    folder.mkdir(parents=True)
    (folder / "STS.input.track5.en-en.txt").write_text("".join(f"{a}\t{b}\n" for a, b in demo.pairs[:250]),
                                                       encoding="utf-8")
    (folder / "STS.gs.track5.en-en.txt").write_text("".join(f"{g:g}\n" for g in demo.subsets[0].gold[:250]),
                                                    encoding="utf-8")
    sts2017_tracks(folder)


# Words of our own for the STS 2017 fixture (not the task's sentences): each track's two sides, and names and numbers
# that cross languages, so that token overlap varies on the cross-lingual tracks too.
_WORDS = {"ar": "رجل امرأة طفل كلب قطة يركض يأكل يقرأ كتاب تفاحة حديقة شارع بيت سيارة كبير صغير".split(),
          "es": "hombre mujer niño perro gato corre come lee libro manzana parque calle casa coche grande pequeño".split(),
          "tr": "adam kadın çocuk köpek kedi koşuyor yiyor okuyor kitap elma park sokak ev araba büyük küçük".split(),
          "en": "man woman child dog cat runs eats reads book apple park street house car big small".split()}
_NAMES = ["Ali", "Ana", "Mehmet", "2017", "Madrid", "Ankara", "Cairo", "3", "Bob", "7"]


def sts2017_pairs(first: str, second: str, n: int, seed: int) -> tuple[list, list]:
    """``n`` fixture pairs (``first``-language text, ``second``-language text) and gold 0-5: the second text keeps k of
    the first's six slots (translated word for word, names kept) and the gold follows k, with a wobble."""
    import random
    rng = random.Random(seed)
    pairs, gold = [], []
    for _ in range(n):
        slots = [("name", rng.randrange(len(_NAMES)))] + [("word", rng.randrange(16)) for _ in range(5)]
        k = rng.randrange(7)
        other = [s if i < k else ("word", (s[1] + 1 + rng.randrange(15)) % 16) if s[0] == "word"
                 else ("name", (s[1] + 1) % len(_NAMES)) for i, s in enumerate(slots)]
        text = lambda lang, ss: " ".join(_NAMES[j] if kind == "name" else _WORDS[lang][j] for kind, j in ss)  # noqa: E731
        pairs.append((text(first, slots), text(second, other)))
        gold.append(round(min(5.0, max(0.0, 5 * k / 6 + rng.choice((-0.4, 0.0, 0.4)))), 1))
    return pairs, gold


def sts2017_tracks(folder: Path) -> None:
    """Every track but track 5 in the layout of sts2017.eval.v1.1.zip and sts2017.gs.zip (UTF-8, tab-separated
    pairs, one gold score a line); track6.tr-en with 500 input pairs for its 250 gold lines, as the official file."""
    folder.mkdir(parents=True, exist_ok=True)
    sides = {"track1.ar-ar": ("ar", "ar"), "track2.ar-en": ("ar", "en"), "track3.es-es": ("es", "es"),
             "track4a.es-en": ("es", "en"), "track4b.es-en": ("es", "en"), "track6.tr-en": ("tr", "en")}
    for seed, (track, (one, two)) in enumerate(sides.items()):
        pairs, gold = sts2017_pairs(one, two, 500 if track == "track6.tr-en" else 250, seed)
        (folder / f"STS.input.{track}.txt").write_text("".join(f"{a}\t{b}\n" for a, b in pairs), encoding="utf-8")
        (folder / f"STS.gs.{track}.txt").write_text("".join(f"{g:g}\n" for g in gold[:250]), encoding="utf-8")


def typed2013(dest: Path) -> None:
    from semsts.corpora import typed2013 as typed
    from tests.conftest import ADDR, GOLD, PAIRS, R
    for split in ("train", "test"):
        folder = dest / "typed2013" / split
        (folder / "text").mkdir(parents=True)
        (folder / typed.INPUT_NAME).write_text("".join(f"{ADDR.format(a)}\t{ADDR.format(b)}\n" for a, b in PAIRS),
                                               encoding="utf-8")
        (folder / typed.GOLD_NAME).write_text("".join("\t".join(f"{v:g}" for v in row) + "\n" for row in GOLD),
                                              encoding="utf-8")
        for number, pair in enumerate(PAIRS, 1):
            for side, rid in zip("ab", pair):
                (folder / "text" / typed.record_filename(number, side, rid)).write_bytes(R[rid].encode("utf-8"))


def _demo_rows(n: int, lo: float, hi: float) -> list[dict]:
    """``n`` demo-test pairs as MTEB JSONL rows, the gold moved from [0, 5] onto [lo, hi]."""
    from semsts import corpora
    demo = corpora.load("demo-test")
    return [{"sentence1": a, "sentence2": b, "score": round(lo + (hi - lo) * float(g) / 5, 4)}
            for (a, b), g in zip(demo.pairs[:n], demo.subsets[0].gold[:n])]


def biosses(dest: Path) -> None:
    """biosses/test.jsonl.gz, as mteb/biosses-sts publishes it (gzip, one object a line): 100 pairs, scores 0-4."""
    import gzip
    import json
    folder = dest / "biosses"
    folder.mkdir(parents=True)
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in _demo_rows(100, 0.0, 4.0))
    (folder / "test.jsonl.gz").write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def sts2022(dest: Path) -> None:
    """sts2022/en/test.jsonl, as mteb/sts22-crosslingual-sts publishes en/test.jsonl: scores 1-4, one pair with an
    empty text (which STS22.v2 drops)."""
    import json
    folder = dest / "sts2022" / "en"
    folder.mkdir(parents=True)
    rows = [{**row, "lang": "en"} for row in _demo_rows(120, 1.0, 4.0)]
    rows[7]["sentence2"] = ""
    (folder / "test.jsonl").write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows),
                                       encoding="utf-8")


def companion_rows(counts: dict, licensed=("postediting.2016", "question-question.2016")) -> list[str]:
    """Rows of an STS-B companion file (file, year, id, score, sentence1, sentence2[, two licence fields]) with
    ``counts`` pairs per source file (``file.year``), cycling through the demo pairs; a quote in the first text."""
    from semsts import corpora
    demo = corpora.load("demo-test")
    pairs, gold, k, rows = demo.pairs, demo.subsets[0].gold, 0, []
    for sub, n in counts.items():
        file, year = sub.rsplit(".", 1)
        for i in range(n):
            a, b = pairs[k % len(pairs)]
            a = f'"{a}" he said' if k == 0 else a
            extra = "\tSource: a fixture (licence A)\tSource: a fixture (licence B)" if sub in licensed else ""
            rows.append(f"{file}\t{year}\t{i:04d}\t{gold[k % len(gold)]:.3f}\t{a}\t{b}{extra}\n")
            k += 1
    return rows


def stscompanion(dest: Path) -> None:
    """stscompanion/sts-mt.csv and sts-other.csv in the layout of the organizers' Stscompanion.tar.gz, with the
    official pairs per source file (the demo pairs, cycled: a fixture, not the companion's pairs)."""
    from semsts.corpora.kinds import KINDS
    folder = dest / "stscompanion"
    folder.mkdir(parents=True)
    for split, counts in KINDS["stscompanion"].official.items():
        (folder / f"sts-{split}.csv").write_text("".join(companion_rows(counts)), encoding="utf-8")


# MTEB's multilingual STS tasks: texts of our own, a dozen words aligned by meaning in each language (Arabic,
# Chinese and Korean among them), so that a cross-lingual pair can share meaning without sharing tokens.
WORDS = {lang: words.split() + ["Berlin", "2017"] for lang, words in {  # two names every language writes alike
    "en": "the cat sits on a red carpet in the house",
    "de": "die Katze sitzt auf einem roten Teppich im großen Haus",
    "es": "el gato se sienta en una alfombra roja en casa",
    "fr": "le chat est assis sur un tapis rouge dans maison",
    "it": "il gatto siede su un tappeto rosso nella grande casa",
    "nl": "de kat zit op een rood tapijt in het huis",
    "pl": "kot siedzi na czerwonym dywanie w dużym domu i śpi",
    "pt": "o gato senta no tapete vermelho na casa grande agora",
    "ru": "кошка сидит на красном ковре в большом доме и спит",
    "tr": "kedi büyük evde kırmızı halının üstünde oturuyor ve uyuyor sessizce",
    "ar": "القطة تجلس على السجادة الحمراء في البيت الكبير وتنام بهدوء",
    "zh": "猫 坐 在 红色 的 地毯 上 大 房子 里",
    "ko": "고양이가 큰 집의 빨간 카펫 위에 앉아 조용히 잠을 잔다",
}.items()}
JOINED = ("zh",)  # Chinese is written without spaces between its words


def _text(lang: str, indices) -> str:
    words = [WORDS[lang][i % len(WORDS[lang])] for i in indices]
    if lang not in JOINED:
        return " ".join(words)
    return "".join(w if not w.isascii() else f" {w} " for w in words).strip()  # a name stays a word of its own


def _multilingual_rows(pair: str, n: int, lo: float, hi: float, seed: int) -> list[dict]:
    """``n`` pairs of the subset ``pair`` (``de`` or ``en-ar``): the second text the first's words with some changed,
    the gold the share kept, moved onto [lo, hi] (a fixture's scale, not the task's data)."""
    import numpy as np
    first, _, second = pair.partition("-")
    second = second or first
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        a = rng.integers(0, 12, size=int(rng.integers(4, 9))).tolist()
        changed = int(rng.integers(0, len(a) + 1))
        b = a[:len(a) - changed] + rng.integers(0, 12, size=changed).tolist()
        kept = (len(a) - changed) / len(a)
        rows.append({"sentence1": _text(first, a), "sentence2": _text(second, b),
                     "score": round(lo + (hi - lo) * kept, 2), "lang": pair})
    return rows


def mteb_multilingual(dest: Path) -> None:
    """MTEB's multilingual STS files as `sts data fetch` installs them, at their paths in the Hugging Face
    repositories: mteb/sts17-crosslingual-sts test/{pair}.jsonl.gz (0-5), mteb/sts22-crosslingual-sts {lang}/test.jsonl
    (1-4; one empty text in de, which STS22.v2 drops) and mteb/stsb_multi_mt {split}/{lang}.parquet (0-5, the score
    in similarity_score, float32, written by pyarrow as the Hub's files are)."""
    import gzip
    import json

    from semsts.corpora.datasets import STS17_PAIRS, STS22_LANGUAGES, STSB_MULTI_LANGUAGES

    def lines(rows):
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)

    folder = dest / "mteb" / "sts17-crosslingual-sts" / "test"
    folder.mkdir(parents=True)
    for i, pair in enumerate(STS17_PAIRS):
        text = lines(_multilingual_rows(pair, 40, 0.0, 5.0, i))
        (folder / f"{pair}.jsonl.gz").write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    for i, lang in enumerate(STS22_LANGUAGES):
        folder = dest / "mteb" / "sts22-crosslingual-sts" / lang
        folder.mkdir(parents=True)
        rows = _multilingual_rows(lang, 30, 1.0, 4.0, 100 + i)
        if lang == "de":
            rows[3]["sentence1"] = ""
        (folder / "test.jsonl").write_text(lines(rows), encoding="utf-8")
    import pyarrow as pa
    import pyarrow.parquet as pq
    for split, n in (("test", 50), ("dev", 40)):
        folder = dest / "mteb" / "stsb_multi_mt" / split
        folder.mkdir(parents=True)
        for i, lang in enumerate(STSB_MULTI_LANGUAGES):
            rows = _multilingual_rows(lang, n, 0.0, 5.0, 200 + i + (len(STSB_MULTI_LANGUAGES) if split == "dev" else 0))
            table = pa.table({"sentence1": [r["sentence1"] for r in rows], "sentence2": [r["sentence2"] for r in rows],
                              "similarity_score": pa.array([r["score"] for r in rows], pa.float32()),
                              "lang": [lang] * n})
            pq.write_table(table, folder / f"{lang}.parquet")

def main(argv=None) -> int:
    source, dest = (Path(a) for a in (argv if argv is not None else sys.argv[1:]))
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest)
    for folder in [dest, *dest.rglob("*")]:
        if folder.is_dir():
            folder.chmod(0o755)
    if not (dest / "sts2017").exists():
        sts2017(dest)
    if not (dest / "typed2013").exists():
        typed2013(dest)
    if not (dest / "biosses").exists():
        biosses(dest)
    if not (dest / "sts2022").exists():
        sts2022(dest)
    if not (dest / "stscompanion").exists():
        stscompanion(dest)
    if not (dest / "mteb").exists():
        mteb_multilingual(dest)
    print(dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
