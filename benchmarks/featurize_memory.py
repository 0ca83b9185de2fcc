"""Peak memory of featurizing 1,000 and 64,000 pairs of distinct texts (issue 22, item 3).

``python benchmarks/featurize_memory.py [--sizes 1000 64000]``: each size in a fresh process, the ``all``
feature set fitted on 1,000 stsb-train pairs, then ``transform`` of N pairs made of stsb-train sentences,
each text made distinct by a numbered tag (so no cache is ever hit twice by the same text). Prints the peak
resident size after the imports and the fit, and after the transform, and the matrix's own size.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write


def one(size: int) -> dict:
    from semsts import corpora
    from semsts.features.featurizer import PairFeaturizer
    pairs = [tuple(p) for p in corpora.load("stsb-train").pairs]
    featurizer = PairFeaturizer("all").fit(pairs[:1000])
    fitted = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    texts = [t for p in pairs for t in p]
    todo = [(f"{texts[(2 * i) % len(texts)]} #{i}", f"{texts[(2 * i + 1) % len(texts)]} #{i}") for i in range(size)]
    start = time.perf_counter()
    matrix = featurizer.transform(todo)
    return {"pairs": size, "seconds": round(time.perf_counter() - start, 1), "peak_mb_after_fit": fitted,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "matrix_mb": round(matrix.nbytes / 2**20, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 64_000])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    results.add_write_flag(parser, "featurize-memory")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    if args.one:
        print(json.dumps(one(args.one)))
        return 0
    print(f"# {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d')}, "
          f"Python {platform.python_version()}")
    print("| pairs | seconds | peak MB after fit | peak MB | matrix MB |\n|---:|---:|---:|---:|---:|")
    for size in args.sizes:
        out = subprocess.run([sys.executable, __file__, "--one", str(size)], capture_output=True, text=True, check=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"| {row['pairs']:,} | {row['seconds']} | {row['peak_mb_after_fit']} | {row['peak_mb']} | {row['matrix_mb']} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
