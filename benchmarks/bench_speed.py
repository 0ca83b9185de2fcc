"""Speed and peak memory of ``sts bench`` over the whole family, each command in a fresh process.

Cold starts: imports, model and GloVe loading, data reading and all four conventions included (so
SICK's train and trial sets are predicted too, for MTEB's SICK-R). Prints a Markdown table: command,
wall seconds, peak resident memory, pairs predicted.

    python benchmarks/bench_speed.py [--data-dir DIR] [--repeat N] [--write [SECTION]]
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import results  # noqa: E402  (benchmarks/results.py: --write)

COMMANDS = (["--model", "models/stsb.skops"], ["glove-mean"], ["sif"], ["token-cosine"], ["lcs"], ["gst"])
# One child process per command, so that RUSAGE_CHILDREN's peak is that command's own.
TIMED = ("import resource, subprocess, sys, time\n"
         "t = time.perf_counter(); code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
         "print(code, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def pairs_predicted(data_dir) -> int:
    sys.path.insert(0, str(ROOT))
    from semsts import corpora
    from semsts.scoring.bench import FAMILY, MTEB_POOLS
    total = 0
    for name in [*FAMILY, *(p for names in MTEB_POOLS.values() for p in names)]:
        try:
            total += sum(sub.n_scored for sub in corpora.load(name, data_dir))
        except corpora.DatasetNotFound:
            pass
    return total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=os.environ.get("STS_DATA"), help="data root (default: $STS_DATA)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per command; the fastest is reported")
    results.add_write_flag(parser, "bench-speed")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    sts = [sys.executable, "-m", "semsts"]
    n = pairs_predicted(args.data_dir)
    print(f"# {time.strftime('%Y-%m-%d')}, {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    print(f"{n:,} scored pairs predicted per command (SICK's train and trial sets among them, for MTEB).\n")
    print("| command | wall s | peak RSS MB |\n|---|---|---|")
    for extra in COMMANDS:
        command = [*sts, "bench", *extra, "--quiet"] + (["--data-dir", args.data_dir] if args.data_dir else [])
        best = None
        for _ in range(args.repeat):
            out = subprocess.run([sys.executable, "-c", TIMED, *command], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout.split()
            code, seconds, peak_kb = int(out[0]), float(out[1]), int(out[2])
            if code != 0:
                raise SystemExit(f"sts bench {' '.join(extra)} failed with exit {code}")
            best = min(best or (seconds, peak_kb), (seconds, peak_kb))
        print(f"| `sts bench {' '.join(extra)}` | {best[0]:.1f} | {best[1] / 1024:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
