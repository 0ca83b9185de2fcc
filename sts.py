"""The ``sts`` command line: one entry point over the data layer, the systems and the scorer."""
from __future__ import annotations

import math
import sys

USAGE = """usage: sts COMMAND [ARGS…]

commands:
  data    list, fetch and verify datasets        (python -m corpora)
  run     fit a system, write official outputs   (python -m baselines run)
  train   train the regression system, save model + card (python -m baselines train)
  eval    score outputs against the gold         (python evaluate.py)
  compare place runs among the published results (python evaluate.py compare)
  demo    run every system on the shipped demo data and print the scoreboard

options:
  --version  print the suite's and the scorer's versions
"""


def demo_correlations(system, gold) -> tuple[float, float]:
    """The scorer's Pearson and Spearman, for the demo scoreboard."""
    import evaluate
    return evaluate.pearson(system, gold), evaluate.spearman(system, gold)


def demo_main(argv) -> int:
    """``sts demo``: the scoreboard of every system on the shipped demo data."""
    import argparse
    parser = argparse.ArgumentParser(prog="sts demo", description="Fit every system on the shipped demo "
                                     "data (STS Benchmark captions, CC BY-SA), score it on demo-test.")
    parser.add_argument("--system", action="append", help="only this system (repeatable; default: all)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    from baselines.registry import system_names
    unknown = sorted(set(args.system or ()) - set(system_names()))
    if unknown:
        parser.error(f"unknown system {', '.join(unknown)}; known: {', '.join(system_names())}")
    progress = None
    if not args.quiet:
        from tqdm import tqdm
        progress = lambda names: tqdm(names, desc="systems", unit="system", file=sys.stderr)  # noqa: E731
    if not args.quiet and gloss_space_missing():
        print("note: the first demo builds the WordNet gloss space (about 30 s, then cached)", file=sys.stderr)
    from baselines.demo import demo_scoreboard
    rows = demo_scoreboard(args.system, scorer=demo_correlations, progress=progress)
    print("demo: fit on demo-train, scored on demo-test (STS Benchmark captions, CC BY-SA 4.0)")
    width = max(len("system"), *(len(r.system) for r in rows))
    print(f"{'system':{width}}  {'Pearson':>8}  {'Spearman':>8}  {'n':>5}")
    for r in rows:
        if r.error:
            print(f"{r.system:{width}}  {'failed':>8}  {'':>8}  {'':>5}  {r.error.splitlines()[0]}")
        else:
            print(f"{r.system:{width}}  {_num(r.pearson):>8}  {_num(r.spearman):>8}  {r.n:>5}")
    for error in dict.fromkeys(r.error for r in rows if r.error and "\n" in r.error):  # e.g. WordNet's install guidance
        print(f"\n{error}")
    return 0


def gloss_space_missing() -> bool:
    """Whether the WordNet gloss space still has to be built (not in the per-user cache)."""
    try:
        from features.gloss_space import cache_file
        return not cache_file().is_file()
    except Exception:  # no WordNet: the systems that need it report that themselves
        return False


def _num(value: float) -> str:
    return f"{value:.4f}" if math.isfinite(value) else "n/a"


def main(argv=None) -> int:
    if argv is None:  # the command line itself: Ctrl-C ends with one line and exit 130, not a traceback
        try:
            return main(sys.argv[1:])
        except KeyboardInterrupt:
            print("sts: interrupted", file=sys.stderr)
            return 130
    argv = list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, end="")
        return 0 if argv else 2
    if argv[0] == "--version":
        from importlib.metadata import version

        import evaluate
        print(f"sts-suite {version('sts-suite')} (scorer {evaluate.__version__})")
        return 0
    command, rest = argv[0], argv[1:]
    if command == "data":
        from corpora.cli import main as data_main
        return data_main(rest, prog="sts data")
    if command == "run":
        from baselines.cli import main as baselines_main
        return baselines_main([command, *rest], prog="sts")
    if command == "train":  # the card's test scores come from the official scorer
        import evaluate
        from baselines.cli import main as baselines_main
        return baselines_main([command, *rest], prog="sts", scorer=evaluate.score_subsets)
    if command == "eval":
        import evaluate
        return evaluate.main(rest, prog="sts eval")
    if command == "demo":
        return demo_main(rest)
    if command == "compare":
        import evaluate
        return evaluate.compare_main(rest, prog="sts compare")
    print(f"sts: unknown command {command!r}\n{USAGE}", file=sys.stderr, end="")
    return 2


if __name__ == "__main__":
    sys.exit(main())
