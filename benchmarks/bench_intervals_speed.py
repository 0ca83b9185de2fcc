"""What ``sts bench``'s bootstrap intervals and paired tests cost: each command with ``--resamples 0`` (none)
and the default 1000, in fresh processes (imports and predicting included), the fastest of ``--repeat`` runs.

    python benchmarks/bench_intervals_speed.py [--data-dir DIR] [--repeat N] [--write [SECTION]]
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
from bench_speed import TIMED  # noqa: E402  (one child process per command: its own peak memory)

COMMANDS = (["token-cosine", "random", "--datasets", "stsb-test,sts2012-test"], ["token-cosine", "random"],
            ["token-cosine", "lcs", "gst", "glove-mean", "sif"])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=os.environ.get("STS_DATA"), help="data root (default: $STS_DATA)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per command; the fastest is reported")
    results.add_write_flag(parser, "bench-intervals-speed")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    sts = [sys.executable, "-m", "semsts"]
    print(f"# {time.strftime('%Y-%m-%d')}, {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    print("| command | --resamples | wall s | peak RSS MB |\n|---|---|---|---|")
    for extra in COMMANDS:
        for resamples in ("0", "1000"):
            command = [*sts, "bench", *extra, "--quiet", "--resamples", resamples] + (
                ["--data-dir", args.data_dir] if args.data_dir else [])
            best = None
            for _ in range(args.repeat):
                out = subprocess.run([sys.executable, "-c", TIMED, *command], cwd=ROOT, capture_output=True,
                                     text=True, check=True).stdout.split()
                code, seconds, peak_kb = int(out[0]), float(out[1]), int(out[2])
                if code != 0:
                    raise SystemExit(f"sts bench {' '.join(extra)} failed with exit {code}")
                best = min(best or (seconds, peak_kb), (seconds, peak_kb))
            print(f"| `sts bench {' '.join(extra)}` | {resamples} | {best[0]:.1f} | {best[1] / 1024:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
