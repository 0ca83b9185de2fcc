"""Wall-clock seconds of the commands users wait on, before and after a change, in one run (issue 22).

    python benchmarks/speed.py [--before VENV_BIN CHECKOUT] [--perl benchmarks/correlation.pl] [--skip train]
                               [--jobs]

Each command runs as a fresh process with ``STS_DATA`` as set, from the checkout it belongs to: this one
(with the ``sts`` and ``python`` beside ``sys.executable``) and, with ``--before``, another checkout and
the bin folder of a venv that has it installed; the sides run one after the other. The outputs are
compared: the trained model's content (:func:`model_digest`, whatever the file's layout) and the printed
or written results must be identical on both sides. ``--perl`` times the organizers' correlation script (or
benchmarks/correlation.pl, a stand-in that loads the same Perl modules) on the same 750 pairs as
``python evaluate.py GOLD SYS`` (the median of five runs each). ``--jobs`` also times this checkout's commands
that take ``--n-jobs`` with one worker and with the default (the cores this process may use), outputs compared.
``--imports`` instead prints what each command imports on each side: the seconds its modules take to import (those
``python -X importtime`` lists, imported again in order in a fresh process) and the feature modules among them.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

HERE = Path(__file__).resolve().parents[1]
GOLD = "sts2012/test/STS.gs.MSRpar.txt"
SYS = "sts2012/test/STS.gs.MSRvid.txt"  # any 750 scores in [0, 5] make a system file


def timed(argv, cwd) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(map(str, argv))} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return seconds, done.stdout


def digest(folder: Path) -> str:
    """One SHA-256 over the files of ``folder`` (names and bytes; a run record's paths and times left out)."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "sts-run.json"):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def model_digest(path: Path) -> str:
    """A model file's content, whatever its layout: every learned array, number, string and parameter of the
    models it holds, read by this checkout's loader (which reads the files of earlier versions too), the word
    vocabularies as their term -> column items. Two trainings that agree here predict alike, bit for bit."""
    import types

    import numpy as np

    from semsts.baselines.model_archive import load_skops
    from semsts.baselines.model_file import TRUSTED
    h = hashlib.sha256()

    def walk(node) -> None:
        if isinstance(node, np.ndarray):
            if node.dtype.names:  # a tree's nodes: field by field (the padding between fields is not content)
                for name in node.dtype.names:
                    walk(np.ascontiguousarray(node[name]))
            else:
                h.update(f"array {node.dtype.str} {node.shape}".encode() + np.ascontiguousarray(node).tobytes())
        elif isinstance(node, np.random.Generator):
            walk(node.bit_generator.state)
        elif isinstance(node, dict):
            h.update(f"dict {len(node)}".encode())
            for key in sorted(node, key=repr):
                h.update(repr(key).encode())
                walk(node[key])
        elif isinstance(node, (list, tuple)):
            h.update(f"{type(node).__name__} {len(node)}".encode())
            for item in node:
                walk(item)
        elif isinstance(node, (str, int, float, bool, type(None), np.generic)) or hasattr(node, "__qualname__"):
            h.update(repr(getattr(node, "__qualname__", node)).encode())  # a function or class: its name
        elif isinstance(node, types.ModuleType):  # an array namespace a loss keeps
            h.update(node.__name__.encode())
        else:  # an object: its class and its state (a shared one counted where each holder has it)
            state = vars(node) if hasattr(node, "__dict__") else node.__getstate__()
            h.update(type(node).__qualname__.encode())
            walk({k: v for k, v in state.items() if k != "_sklearn_version"} if isinstance(state, dict) else state)
    walk(load_skops(path, TRUSTED))
    return h.hexdigest()[:16]


def figures_digest(printed: str) -> str:
    """A bench's figures (not its intervals, notes or layout, which a version may add to)."""
    import json
    rows = json.loads(printed)["rows"]
    keep = [{d: {k: f.get(k) for k in ("n", "official", "senteval", "simcse", "mteb")} for d, f in r["datasets"].items()}
            for r in rows]
    return hashlib.sha256(json.dumps(keep, sort_keys=True).encode()).hexdigest()[:16]


def train_command(checkout: Path) -> list:
    """``sts train`` as the checkout takes it: a checkout from before issue 33 names the system (``train regression``)."""
    train_cli = checkout / "sts" / "train_cli.py"
    new = train_cli.is_file() and 'choices=["regression"]' not in train_cli.read_text()
    return ["train"] if new else ["train", "regression"]


def cases(bin_dir: Path, checkout: Path, tmp: Path, skip) -> dict:
    """``name -> (seconds, what must be identical)`` for one side."""
    sts, py = str(bin_dir / "sts"), str(bin_dir / "python")
    data = Path(os.environ["STS_DATA"])
    out = {}
    if "train" not in skip:
        model = tmp / "stsb.skops"
        seconds, _ = timed([sts, *train_command(checkout), "--regime", "stsb", "--save", str(model), "--quiet"], checkout)
        out["sts train --regime stsb"] = (seconds, model_digest(model))
    if "bench" not in skip:
        seconds, printed = timed([sts, "bench", "--model", "models/stsb.skops", "--quiet", "--format", "json"], checkout)
        out["sts bench --model models/stsb.skops (7 sets)"] = (seconds, figures_digest(printed))
    if "demo" not in skip:
        timed([sts, "demo", "--quiet"], checkout)  # warms the per-user caches
        seconds, printed = timed([sts, "demo", "--quiet"], checkout)
        out["sts demo (warm)"] = (seconds, hashlib.sha256(printed.encode()).hexdigest()[:16])
    if "run" not in skip:
        run = tmp / "run"
        seconds, _ = timed([sts, "run", "regression", "--model", "models/stsb.skops", "--test", "stsb-test", "--out",
                            str(run), "--quiet"], checkout)
        out["sts run regression --model … --test stsb-test"] = (seconds, digest(run))
    if "evaluate" not in skip:
        runs = [timed([py, "evaluate.py", str(data / GOLD), str(data / SYS)], checkout) for _ in range(5)]
        out["python evaluate.py GOLD SYS (750 pairs, median of 5)"] = (
            statistics.median(s for s, _ in runs), hashlib.sha256(runs[0][1].encode()).hexdigest()[:16])
    return out


def jobs_cases(bin_dir: Path, tmp: Path, n_jobs: str) -> dict:
    """``name -> (seconds, what must be identical)`` of the commands that take ``--n-jobs``, with ``n_jobs``
    workers (``default``: the option left out)."""
    sts = str(bin_dir / "sts")
    extra = [] if n_jobs == "default" else ["--n-jobs", n_jobs]
    out = {}
    model = tmp / f"stsb-{n_jobs}.skops"
    seconds, _ = timed([sts, "train", "--regime", "stsb", "--save", str(model), "--quiet", *extra], HERE)
    out["sts train --regime stsb"] = (seconds, model_digest(model))
    seconds, printed = timed([sts, "bench", "--model", "models/stsb.skops", "--quiet", "--format", "json", *extra], HERE)
    out["sts bench --model models/stsb.skops (7 sets)"] = (seconds, figures_digest(printed))
    for test in ("stsb-test", "sts2015-test"):  # 1,379 pairs (one process) and 8,500 (every pair is predicted)
        run = tmp / f"run-{test}-{n_jobs}"
        seconds, _ = timed([sts, "run", "regression", "--model", "models/stsb.skops", "--test", test, "--out", str(run),
                            "--quiet", *extra], HERE)
        out[f"sts run regression --model … --test {test}"] = (seconds, digest(run))
    return out


IMPORT_CASES = {  # what a command imports, run as a fresh process (the run folder written by the first one)
    "sts run token-cosine --test sts2013-test": ["-m", "semsts", "run", "token-cosine", "--test", "sts2013-test",
                                                 "--out", "{tmp}/tc", "--quiet"],
    "sts eval --dataset sts2013-test --run RUN": ["-m", "semsts", "eval", "--dataset", "sts2013-test", "--run", "{tmp}/tc"],
    "sts compare --dataset sts2013-test --run RUN --published": [
        "-m", "semsts", "compare", "--dataset", "sts2013-test", "--run", "tc={tmp}/tc", "--published", "--resamples", "20"],
    "python evaluate.py --dataset sts2013-test --run RUN": ["evaluate.py", "--dataset", "sts2013-test", "--run", "{tmp}/tc"],
    "sts run regression --model models/stsb.skops --test stsb-test": [
        "-m", "semsts", "run", "regression", "--model", "models/stsb.skops", "--test", "stsb-test", "--out", "{tmp}/rg",
        "--quiet"],
}
NOT_FAMILIES = {"semsts.features", "semsts.features.errors", "semsts.features.text", "semsts.features.base"}


IMPORT_ALL = """
import sys, time
names = sys.argv[1:]
start = time.perf_counter()
for name in names:
    try:
        __import__(name)
    except Exception:  # a module only its parent's import can load (or a platform's): its parent loaded it
        pass
print(time.perf_counter() - start)
"""


def import_costs(bin_dir: Path, checkout: Path, tmp: Path) -> dict:
    """``command -> (import seconds, feature modules imported)`` for one side: the modules the command imports
    (``python -X importtime``, in the order it imported them), then imported in that order in a fresh process on one
    thread, the median of three: the seconds ``-X importtime`` gives a command are wall-clock, and a thread the
    command runs meanwhile (a model's resources hashed while skops loads) swells them."""
    out = {}
    for name, argv in IMPORT_CASES.items():
        argv = [a.format(tmp=tmp) for a in argv]
        shutil.rmtree(tmp / "rg", ignore_errors=True)
        done = subprocess.run([str(bin_dir / "python"), "-X", "importtime", *argv], cwd=checkout, capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise SystemExit(f"error: {name} exited {done.returncode}: {done.stderr.strip()[-400:]}")
        modules = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
                   if line.startswith("import time:")][1:]
        modules = [m for m in dict.fromkeys(modules)
                   if not m.startswith(("__main__", "encodings", "_")) and not m.endswith("__main__")]
        seconds = [float(subprocess.run([str(bin_dir / "python"), "-c", IMPORT_ALL, *modules], cwd=checkout,
                                        capture_output=True, text=True, check=True).stdout) for _ in range(3)]
        families = sorted(set(modules) - NOT_FAMILIES)
        out[name] = (statistics.median(seconds), [f for f in families if f.startswith("semsts.features.")])
    return out


def print_imports(sides: dict) -> None:
    names = list(sides)
    print("| command | " + " | ".join(f"{n}: import seconds | {n}: feature modules imported" for n in names) + " |")
    print("|---|" + "---:|---|" * len(names))
    for case in IMPORT_CASES:
        cells = []
        for n in names:
            seconds, families = sides[n][case]
            cells.append(f"{seconds:.2f} | {len(families)}" + (f" ({', '.join(f.rsplit('.', 1)[1] for f in families)})"
                                                               if 0 < len(families) <= 6 else ""))
        print(f"| {case} | " + " | ".join(cells) + " |")


def print_table(results: dict, names: list, unit: str = "seconds") -> None:
    print("| command | " + " | ".join(f"{n}: {unit}" for n in names) + " | outputs |")
    print("|---|" + "---:|" * len(names) + "---|")
    first = results[names[-1]]
    for case in first:
        figures = [results[n][case] for n in names]
        same = "identical" if len({f[1] for f in figures}) == 1 else "DIFFER: " + ", ".join(f[1] for f in figures)
        print(f"| {case} | " + " | ".join(f"{f[0]:.2f}" for f in figures) + f" | {same} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", nargs=2, metavar=("VENV_BIN", "CHECKOUT"))
    parser.add_argument("--perl", help="the organizers' correlation.pl, timed on the same files")
    parser.add_argument("--skip", nargs="*", default=[], choices=["train", "bench", "demo", "run", "evaluate"])
    parser.add_argument("--jobs", action="store_true", help="also time --n-jobs 1 against the default, here")
    parser.add_argument("--imports", action="store_true", help="what each command imports, instead of the timings")
    results.add_write_flag(parser, "speed-wordllama")
    args = parser.parse_args(argv)
    if "STS_DATA" not in os.environ:
        parser.error("set STS_DATA to the data root")
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    sides = [("after", Path(sys.executable).parent, HERE)]
    if args.before:
        sides.insert(0, ("before", Path(args.before[0]), Path(args.before[1]).resolve()))
    load = os.getloadavg()[0]
    if args.imports:
        costs = {}
        for name, bin_dir, checkout in sides:
            tmp = Path(tempfile.mkdtemp(prefix="sts-imports-"))
            try:
                costs[name] = import_costs(bin_dir, checkout, tmp)
            finally:
                shutil.rmtree(tmp)
        print(f"# {platform.machine()}, {os.cpu_count()} cores, load {load:.1f}, {time.strftime('%Y-%m-%d')}, "
              f"Python {platform.python_version()}")
        print_imports(costs)
        return 0
    results = {}
    for name, bin_dir, checkout in sides:
        tmp = Path(tempfile.mkdtemp(prefix="sts-speed-"))
        try:
            results[name] = cases(bin_dir, checkout, tmp, args.skip)
        finally:
            shutil.rmtree(tmp)
        print(f"{name}: done", file=sys.stderr)
    print(f"# {platform.machine()}, {os.cpu_count()} cores, load {load:.1f} at the start and "
          f"{os.getloadavg()[0]:.1f} at the end, {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}")
    names = [n for n, _, _ in sides]
    print_table(results, names)
    if args.perl:
        data = Path(os.environ["STS_DATA"])
        perl = statistics.median(timed(["perl", args.perl, str(data / GOLD), str(data / SYS)], HERE)[0]
                                 for _ in range(5))
        print("| perl correlation.pl GOLD SYS (median of 5) | " + " | ".join(f"{perl:.2f}" for _ in names) + " | |")
    if args.jobs:
        tmp = Path(tempfile.mkdtemp(prefix="sts-jobs-"))
        try:
            jobs = {n: jobs_cases(Path(sys.executable).parent, tmp, n) for n in ("1", "default")}
        finally:
            shutil.rmtree(tmp)
        from semsts.core.run_settings import available_cores
        print(f"\n--n-jobs 1 against the default ({available_cores()} here), load {os.getloadavg()[0]:.1f} at the end:\n")
        print_table({"--n-jobs 1": jobs["1"], "default": jobs["default"]}, ["--n-jobs 1", "default"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
