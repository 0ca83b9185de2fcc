"""Speed of the string baselines on clss2014-test: lcs and gst against textdistance and textbook versions.

Run: ``python benchmarks/clss_speed.py [--data-dir DIR] [--write [SECTION]]`` (about three minutes on 2 cores). Every
method scores all pairs of the four levels as given (word2sense: word and sense key strings), best
of three runs (the machine is shared); the outputs are checked to be equal. Then the gst and lcs systems score the whole CLSS test
as the runner does, word2sense over WordNet glosses (WordNet loaded beforehand, its load timed apart).
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
import tracemalloc
from datetime import datetime, timezone
from pathlib import Path

import textdistance

from semsts import corpora
from semsts.baselines.clss_strings import GSTBaseline, LCSBaseline
from semsts.corpora import wordnet
from semsts.features.strings.gst import gst_coverage
from semsts.features.strings.lcs import lcs_length
from semsts.features.strings.reference import gst_tiles_wise, lcs_length_dp

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write


def measure_one(function, pairs, repeat: int):
    """(results, best seconds of ``repeat`` untraced runs, peak bytes traced by tracemalloc in one more run).

    ``repeat=1`` (the slow Wise scan) skips the traced run, which would take minutes: peak is None.
    """
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        results = [function(a, b) for a, b in pairs]
        best = min(best, time.perf_counter() - start)
    if repeat == 1:
        return results, best, None
    tracemalloc.start()
    for a, b in pairs:
        function(a, b)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return results, best, peak


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", help="data root (default: $STS_DATA)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per method, the best counts (Wise's scan: 1)")
    results.add_write_flag(parser, "clss-speed")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    test = corpora.load("clss2014-test", args.data_dir)
    pairs = test.pairs
    print(f"# {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}")
    print(f"All {len(pairs):,} clss2014-test pairs ({', '.join(s.name for s in test)}) as given, best of "
          f"{args.repeat} runs (Wise's scan: one); the same numbers from every method of a family.\n")
    methods = [
        ("`lcs` (`semsts.features.strings.lcs`)", lcs_length),
        ("`textdistance.lcsstr`", textdistance.lcsstr.similarity),
        ("dynamic programme (`lcs_length_dp`)", lcs_length_dp),
        ("`gst` (`semsts.features.strings.gst`, min match 6)", lambda a, b: gst_coverage(a.lower(), b.lower(), 6)),
        ("Wise's scan (`gst_tiles_wise`)", lambda a, b: sum(n for *_, n in gst_tiles_wise(a.lower(), b.lower(), 6))),
    ]
    print("| method | seconds | pairs/s | peak traced memory | same as the fast one |\n|---|---:|---:|---:|---|")
    fast, timing = {}, {}
    for (name, function), family in zip(methods, ("lcs", "lcs", "lcs", "gst", "gst")):
        output, seconds, peak = measure_one(function, pairs, 1 if "Wise" in name else args.repeat)
        fast.setdefault(family, output)
        timing[name] = seconds
        memory = "not traced" if peak is None else f"{peak / 1024:,.0f} KiB"
        print(f"| {name} | {seconds:.3f} | {len(pairs) / seconds:,.0f} | {memory} | "
              f"{'yes' if output == fast[family] else 'NO'} |", flush=True)
    lcs, gst = timing[methods[0][0]], timing[methods[3][0]]
    print(f"\n- `lcs`: {timing[methods[1][0]] / lcs:.1f}x faster than textdistance, "
          f"{timing[methods[2][0]] / lcs:.1f}x faster than the DP; `gst`: {timing[methods[4][0]] / gst:.1f}x faster "
          "than Wise's scan.")
    start = time.perf_counter()
    wordnet.wordnet()
    print(f"- WordNet {wordnet.version()} ({wordnet.source().kind}) loaded in {time.perf_counter() - start:.2f} s "
          "(once per process).")
    for system in (GSTBaseline(), LCSBaseline()):
        seconds = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            for sub in test:
                system.fit(sub.pairs).predict(sub.pairs)
            seconds = min(seconds, time.perf_counter() - start)
        print(f"- {type(system).__name__} over the whole CLSS test (word2sense on glosses): {seconds:.3f} s.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
