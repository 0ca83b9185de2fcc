"""The longest stretches a command leaves stderr still: is it ever silent for more than a few seconds?

Runs the command with stderr on a pipe, timestamps every chunk it writes (a tqdm redraw, which ends in
a carriage return, counts) and prints the longest gaps with the text written just before each, then
the command's own exit code. Stdout passes through.

    python benchmarks/stderr_gaps.py [--top N] -- sts train --regime stsb --save /tmp/m.skops
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=5, help="how many of the longest gaps to print")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command after --")
    start = time.monotonic()
    proc = subprocess.Popen(command, stderr=subprocess.PIPE)
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
    print(f"{' '.join(command)}: exit {code}, {time.monotonic() - start:.1f} s, {len(gaps)} stderr writes")
    for gap, at, text in sorted(gaps, reverse=True)[:args.top]:
        print(f"  {gap:6.2f} s still after t={at:7.2f} s: {text}")
    return code


if __name__ == "__main__":
    sys.exit(main())
