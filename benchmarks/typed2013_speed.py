"""Speed of typed-tfidf and typed-regression on 750 synthetic TYPED record pairs (the size of the test set).

Run: ``python benchmarks/typed2013_speed.py [--write [SECTION]]`` (well under a minute on 2 cores). No TYPED data is on this
machine, so the records are generated from templates (titles, creators, dates, places, subjects,
descriptions) with a fixed seed; WordNet and GeoNames loading is timed apart from the systems.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from semsts.baselines.typed2013_regression import TypedRegression
from semsts.baselines.typed2013_tfidf import TypedTfidf
from semsts.corpora import wordnet
from semsts.corpora.typed2013 import format_record
from semsts.features.typed2013 import geonames_places

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

PLACES = ["Leeds", "York", "Bradford", "Halifax", "Paris", "London", "Saltaire", "Whitby", "Yorkshire", "Kent"]
PEOPLE = ["SUTCLIFFE; Frank Meadow (1853-1941)", "TAUNT; Henry (1842-1922)", "Unknown", "ATGET; Eugène (1857-1927)"]
SUBJECTS = ["architecture", "streets", "industry", "textiles", "churches", "boats", "harbours", "posters", "coins"]
WORDS = ("view photograph of the old mill church market harbour street with people boats built opened visited "
         "restored shows crowd workers weaving station soldiers marched").split()


def record(rng: np.random.Generator) -> str:
    year = int(rng.integers(1840, 1950))
    fields = {
        "dcTitle": [f"{rng.choice(WORDS).capitalize()} {' '.join(rng.choice(WORDS, 3))}, {rng.choice(PLACES)}"],
        "dcCreator": list(rng.choice(PEOPLE, int(rng.integers(0, 2)))),
        "dcDate": [f"c. {year}"] if rng.random() < 0.8 else [],
        "dcSubject": list(rng.choice(SUBJECTS, int(rng.integers(0, 3)), replace=False)),
        "dcDescription": [" ".join(rng.choice(WORDS, 12)) + f" in {rng.choice(PLACES)} in {year}."],
    }
    return format_record(fields)


def timed(function):
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    results.add_write_flag(parser, "typed2013-speed")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        measure()
    return 0


def measure() -> None:
    rng = np.random.default_rng(0)
    pairs = [(record(rng), record(rng)) for _ in range(750)]
    gold = rng.uniform(0, 5, (750, 8))
    _, t_wordnet = timed(wordnet.wordnet)
    _, t_places = timed(geonames_places)
    model, t_fit = timed(lambda: TypedTfidf().fit(pairs))
    _, t_predict = timed(lambda: model.predict(pairs))
    regression, t_rfit = timed(lambda: TypedRegression().fit(pairs, gold))
    _, t_rpredict = timed(lambda: regression.predict(pairs))
    print("| step (750 synthetic record pairs) | seconds |\n|---|---:|")
    print(f"| load WordNet (once per process) | {t_wordnet:.2f} |")
    print(f"| load the GeoNames place names (once per process) | {t_places:.2f} |")
    print(f"| typed-tfidf: fit (1,500 records) | {t_fit:.2f} |")
    print(f"| typed-tfidf: predict 750 pairs | {t_predict:.2f} |")
    print(f"| typed-regression: fit | {t_rfit:.2f} |")
    print(f"| typed-regression: predict 750 pairs | {t_rpredict:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
