"""Byte-identity check of every system's outputs and every report, for refactors that must change nothing.

``python benchmarks/byte_identity.py --save DIR`` runs the command lines below on the official data
(``STS_DATA``) and a small TYPED fixture, and keeps every output file, report and exit code in DIR
with a digest listing (``DIR/SHA256SUMS``). ``--compare DIR`` does the same in a temporary folder and
lists every file that differs from DIR's; exit status 1 when any does. Run it on the code before a
refactor (``--save``), then after (``--compare``). Takes two to three minutes on two cores.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable

# (run name, sts run arguments): every registered system, the committed models included
RUNS = [
    ("tc12", ["token-cosine", "--test", "sts2012-test"]),
    ("tc13", ["token-cosine", "--test", "sts2013-test"]),
    ("tc15", ["token-cosine", "--test", "sts2015-test"]),
    ("tcb", ["token-cosine", "--test", "stsb-test"]),
    ("rand12", ["random", "--test", "sts2012-test", "--seed", "7"]),
    ("rand13", ["random", "--test", "sts2013-test", "--seed", "3"]),
    ("lcs", ["lcs", "--test", "clss2014-test"]),
    ("gst", ["gst", "--test", "clss2014-test"]),
    ("tccl", ["token-cosine", "--test", "clss2014-test"]),
    ("reg12", ["regression", "--test", "sts2012-test", "--model", str(ROOT / "models" / "sts2012.skops")]),
    ("reg13", ["regression", "--test", "sts2013-test", "--model", str(ROOT / "models" / "sts2013.skops")]),
    ("regb", ["regression", "--test", "stsb-test", "--model", str(ROOT / "models" / "stsb.skops")]),
]
EVAL_FORMATS = ["text", "json", "markdown", "csv"]
COMPARE_FORMATS = ["text", "markdown", "csv", "latex", "json"]
# (name, dataset, runs, extra compare arguments, write the HTML report)
COMPARES = [
    ("c12", "sts2012-test", ["tc12", "rand12", "reg12"], ["--published", "--resamples", "200"], True),
    ("c12one", "sts2012-test", ["reg12"], [], False),
    ("c13", "sts2013-test", ["tc13", "reg13"], ["--published", "--resamples", "100", "--seed", "5"], True),
    ("c15", "sts2015-test", ["tc15"], ["--published"], False),
    ("cb", "stsb-test", ["tcb", "regb"], ["--resamples", "100"], True),
    ("ccl", "clss2014-test", ["lcs", "gst", "tccl"], ["--published", "--resamples", "100"], True),
]
DATASET_OF = {name: args[args.index("--test") + 1] for name, args in RUNS}


def run(cmd, out: Path, name: str, env) -> None:
    """Run ``cmd`` in the output folder (paths in reports are relative to it); keep its stdout and exit
    code as ``name.out`` / ``name.rc`` (stderr: progress, not compared)."""
    done = subprocess.run(cmd, capture_output=True, env=env, cwd=out.parent)
    (out / f"{name}.out").write_bytes(done.stdout)
    (out / f"{name}.rc").write_text(f"{done.returncode}\n")
    if done.returncode not in (0, 1):
        sys.stderr.write(done.stderr.decode(errors="replace"))


def typed_fixture(root: Path) -> None:
    """The TYPED pipeline test's dozen pairs, in the official layout."""
    sys.path.insert(0, str(ROOT))
    try:
        from semsts.corpora import typed2013 as typed
    except ImportError:  # the code before the typed -> typed2013 renames
        from semsts.corpora import typed
    try:  # the shared test data: tests/conftest.py, or a test file of the code before
        from tests import conftest as t
        t.PAIRS  # noqa: B018
    except (ImportError, AttributeError):
        try:
            from tests import test_typed2013_pipeline as t
        except ImportError:
            from tests import test_typed_pipeline as t
    folder = root / "typed2013" / "test"
    (folder / "text").mkdir(parents=True)
    (folder / typed.INPUT_NAME).write_text("".join(f"{t.ADDR.format(a)}\t{t.ADDR.format(b)}\n" for a, b in t.PAIRS))
    (folder / typed.GOLD_NAME).write_text("".join("\t".join(f"{v:g}" for v in row) + "\n" for row in t.GOLD))
    for number, pair in enumerate(t.PAIRS, 1):
        for side, rid in zip("ab", pair):
            (folder / "text" / typed.record_filename(number, side, rid)).write_bytes(t.R[rid].encode("utf-8"))


