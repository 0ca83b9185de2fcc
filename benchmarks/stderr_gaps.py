"""The longest stretches a command leaves stderr still: is it ever silent for more than a few seconds?

Runs the command with stderr on a pipe, timestamps every chunk it writes (a tqdm redraw, which ends in
a carriage return, counts) and prints the longest gaps with the text written just before each, then
the command's own exit code. The command's stdout goes to this script's stderr, so that its stdout is the report alone.

    python benchmarks/stderr_gaps.py [--top N] [--write [SECTION]] -- sts train --regime stsb --save /tmp/m.skops [-- COMMAND …]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=5, help="how many of the longest gaps to print")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="the command, after --; several commands: each after its own --, run one after the other")
    results.add_write_flag(parser, "stderr-gaps")
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
        return max(gaps_of(command, args.top) for command in commands)


def gaps_of(command: list[str], top: int) -> int:
    """Run ``command``, print its longest still stretches of stderr; its exit code."""
    start = time.monotonic()
    proc = subprocess.Popen(command, stdout=sys.stderr, stderr=subprocess.PIPE)  # our stdout: the report alone
    last, last_text, gaps = start, "(start)", []
    while True:
        chunk = os.read(proc.stderr.fileno(), 65536)
        now = time.monotonic()
        if not chunk:
            break
        gaps.append((now - last, last - start, last_text))
        text = chunk.decode("utf-8", "replace").replace("\r", "\n").strip().splitlines()
        last, last_text = now, (text[-1][:100] if text else last_text)
    code = proc.wait()
    gaps.append((time.monotonic() - last, last - start, last_text + " (until exit)"))
    print(f"{' '.join(command)}: exit {code}, {time.monotonic() - start:.1f} s, {len(gaps)} stderr writes", flush=True)
    for gap, at, text in sorted(gaps, reverse=True)[:top]:
        print(f"  {gap:6.2f} s still after t={at:7.2f} s: {text}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
