"""The time-travel regimes (issue 47): each year's test predicted from the STS data released before it.

For each of ``sts2014``, ``sts2015``, ``sts2016``, ``sts2017`` (``baselines.regimes.time_travel``): the command
users run, ``sts train --regime stsYYYY --save …``, timed on this machine (its default workers), and its card's
figures on that year's test set under the task's official aggregate (2014-2016: the size-weighted Mean of the
subsets' Pearsons; 2017: track 5's Pearson), beside the best run of that year's table. The training choices (the
regressor's hyperparameters, by CV on folds of whole training domains) look at no gold of the test year or later;
the test figures only report. Without ``sts2017-test`` under the data root, 2017 is scored on track 5's 250 pairs as
the STS Benchmark redistributes them (the ``track5.en-en`` rows of its dev and test files, with their gold), passed
as ``--test``; the regime never trains on the STS Benchmark.

    python benchmarks/time_travel.py [--years 2014 2015 2016 2017] [--data-dir DIR] [--write [SECTION]]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

from semsts.corpora.paths import data_root

# The best run of each year's English table by its size-weighted Mean, from the results tables of Agirre et al. (2014)
# SemEval-2014 Task 10, (2015) SemEval-2015 Task 2 and (2016) SemEval-2016 Task 1, as public restatements quote them
# (the tables themselves are not yet in corpora/leaderboards, issue 47); 2017: track 5 (English), the best Pearson
# we know of, as issue 47 gives it (Cer et al. 2017, SemEval-2017 Task 1, its track 5 table).
BEST = {2014: ("DLS@CU run2", 0.7610), 2015: ("DLS@CU S1", 0.8015), 2016: ("Samsung Poland NLP", 0.7781),
        2017: ("track 5's best run", 0.8547)}


def track5_from_stsb(root: Path, folder: Path) -> Path:
    """SemEval-2017 track 5's 250 pairs with their gold, as the STS Benchmark's dev and test files hold them (the
    ``track5.en-en`` rows), as a headed TSV (sentence1, sentence2, score)."""
    rows = []
    for split in ("dev", "test"):
        for line in (root / "stsbenchmark" / f"sts-{split}.csv").read_text(encoding="utf-8").splitlines():
            fields = line.split("\t")
            if fields[1] == "track5.en-en":
                rows.append("\t".join((fields[5], fields[6], fields[4])))
    if len(rows) != 250:
        raise SystemExit(f"error: the STS Benchmark under {root} holds {len(rows)} track5.en-en rows, expected 250")
    path = folder / "sts2017-track5-from-stsb.tsv"
    path.write_text("sentence1\tsentence2\tscore\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def train(year: int, data_dir: str | None, folder: Path) -> tuple[float, dict]:
    """Seconds of ``sts train --regime stsYEAR`` and the card it writes."""
    model = folder / f"sts{year}.skops"
    command = [sys.executable, "-m", "semsts", "train", "--regime", f"sts{year}", "--save", str(model), "--quiet"]
    if data_dir:
        command += ["--data-dir", data_dir]
    root = data_root(data_dir)
    if year == 2017 and not (root / "sts2017" / "test" / "STS.gs.track5.en-en.txt").is_file():
        command += ["--test", str(track5_from_stsb(root, folder))]
    start = time.perf_counter()
    subprocess.run(command, check=True)
    seconds = time.perf_counter() - start
    return seconds, json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", nargs="+", type=int, default=sorted(BEST), choices=sorted(BEST))
    parser.add_argument("--data-dir")
    results.add_write_flag(parser, "time-travel")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    print("| regime | trained on | pairs | CV folds (domains) | regressor | training | test subsets (Pearson) "
          "| Mean | the year's best run | reached |")
    print("|---|---|---:|---:|---|---:|---|---:|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for year in args.years:
            seconds, card = train(year, args.data_dir, Path(tmp))
            (model,) = card["training_data"]["sub_models"].values()
            held_out = model["cv"].split("(", 1)[1].rstrip(")")  # "a, b, c" (one domain a fold) or "a, b; c" (folds)
            folds, domains = held_out.split("; " if ";" in held_out else ", "), held_out.replace(";", ",").split(", ")
            test = card["scores"]["test"]
            subsets = ", ".join(f"{name} {entry['pearson']:.4f}" for name, entry in test["subsets"].items())
            team, best = BEST[year]
            if year == 2017 and test["dataset"] != "sts2017-test":
                subsets = f"track 5 from STS-B {test['mean']:.4f}"
            print(f"| sts{year} | {' + '.join(card['training_data']['datasets'])} | {model['pairs']:,} | "
                  f"{len(folds)} ({len(domains)}) | {card['params']['regressor']} | {seconds / 60:.1f} min | "
                  f"{subsets} | {test['mean']:.4f} | {team} {best:.4f} | "
                  f"{'yes' if round(test['mean'], 4) >= best else 'no'} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
