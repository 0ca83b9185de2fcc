"""``sts demo``: every system fitted on the shipped demo data and scored on demo-test."""
from __future__ import annotations

import math


def demo_correlations(system, gold) -> tuple[float, float]:
    """The scorer's Pearson and Spearman, for the demo scoreboard."""
    from semsts import evaluate
    return evaluate.pearson(system, gold), evaluate.spearman(system, gold)


def add_demo_arguments(parser) -> None:
    """``sts demo``'s arguments and handler, on the parser ``sts`` gives it."""
    parser.description = ("Fit every system on the shipped demo data (STS Benchmark captions, CC BY-SA), "
                          "score it on demo-test.")
    parser.add_argument("--system", action="append", help="only this system (repeatable; default: all)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=demo_command, usage_error=parser.error)


def demo_command(args) -> int:
    """``sts demo``: the scoreboard of every system on the shipped demo data."""
    from semsts.baselines.registry import system_names
    unknown = sorted(set(args.system or ()) - set(system_names()))
    if unknown:
        args.usage_error(f"unknown system {', '.join(unknown)}; known: {', '.join(system_names())}")
    from semsts.baselines.demo_scoreboard import demo_scoreboard
    from semsts.core.run_settings import available_cores, run_settings
    from semsts.options import progress_bar

    from .notes import note
    from .streams import stdout_to_stderr
    systems = args.system or available_systems(note)
    bar = progress_bar(args)  # a bar over the systems; inside one, over its featurization chunks and CV fits
    if bar and gloss_space_missing():
        note("the first demo builds the WordNet gloss space (about 30 s, then cached)")
    try:
        # the cores, as the other commands' --n-jobs: the grid search's SVR fits run in threads beside each other;
        # demo-train's 1,000 pairs are too few to pay for worker processes (semsts.core.workers); only the scoreboard
        # reaches stdout
        with run_settings(n_jobs=available_cores(), progress=bar), stdout_to_stderr():
            rows = demo_scoreboard(systems, scorer=demo_correlations,
                                   progress=(lambda names: bar.over(names, "systems")) if bar else None)
    finally:
        if bar:
            bar.close()
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


def available_systems(note) -> list[str]:
    """The demo's systems whose extras are installed; one note per missing extra names the systems left out."""
    from semsts.baselines.demo_scoreboard import demo_systems
    from semsts.baselines.registry import missing_extra
    from semsts.core.extras import how_to_install
    names, left_out = [], {}
    for name in demo_systems():
        extra = missing_extra(name)
        if extra:
            left_out.setdefault(extra, []).append(name)
        else:
            names.append(name)
    for extra, systems in left_out.items():
        note(f"left out {', '.join(systems)}: {'they need' if len(systems) > 1 else 'it needs'} the '{extra}' extra, "
             f"{how_to_install(extra)}")
    return names


def gloss_space_missing() -> bool:
    """Whether the WordNet gloss space still has to be built (not in the per-user cache)."""
    try:
        from semsts.features.gloss_space import is_built
        return not is_built()
    except Exception:  # no WordNet: the systems that need it report that themselves
        return False


def _num(value: float) -> str:
    return f"{value:.4f}" if math.isfinite(value) else "n/a"
