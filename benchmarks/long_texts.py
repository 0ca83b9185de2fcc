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

``--lengths L …`` instead prints where the time goes at each length of side: each family's milliseconds a pair
(analysis included in its own row), for about 400,000 characters a side at each length (4,000 pairs of 100
characters, 400 of 1,000, 80 of 5,000), each length in a fresh process.

``--run`` instead times the command users run, ``sts run regression --model models/stsb.skops --test FILE`` (its
default workers) on the ``--pairs`` pairs written as a ``sentence1``/``sentence2`` TSV, with the peak memory of the
command and its workers together (their proportional set sizes summed, sampled every 0.5 s) and the resident size of
its largest process; with
``--before`` that commit's code first with that commit's model, the output files compared when the models are the same.
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
    return {"pairs": n, "chars": chars, "seconds": {k: round(v, 4) for k, v in seconds.items()},
            "total": round(sum(seconds.values()), 4), "cpu": round(cpu, 2), "sha256": hashlib.sha256(matrix.tobytes()).hexdigest()[:16]}


def family_table(lengths: list[int], pythonpath: str | None) -> None:
    """Milliseconds a pair of each family at each length of side (a fresh process per length)."""
    rows = {}
    for chars in lengths:
        n = max(20, 400_000 // chars)
        side = timed_side(n, chars, pythonpath)
        rows[chars] = (n, {k: 1000 * v / n for k, v in side["seconds"].items()}, 1000 * side["total"] / n)
        print(f"{chars:,} characters: {side['total']} s for {n:,} pairs", file=sys.stderr)
    families = list(rows[lengths[0]][1])
    print("| family | " + " | ".join(f"{c:,} characters a side ({rows[c][0]:,} pairs): ms a pair | share"
                                     for c in lengths) + " |")
    print("|---|" + "---:|---:|" * len(lengths))
    for family in sorted(families, key=lambda f: -rows[lengths[-1]][1].get(f, 0)):
        print(f"| {family} | " + " | ".join(f"{rows[c][1].get(family, 0):.3f} | {100 * rows[c][1].get(family, 0) / rows[c][2]:.0f}%"
                                             for c in lengths) + " |")
    print("| **all** | " + " | ".join(f"**{rows[c][2]:.2f}** | 100%" for c in lengths) + " |")


def tree_memory(pid: int) -> tuple[int, int]:
    """``(together, largest)``: the proportional set size (PSS: each shared page, as the memory-mapped word vectors
    the workers share, divided among the processes sharing it) of process ``pid`` and its descendants summed, and
    the largest resident size (RSS) among them, in bytes (from /proc)."""
    pss, rss, todo = 0, [], [pid]
    while todo:
        current = todo.pop()
        try:
            fields = dict(line.split(":", 1) for line in Path(f"/proc/{current}/smaps_rollup").read_text().splitlines()[1:])
            pss += int(fields["Pss"].split()[0]) * 1024
            rss.append(int(fields["Rss"].split()[0]) * 1024)
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except (OSError, ValueError, KeyError):
            continue
        todo.extend(map(int, children))
    return pss, max(rss, default=0)


def command_run(n: int, chars: int, pythonpath: str | None, folder: Path, model: Path = MODEL) -> dict:
    """Wall seconds and peak memory of ``sts run`` with ``model`` on the pairs, in ``folder``; the SHA-256 of the
    output file and of the model."""
    import hashlib
    data = folder / "long.tsv"
    if not data.exists():
        data.write_text("sentence1\tsentence2\n" + "".join(f"{a}\t{b}\n" for a, b in make_pairs(n, chars)))
    out = folder / f"out-{len(list(folder.iterdir()))}"
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "semsts", "run", "regression", "--model", str(model), "--test",
                                str(data), "--out", str(out), "--quiet"], env=env, cwd=folder, stderr=subprocess.PIPE)
    peak_sum = peak_one = 0
    while process.poll() is None:
        total, largest = tree_memory(process.pid)
        peak_sum, peak_one = max(peak_sum, total), max(peak_one, largest)
        time.sleep(0.5)  # reading a large process's page tables costs CPU the run would use
    seconds = time.perf_counter() - start
    if process.returncode:
        raise SystemExit(f"error: sts run exited {process.returncode}: {process.stderr.read().decode()[-600:]}")
    written = next(out.glob("STS.output.*"))
    return {"seconds": round(seconds, 1), "peak_sum": peak_sum, "peak_one": peak_one,
            "sha256": hashlib.sha256(written.read_bytes()).hexdigest()[:16],
            "model": hashlib.sha256(model.read_bytes()).hexdigest()[:16]}


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
    parser.add_argument("--lengths", nargs="+", type=int, help="the per-family table at these lengths of side")
    parser.add_argument("--run", action="store_true", help="time `sts run` on the pairs, with its peak memory")
    parser.add_argument("--one", nargs=2, type=int, help=argparse.SUPPRESS)
    results.add_write_flag(parser, "long-texts")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    if args.one:
        print(json.dumps(one(*args.one)))
        return 0
    if args.lengths:
        family_table(args.lengths, None)
        return 0
    if args.run:
        return run_table(args)
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


def run_table(args) -> int:
    """``sts run`` on the pairs, this checkout and (first) ``--before``'s code with its own ``models/stsb.skops``, in
    one run; the outputs must be the same when the two models are."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "work"
        folder.mkdir()
        sides = [(args.before, str(checkout(args.before, Path(tmp))), Path(tmp) / "src" / "models" / "stsb.skops")
                 ] if args.before else []
        for name, path, model in [*sides, ("this checkout", None, MODEL)]:
            rows.append({"code": name, **command_run(args.pairs, args.chars, path, folder, model)})
            print(f"{name}: {rows[-1]['seconds']} s", file=sys.stderr)
    print(f"`sts run regression --model models/stsb.skops --test FILE`, {args.pairs:,} pairs of {args.chars:,} characters "
          f"a side, the default workers ({os.cpu_count()} cores), load {os.getloadavg()[0]:.1f} at the end\n")
    print("| code | wall seconds | peak memory, the command and its workers together (PSS) | peak of its largest process (RSS) "
          "| output SHA-256 | model SHA-256 |")
    print("|---|---:|---:|---:|---|---|")
    for row in rows:
        print(f"| {row['code']} | {row['seconds']:.1f} | {row['peak_sum'] / 2**20:,.0f} MB | {row['peak_one'] / 2**20:,.0f} MB "
              f"| {row['sha256']} | {row['model']} |")
    if len({row["model"] for row in rows}) == 1 and len({row["sha256"] for row in rows}) > 1:
        print("error: the output files differ, the models being the same", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
