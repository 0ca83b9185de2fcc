"""The ``sts`` command line: one entry point over the data layer, the systems and the scorer."""
from __future__ import annotations

import math
import sys
from typing import NamedTuple

import numpy as np

USAGE = """usage: sts COMMAND [ARGS…]

commands:
  data    list, fetch and verify datasets        (python -m corpora)
  run     fit a system, write official outputs   (python -m baselines run)
  train   train the regression system, save model + card (python -m baselines train)
  eval    score outputs against the gold         (python evaluate.py)
  compare place runs among the published results (python evaluate.py compare)
  demo    run every system on the shipped demo data and print the scoreboard
"""


class DemoRow(NamedTuple):
    """One line of the demo scoreboard; ``error`` says why a system could not be scored."""

    system: str
    pearson: float = math.nan
    spearman: float = math.nan
    n: int = 0
    error: str = ""


def demo_systems() -> list[str]:
    """The registered systems ``sts demo`` runs: all but the TYPED ones, which score record pairs."""
    from baselines.registry import make_system, system_names
    from baselines.typed import is_typed
    return [n for n in system_names() if not is_typed(make_system(n))]


def demo_scoreboard(systems=None, progress=None) -> list[DemoRow]:
    """Fit each registered system on demo-train, score it on demo-test; best Pearson first.

    ``progress`` wraps the iterable of system names (the CLI passes a tqdm bar). A system that
    fails to fit or predict (e.g. a resource it needs is absent) gets a row with the reason.
    """
    import corpora
    import evaluate
    from baselines.registry import make_system
    from baselines.run import predict_subset, training_pairs

    train, test = corpora.load("demo-train"), corpora.load("demo-test")
    pairs, gold = training_pairs([train])
    (sub,) = test.subsets
    scored = ~np.isnan(sub.gold)
    names = list(systems or demo_systems())
    rows = []
    for name in progress(names) if progress else names:
        try:
            scores, _ = predict_subset(make_system(name).fit(pairs, gold), sub)
        except Exception as exc:  # noqa: BLE001 - any failure of one system is reported, not fatal
            rows.append(DemoRow(name, error=f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"))
            continue
        x, y = scores[scored], sub.gold[scored]
        rows.append(DemoRow(name, evaluate.pearson(x, y), evaluate.spearman(x, y), int(scored.sum())))
    return sorted(rows, key=lambda r: (bool(r.error), -r.pearson if math.isfinite(r.pearson) else math.inf, r.system))


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
    rows = demo_scoreboard(args.system, progress)
    print("demo: fit on demo-train, scored on demo-test (STS Benchmark captions, CC BY-SA 4.0)")
    width = max(len("system"), *(len(r.system) for r in rows))
    print(f"{'system':{width}}  {'Pearson':>8}  {'Spearman':>8}  {'n':>5}")
    for r in rows:
        if r.error:
            print(f"{r.system:{width}}  {'failed':>8}  {'':>8}  {'':>5}  {r.error}")
        else:
            print(f"{r.system:{width}}  {_num(r.pearson):>8}  {_num(r.spearman):>8}  {r.n:>5}")
    return 0


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
