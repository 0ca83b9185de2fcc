"""Seconds each feature family of ``models/stsb.skops`` takes on many long pairs, and in all (issue 32, long texts).

``python benchmarks/long_texts.py [--pairs 200] [--chars 5000] [--before GITREF] [--json]``: N pairs of
L-character sides made deterministically from the demo data's paraphrase pairs (side a strings demo sentences
together; side b takes, sentence by sentence, the paraphrase, the same sentence or another one, so the two sides
overlap as paraphrases do). The text analysis (tokens, lemmas, shared by every family) is timed first, then each
family's ``transform`` of the committed model in turn (wall-clock seconds; the CPU seconds of the whole, less
sensitive to a shared machine's load, beside them); each side runs in a fresh process (cold caches).
``--before GITREF`` first times the code of that commit (``git archive`` into a temporary folder, imported
ahead of this checkout), then this checkout, and checks that both give the same feature matrix (SHA-256).
``--scale N`` adds the total extrapolated to N pairs (pairs are featurized independently: linear in N).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "models" / "stsb.skops"


def make_pairs(n: int, chars: int, seed: int = 0) -> list[tuple[str, str]]:
    """``n`` pairs of ``chars``-character sides of demo sentences, the second a partial paraphrase of the first."""
    import random

    from semsts import corpora
    rng = random.Random(seed)
    demo = [tuple(p) for p in corpora.load("demo-train").pairs]
    pairs = []
    for _ in range(n):
        a, b = [], []
        size_a = size_b = 0
        while size_a < chars or size_b < chars:
            s, t = rng.choice(demo)
            draw = rng.random()
            other = t if draw < 0.5 else s if draw < 0.75 else rng.choice(demo)[rng.randrange(2)]
            a.append(s)
            b.append(other)
            size_a, size_b = size_a + len(s) + 1, size_b + len(other) + 1
        pairs.append((" ".join(a)[:chars], " ".join(b)[:chars]))
    return pairs


def one(n: int, chars: int) -> dict:
    """Per-family seconds and the feature matrix's SHA-256, in this process (the code it imports)."""
    import hashlib
    import warnings

    import numpy as np

    from semsts.baselines import load_model
    from semsts.features.text import analyse, head
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        models, _ = load_model(MODEL)
        union = models.models[models.fallback].pipeline_.named_steps["features"].union_
        pairs = make_pairs(n, chars)
        seconds, blocks, cpu = {}, [], time.process_time()
        start = time.perf_counter()
        for pair in pairs:
            for side in pair:
                analyse(side), analyse(head(side))
        seconds["analysis"] = time.perf_counter() - start
        for name, step in union.transformer_list:
            start = time.perf_counter()
            blocks.append(np.asarray(step.transform(pairs), dtype=float))
            seconds[name] = time.perf_counter() - start
        cpu = time.process_time() - cpu
    matrix = np.ascontiguousarray(np.column_stack(blocks))
    return {"pairs": n, "chars": chars, "seconds": {k: round(v, 2) for k, v in seconds.items()},
            "total": round(sum(seconds.values()), 2), "cpu": round(cpu, 2), "sha256": hashlib.sha256(matrix.tobytes()).hexdigest()[:16]}


def checkout(ref: str, into: Path) -> Path:
    """The files of commit ``ref`` under ``into``, laid out so that ``import semsts`` finds them first on PYTHONPATH (the folder returned)."""
    src = into / "src"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    package = into / "path" / "semsts"  # the package as pyproject.toml maps it: sts/ (semsts/ before) and semsts.X from X/
    package.mkdir(parents=True)
    for entry in (src / "sts" if (src / "sts").is_dir() else src / "semsts").iterdir():
        (package / entry.name).symlink_to(entry)
    for sub in ("core", "corpora", "features", "baselines", "scoring"):
        if (src / sub).is_dir():
            (package / sub).symlink_to(src / sub, target_is_directory=True)
    return package.parent


def timed_side(n: int, chars: int, pythonpath: str | None) -> dict:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run([sys.executable, __file__, "--one", str(n), str(chars)], capture_output=True, text=True,
                         env=env)
    if out.returncode:
        raise SystemExit(f"error: the timed run exited {out.returncode}: {out.stderr.strip()[-600:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--chars", type=int, default=5_000)
    parser.add_argument("--before", metavar="GITREF", help="also time this commit's code, first")
    parser.add_argument("--scale", type=int, default=10_000, help="extrapolate the total to this many pairs")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", nargs=2, type=int, help=argparse.SUPPRESS)
    results.add_write_flag(parser, "long-texts")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    if args.one:
        print(json.dumps(one(*args.one)))
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.before:
            rows.append({"code": args.before, **timed_side(args.pairs, args.chars, str(checkout(args.before, Path(tmp))))})
            print(f"{args.before}: {rows[-1]['total']} s", file=sys.stderr)
    rows.append({"code": "this checkout", **timed_side(args.pairs, args.chars, None)})
    print(f"this checkout: {rows[-1]['total']} s", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        families = list(rows[-1]["seconds"])
        print(f"# {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
              f"{time.strftime('%Y-%m-%d %H:%M')}, Python {platform.python_version()}; "
              f"{args.pairs:,} pairs of {args.chars:,} characters a side")
        print("| code | " + " | ".join(families) + f" | all | CPU | {args.scale:,} pairs (extrapolated) | matrix SHA-256 |")
        print("|---|" + "---:|" * (len(families) + 3) + "---|")
        for row in rows:
            print(f"| {row['code']} | " + " | ".join(f"{row['seconds'].get(f, float('nan')):.2f}" for f in families)
                  + f" | {row['total']:.1f} | {row['cpu']:.1f} | {row['total'] * args.scale / args.pairs / 60:.1f} min | {row['sha256']} |")
    if len({row["sha256"] for row in rows}) > 1:
        print("error: the feature matrices differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
