"""Time and peak memory of lcs and gst on the pathological pairs of issue 12 (defect 15).

``python benchmarks/pathological_pairs.py [--cap-gb 6]``: each case runs in its own process under
an address-space cap, so a quadratic blow-up ends in a MemoryError instead of taking the machine.
Cases: two 90,000-word sides drawn from 8 words; one 52 KB pair (two 26 KB sides of demo captions).
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

ROOT = Path(__file__).resolve().parents[1]
CASES = [("8 words x 90,000", "lcs"), ("8 words x 90,000", "gst6"), ("8 words x 90,000", "gst3"),
         ("52 KB pair", "lcs"), ("52 KB pair", "gst6"), ("52 KB pair", "gst3"), ("52 KB pair", "substrings")]


def make_pair(case: str) -> tuple[str, str]:
    import random
    rng = random.Random(0)
    if case.startswith("8 words"):
        words = "the cat sat on a mat by door".split()
        return tuple(" ".join(rng.choice(words) for _ in range(90_000)) for _ in range(2))
    from semsts import corpora
    sentences = [s for pair in corpora.load("demo-train").pairs for s in pair]
    sides = []
    for _ in range(2):
        text = ""
        while len(text) < 26_000:
            text += rng.choice(sentences) + " "
        sides.append(text)
    return tuple(sides)


def one(case: str, measure: str) -> dict:
    import warnings

    from semsts.features.strings.gst import gst_similarity
    from semsts.features.strings.lcs import lcs_similarity
    a, b = make_pair(case)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if measure == "lcs":
            value = [lcs_similarity(a, b)]
        elif measure.startswith("gst"):
            value = [gst_similarity(a, b, int(measure[3:]))]
        else:
            from semsts.features.substrings import CommonSubstrings
            value = CommonSubstrings().fit([(a, b)]).transform([(a, b)])[0].tolist()
    return {"chars": f"{len(a):,} + {len(b):,}", "seconds": round(time.perf_counter() - start, 2),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "value": [round(v, 6) for v in value], "capped": len(caught)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap-gb", type=float, default=6.0, help="address-space cap per case (default 6 GB)")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    results.add_write_flag(parser, "pathological-pairs")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    if args.one:
        cap = int(args.cap_gb * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        try:
            print(json.dumps(one(*args.one)))
        except MemoryError:
            print(json.dumps({"error": f"MemoryError at the {args.cap_gb:g} GB cap",
                              "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}))
        return 0
    print(f"{'case':18} {'measure':10} {'chars':>17} {'seconds':>8} {'peak MB':>8}  value / note")
    for case, measure in CASES:
        start = time.perf_counter()
        out = subprocess.run([sys.executable, __file__, "--cap-gb", str(args.cap_gb), "--one", case, measure],
                             capture_output=True, text=True, cwd=ROOT)
        row = json.loads(out.stdout.strip().splitlines()[-1]) if out.stdout.strip() else {"error": out.stderr[-200:]}
        note = row.get("error") or f"{row['value']}" + (" (capped: tiled on prefixes)" if row.get("capped") else "")
        print(f"{case:18} {measure:10} {row.get('chars', ''):>17} {row.get('seconds', round(time.perf_counter() - start, 1)):>8} "
              f"{row.get('peak_mb', ''):>8}  {note}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
