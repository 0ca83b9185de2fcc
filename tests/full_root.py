"""Build a data root holding more than ours: a copy of the official root plus, in their official formats,
fixtures of the registered datasets it lacks (STS 2017 track 5, from the shipped demo pairs, and its other six
tracks, from words of our own in Arabic, Spanish, Turkish and English; the *SEM 2013
TYPED pilot's train and test, Europeana records in the organizers' layout, from tests/test_typed2013_pipeline.py;
BIOSSES and STS22 en as MTEB's Hugging Face files hold them, from the demo pairs with their gold moved affinely
onto the tasks' scales, 0-4 and 1-4; the STS-B companion's two files, from the demo pairs with the official pairs
per source file: fixtures, not the tasks' data). `.ci/run` runs
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
    for split, counts in KINDS["stscompanion"].OFFICIAL_PAIRS.items():
        (folder / f"sts-{split}.csv").write_text("".join(companion_rows(counts)), encoding="utf-8")


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
    print(dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
