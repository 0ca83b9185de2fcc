"""Wall-clock seconds and peak resident memory of whole commands, each in a fresh process.

    python benchmarks/command_cost.py [--repeat N] [--write [SECTION]] -- sts train --regime stsb [-- COMMAND …]

Each command runs as a child of a small timing process (so that its peak resident size is its own), in the
current folder, its stdout discarded and its stderr passed through; the fastest of ``--repeat`` runs is
reported. A command that fails stops the measurement.
"""
from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write
from bench_speed import TIMED  # one child process per command: its own peak memory


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per command; the fastest is reported")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="the command, after --; several commands: each after its own --, run one after the other")
    results.add_write_flag(parser, "command-costs")
    args = parser.parse_args(argv)
    commands = [[]]
    for word in args.command[1:] if args.command[:1] == ["--"] else args.command:
        if word == "--":
            commands.append([])
        else:
            commands[-1].append(word)
    if not all(commands):
        parser.error("give a command after each --")
    with results.recording(args.write, __file__, argv):
        print("| command | wall s | peak RSS MB |\n|---|---:|---:|")
        for command in commands:
            best = None
            for _ in range(args.repeat):
                out = subprocess.run([sys.executable, "-c", TIMED, *command], capture_output=True, text=True,
                                     check=True).stdout.split()
                code, seconds, peak_kb = int(out[0]), float(out[1]), int(out[2])
                if code != 0:
                    raise SystemExit(f"error: {shlex.join(command)} exited {code}")
                best = min(best or (seconds, peak_kb), (seconds, peak_kb))
            print(f"| `{shlex.join(command)}` | {best[0]:.2f} | {best[1] / 1024:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
