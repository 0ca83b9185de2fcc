"""Speed of the built-in encoder systems (glove-mean, sif) over the STS family, and what they score.

Each system runs in a fresh Python process (cold start: imports, GloVe and wordfreq loading, data
reading included) over sts2012-test ... sts2016-test, stsb-test and SICK's test set, predicting
every pair of every subset as ``sts run`` does (SIF fits its component per subset). SICK is read
from ``sick2014/SICK_test_annotated.txt`` under the data root when no ``sick2014-test`` dataset is
registered. Printed per system: wall time, pairs predicted and scored, then the SimCSE-convention
figure (Spearman x 100, pooled) per dataset beside SimCSE Table 5's "GloVe embeddings (avg.)" row,
and the official figures (see benchmarks/glove_mean_gap.py for why glove-mean trails that row).

    python benchmarks/encoder_speed.py [--data-dir DIR] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's scoring package (not yet installed)

SYSTEMS = ("glove-mean", "sif")
DATASETS = ("sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test", "sts2016-test", "stsb-test", "sick2014-test")


def sick_test(data_dir):
    """SICK's test set as a one-subset dataset (registered, or read from its file)."""
    import numpy as np

    import corpora
    try:
        return corpora.load("sick2014-test", data_dir)
    except corpora.DatasetNotFound:
        pass
    path = Path(data_dir) / "sick2014" / "SICK_test_annotated.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    if header[:4] != ["pair_ID", "sentence_A", "sentence_B", "relatedness_score"]:
        raise corpora.FormatError(path, 1, f"expected the SICK header, got {header[:4]}")
    pairs, gold = [], []
    for number, line in enumerate(lines[1:], 2):
        fields = line.split("\t")
        if len(fields) != len(header):
            raise corpora.FormatError(path, number, f"expected {len(header)} tab-separated fields, got {len(fields)}")
        pairs.append((fields[1], fields[2]))
        gold.append(float(fields[3]))
    return [("test", pairs, np.asarray(gold))]


def load(name: str, data_dir):
    """``[(subset name, pairs, gold)]`` of a dataset."""
    import corpora
    if name == "sick2014-test":
        ds = sick_test(data_dir)
        if isinstance(ds, list):
            return ds
    else:
        ds = corpora.load(name, data_dir)
    return [(sub.name, sub.pairs, sub.gold) for sub in ds]


def one(system: str, data_dir) -> dict:
    """Load, fit and predict every dataset with ``system`` in this process; time it and score it."""
    start = time.perf_counter()
    from baselines import make_system
    from scoring import conventions

    out = {"system": system, "datasets": {}}
    n_pairs = n_scored = 0
    for name in DATASETS:
        subsets = load(name, data_dir)
        parts = {}
        for sub_name, pairs, gold in subsets:
            parts[sub_name] = (gold, make_system(system).fit([]).predict(pairs))
            n_pairs += len(pairs)
        sizes = conventions.sizes(parts)
        n_scored += sum(sizes.values())
        out["datasets"][name] = {"simcse": conventions.simcse(parts), "official": conventions.official(name, parts),
                                 "senteval": conventions.senteval(parts)["all"], "n_scored": sum(sizes.values())}
    out.update(seconds=time.perf_counter() - start, pairs=n_pairs, scored=n_scored)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=os.environ.get("STS_DATA"), help="data root (default: $STS_DATA)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.data_dir)))
        return 0
    from corpora.published_encoders import contenders, labels

    results = []
    for system in SYSTEMS:  # a fresh process each: cold start
        proc = subprocess.run([sys.executable, __file__, "--one", system, "--data-dir", str(args.data_dir)],
                              capture_output=True, text=True, check=True)
        results.append(json.loads(proc.stdout))
    published = next(r for r in contenders() if r.name == "GloVe embeddings (avg.)")

    print(f"# {time.strftime('%Y-%m-%d', time.gmtime())}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}")
    for r in results:
        print(f"{r['system']}: {r['seconds']:.1f} s cold, {r['pairs']} pairs predicted ({r['scored']} scored)")
    names = labels()
    print("\nSimCSE convention (Spearman x 100; STS12-16 pooled, STS-B and SICK-R test):")
    print("| system | " + " | ".join(names[d] for d in DATASETS) + " | Avg. |")
    print("|---" * (len(DATASETS) + 2) + "|")
    from scoring.conventions import simcse_average
    for r in results:
        figures = [r["datasets"][d]["simcse"] for d in DATASETS]
        print(f"| {r['system']} (ours, 50d) | " + " | ".join(f"{f:.2f}" for f in figures)
              + f" | {simcse_average(figures):.2f} |")
    print("| GloVe embeddings (avg.), SimCSE Table 5 | " + " | ".join(f"{published.figures[d]:.2f}" for d in DATASETS)
          + f" | {published.average:.2f} |")
    print("\nOfficial figures (Pearson):")
    for r in results:
        print(f"{r['system']}: " + "; ".join(f"{d}: " + ", ".join(f"{k} {v:.4f}" for k, v in r["datasets"][d]["official"].items())
                                            for d in DATASETS))
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