def produce(out: Path) -> None:
    data = os.environ.get("STS_DATA", str(ROOT.parent / "shared" / "data"))
    env = {**os.environ, "STS_DATA": data, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
    sts = [PY, "-m", "semsts"]
    evaluate = [PY, str(ROOT / "evaluate.py")]
    (out / "runs").mkdir(parents=True)
    (out / "reports").mkdir()
    runs, reports = Path("runs"), out / "reports"  # runs: relative to out, where the commands run
    for name, args in RUNS:
        run([*sts, "run", *args, "--out", str(runs / name), "--quiet"], reports, f"run-{name}", env)
        for fmt in EVAL_FORMATS:
            run([*evaluate, "--dataset", DATASET_OF[name], "--run", str(runs / name), "--format", fmt],
                reports, f"eval-{name}.{fmt}", env)
    for name, dataset, members, extra, html in COMPARES:
        spec = [a for m in members for a in ("--run", f"{m}={runs / m}")]
        for fmt in COMPARE_FORMATS:
            report = ["--report", str(Path("html") / name)] if html and fmt == "text" else []
            run([*sts, "compare", "--dataset", dataset, *spec, *extra, "--format", fmt, *report],
                reports, f"compare-{name}.{fmt}", env)
    # GOLD SYS (correlation.pl), --check (correct-output.pl), both through sts eval too
    gold12 = Path(data) / "sts2012" / "test"
    for sub in ("MSRpar", "surprise.OnWN"):
        for system in ("tc12", "reg12"):
            files = [str(gold12 / f"STS.gs.{sub}.txt"), str(runs / system / f"STS.output.{sub}.txt")]
            run([*evaluate, *files], reports, f"files-{system}-{sub}", env)
            run([*sts, "eval", *files], reports, f"sts-eval-files-{system}-{sub}", env)
            run([*evaluate, "--check", files[1], "--dataset", "sts2012-test", "--subset", sub],
                reports, f"check-{system}-{sub}", env)
    for level in ("paragraph2sentence", "word2sense"):
        gold = Path(data) / "clss2014" / "keys" / "test" / f"{level}.test.gs.tsv"
        system = next((out / runs / "lcs").glob(f"*{level}*")).relative_to(out)
        run([*evaluate, "--range", "0-4", str(gold), str(system)], reports, f"files-lcs-{level}", env)
    # TYPED on a fixture: the baseline's outputs, the scorer's forms
    typed_root = out / "typed-data"
    typed_fixture(typed_root)
    tenv = {**env, "STS_DATA": str(typed_root)}
    run([*sts, "run", "typed-tfidf", "--test", "typed2013-test", "--out", str(runs / "typed"), "--quiet"],
        reports, "run-typed", tenv)
    for fmt in EVAL_FORMATS:
        run([*evaluate, "--dataset", "typed2013-test", "--run", str(runs / "typed"), "--format", fmt],
            reports, f"eval-typed.{fmt}", tenv)
    tgold = typed_root / "typed2013" / "test" / "STS.gs.europeana.txt"
    tsys = next((out / runs / "typed").iterdir()).relative_to(out)
    run([*evaluate, str(tgold), str(tsys)], reports, "files-typed", tenv)
    run([*evaluate, "--check", str(tsys), "--dataset", "typed2013-test", "--subset", "europeana"],
        reports, "check-typed", tenv)
    shutil.rmtree(typed_root)  # the fixture is an input, not an output


TEMP_TAG = re.compile(rb'"temp_tag": "[0-9a-f]+"')


def digests(out: Path) -> dict[str, str]:
    """SHA-256 of every file; a run record's ``temp_tag`` (random by design, see corpora.atomic) is masked."""
    return {str(p.relative_to(out)): hashlib.sha256(TEMP_TAG.sub(b'"temp_tag": "-"', p.read_bytes())).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name != "SHA256SUMS"}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", metavar="DIR", help="write the outputs and SHA256SUMS to DIR (must not exist)")
    mode.add_argument("--compare", metavar="DIR", help="compare with a DIR written by --save")
    results.add_write_flag(parser, "byte-identity")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    if args.save:
        out = Path(args.save)
        produce(out)
        listing = digests(out)
        (out / "SHA256SUMS").write_text("".join(f"{h}  {p}\n" for p, h in listing.items()))
        print(f"{len(listing)} files in {out}")
        return 0
    before = digests(Path(args.compare))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "now"
        produce(out)
        now = digests(out)
        differ = sorted(p for p in before.keys() & now.keys() if before[p] != now[p])
        for p in differ:
            print(f"differs: {p}")
            if p.endswith((".out", ".txt", ".csv", ".json", ".html")):
                old, new = (Path(args.compare) / p).read_text().splitlines(), (out / p).read_text().splitlines()
                import difflib
                sys.stdout.writelines(line + "\n" for line in list(difflib.unified_diff(old, new, lineterm=""))[:20])
    for p in sorted(before.keys() - now.keys()):
        print(f"missing now: {p}")
    for p in sorted(now.keys() - before.keys()):
        print(f"new now: {p}")
    same = len(before.keys() & now.keys()) - len(differ)
    print(f"{len(before)} files before, {len(now)} now, {same} byte-identical, {len(differ)} differ")
    return 0 if not differ and before.keys() == now.keys() else 1


if __name__ == "__main__":
    sys.exit(main())
