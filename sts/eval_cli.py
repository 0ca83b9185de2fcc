"""The scorer's command line: ``python evaluate.py …`` / ``sts eval …`` and ``compare`` / ``sts compare …``."""
from __future__ import annotations

import argparse
import math
import sys
from typing import Callable

from semsts.core.stats import checked_range
from semsts.scoring.plain_files import score_plain_files
from semsts.scoring.results import FORMATS, UNDEFINED, fmt

from .streams import stand_in_for_closed, stdout_to_stderr

DESCRIPTION = "The shared scorer: official STS/CLSS correlations, aggregates, statistics and validation."
# The rest of the scorer (numpy, the datasets) is imported where it is used: `python evaluate.py GOLD SYS` on plain
# files needs none of it and starts as fast as the organizers' correlation.pl (semsts.scoring.plain_files).


def _significance_bar(pairs: list, desc: str):
    """The pairs of runs tested, under a bar on stderr (quadratic in the runs: 30 runs are 435 tests)."""
    if len(pairs) < 2:
        return pairs
    from .bars import bar
    return bar(pairs, desc=desc, leave=False)  # wiped from a terminal (a log keeps its lines)

def _dataset(args):
    """``--dataset`` (a name or a path) with ``--columns`` for a plain table."""
    from semsts import corpora
    (dataset,) = corpora.resolve_all([args.dataset], args.data_dir, columns=args.columns)
    return dataset


def _parse_range(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(v) for v in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH such as 0-5, got {text!r}") from None
    try:
        return checked_range((lo, hi), f"--range {text!r}")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser(prog: str = "evaluate.py") -> argparse.ArgumentParser:
    """``python evaluate.py``'s parser (its subcommands, :data:`SUBCOMMANDS`, are read before it)."""
    parser = argparse.ArgumentParser(prog=prog)
    add_eval_arguments(parser)
    return parser


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """The scorer's arguments and handler (``sts eval``, ``python evaluate.py``: the same forms, and ``compare …``
    as ``sts compare``), on the parser given."""
    from semsts import argtypes
    from semsts.options import add_columns_option
    parser.description = DESCRIPTION
    parser.epilog = ("forms: GOLD SYS | --dataset NAME --run DIR | --check SYS [--dataset NAME --subset S]"
                     + "".join(f" | {name} …" for name in SUBCOMMANDS))
    form = parser.add_mutually_exclusive_group()  # GOLD SYS, --run DIR or --check SYS: at most one (none: _cmd_eval says)
    form.add_argument("files", nargs="*", default=[], metavar="GOLD SYS", help="score one output file like correlation.pl")
    parser.add_argument("--range", type=_parse_range, help="score range for GOLD SYS and --check without a dataset (default 0-5)")
    parser.add_argument("--dataset", type=argtypes.nonempty, help="dataset name or file/folder, e.g. sts2012-test or mine.tsv")
    add_columns_option(parser)
    form.add_argument("--run", type=argtypes.nonempty_path, help="directory holding the official output files of one run "
                      "(with --dataset)")
    form.add_argument("--check", metavar="SYS", help="validate one output file like correct-output.pl")
    parser.add_argument("--subset", help="with --check and --dataset: the subset whose input SYS answers")
    parser.add_argument("--format", choices=list(FORMATS), default="text",
                        help="format of the --run report (default text)")
    parser.add_argument("--data-dir", type=argtypes.nonempty_path, help="data root (default: $STS_DATA, else the per-user cache)")
    parser.set_defaults(func=_cmd_eval, usage_error=parser.error)


def _print_errors(errors, limit: int = 20) -> None:
    """Each error an ``error:`` line (at most ``limit``, then how many more)."""
    for exc in errors[:limit]:
        print(f"error: {exc}", file=sys.stderr)
    if len(errors) > limit:
        print(f"error: … and {len(errors) - limit} more errors", file=sys.stderr)


def _cmd_check(args) -> int:
    from semsts import corpora
    from semsts.corpora import formats
    n_expected, score_range = None, args.range or formats.STS_RANGE
    with stdout_to_stderr():  # only the verdict reaches stdout
        if args.dataset:
            sub = _dataset(args).subset(args.subset)
            n_expected, score_range, kind = len(sub), sub.score_range, sub.kind
        else:
            kind = corpora.kinds.output_kind(args.check)
        errors = list(kind.check_output(args.check, n_expected, score_range))
    if errors:  # one error, one line; more: each, then how many
        _print_errors(errors)
        if len(errors) > 1:
            print(f"error: {args.check}: {len(errors)} errors; the output file is not valid", file=sys.stderr)
        return 1
    print(f"{args.check}: Output file is OK!")
    return 0


def _cannot_score(exc, what: str, dataset) -> int:
    """Each error of ``exc`` (an InvalidRun), then that ``what`` cannot be scored, with a pointer to ``--check`` for
    errors at a line of an output file (not for a missing file or a run record)."""
    _print_errors(exc.errors)
    hint = (f"; check a file with `python evaluate.py --check FILE --dataset {dataset} --subset NAME`"
            if any(getattr(e, "line", None) for e in exc.errors) else "")
    print(f"error: {what} cannot be scored{hint}", file=sys.stderr)
    return 1


def _cmd_run(args) -> int:
    from semsts.scoring.report import InvalidRun
    from semsts.scoring.runs import score_run
    try:
        with stdout_to_stderr():  # only the report reaches stdout (--format json)
            text = score_run(_dataset(args), args.run).render(args.format)
    except InvalidRun as exc:
        return _cannot_score(exc, args.run, args.dataset)
    sys.stdout.write(text)
    return 0


def _cmd_files(args) -> int:
    """``GOLD SYS``: correlation.pl, or correlation-typed.pl when the gold has eight columns."""
    from semsts import corpora
    from semsts.corpora import formats
    from semsts.scoring.report import InvalidRun
    from semsts.scoring.report_tables import typed_lines
    from semsts.scoring.runs import file_signature, score_files, score_typed_files
    gold_path, sys_path = args.files
    score_range = args.range or formats.STS_RANGE
    try:
        with stdout_to_stderr():  # only the figures reach stdout
            if corpora.typed2013.is_typed_file(gold_path):
                lines = typed_lines(score_typed_files(gold_path, sys_path, score_range=score_range))
            else:
                lines = None
                gold = formats.read_gold(gold_path, score_range)
                if not len(gold):
                    raise corpora.FormatError(gold_path, None, "is empty; expected one gold score per line")
                if all(math.isnan(g) for g in gold):
                    raise corpora.FormatError(gold_path, None, f"has no gold score: its {len(gold)} line(s) are all "
                                              "blank (not scored), so there is nothing to correlate with")
                errors = list(formats.check_output(sys_path, len(gold), score_range))
                if errors:
                    raise InvalidRun(errors)
                r, signature = score_files(gold_path, sys_path, score_range=score_range), file_signature(sys_path, gold)
    except InvalidRun as exc:
        _print_errors(exc.errors)
        return 1
    if lines is not None:
        print("\n".join(lines))
        return 0
    return _print_pearson(r, signature)


def _print_pearson(r: float, signature) -> int:
    print(f"Pearson: {fmt(r) if math.isfinite(r) else UNDEFINED + ' (undefined: a constant side)'}")
    print(f"signature: {signature}", file=sys.stderr)
    return 0


def main(argv=None, prog: str = "evaluate.py") -> int:
    """``python evaluate.py …``, within the ``sts`` command line's error boundary (:func:`semsts.cli.run_command`)."""
    from .cli import run_command
    stand_in_for_closed()  # `python evaluate.py GOLD SYS >&-`
    return run_command(_main, argv, prog)


def _main(argv, prog: str) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]](argv[1:])
    if _plain_files(argv):  # before the parser, which imports the data layer (and numpy)
        return 0
    args = build_parser(prog).parse_args(argv)
    args.argv = []  # the plain way was tried
    return _cmd_eval(args)


def _plain_files(argv) -> bool:
    """``GOLD SYS`` on plain files, scored without numpy; False: the full way (:func:`_cmd_eval`)."""
    if len(argv) == 2 and not any(a.startswith("-") for a in argv):
        with stdout_to_stderr():
            plain = score_plain_files(*argv)  # None: the full way
        if plain is not None:
            _print_pearson(*plain)
            return True
    return False


def _cmd_eval(args) -> int:
    """One of the scorer's three forms, as the arguments say."""
    if _plain_files(args.argv):
        return 0
    if args.subset and not args.check:  # said, not ignored
        args.usage_error("--subset goes with --check SYS --dataset NAME; --run DIR scores every subset of the "
                         "dataset, GOLD SYS its two files")
    if args.format != "text" and not args.run:
        args.usage_error("--format goes with --dataset NAME --run DIR; GOLD SYS prints one Pearson as correlation.pl "
                         "does, --check SYS a verdict")
    if args.check:  # argparse lets one of GOLD SYS, --run and --check through; what goes with each is said here
        if bool(args.dataset) != bool(args.subset):
            args.usage_error("--check SYS takes --dataset and --subset together (or neither)")
        command = _cmd_check
    elif args.run or args.dataset:
        if not (args.run and args.dataset) or args.files:
            args.usage_error("give --dataset NAME and --run DIR together")
        command = _cmd_run
    elif len(args.files) == 2:
        command = _cmd_files
    else:
        args.usage_error("give GOLD SYS, --dataset NAME --run DIR, or --check SYS")
    return command(args)


def _run_spec(text: str) -> tuple[str, str]:
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=DIR, got {text!r}")
    return name, path


def compare_main(argv, prog: str = "evaluate.py compare") -> int:
    """``compare --dataset D --run NAME=DIR … [--published] [--format F] [--report DIR]``."""
    parser = argparse.ArgumentParser(prog=prog)
    add_compare_arguments(parser)
    args = parser.parse_args(argv)
    return args.func(args)


def add_compare_arguments(parser: argparse.ArgumentParser) -> None:
    """``compare``'s arguments and handler (``sts compare``, ``python evaluate.py compare``), on the parser given."""
    from semsts import argtypes
    from semsts.options import add_columns_option
    from semsts.scoring.compare_tables import COMPARE_RENDERERS
    from semsts.scoring.significance import MAX_RESAMPLES
    parser.description = ("Place runs among the task paper's published results, "
                          "with 95% intervals and significance tests.")
    parser.add_argument("--dataset", required=True, type=argtypes.nonempty, help="dataset name or file/folder, e.g. sts2012-test or mine.tsv")
    add_columns_option(parser)
    parser.add_argument("--run", action="append", type=_run_spec, required=True, metavar="NAME=DIR",
                        help="a run directory of official output files, named (repeatable)")
    parser.add_argument("--published", action="store_true",
                        help="place the runs in the task paper's table: text and markdown show our runs with their "
                             "rank, the top rows and the rows around ours (csv, latex, json and html: every row)")
    parser.add_argument("--all", action="store_true", help="with --published: every row of the paper's table")
    parser.add_argument("--format", choices=list(COMPARE_RENDERERS), default="text",
                        help="format of the tables (default text)")
    parser.add_argument("--report", metavar="DIR", type=argtypes.nonempty_path, help="also write DIR/index.html with plots (needs matplotlib)")
    parser.add_argument("--seed", type=argtypes.int_at_least(0), default=0, help="paired bootstrap seed (default 0)")
    parser.add_argument("--resamples", type=argtypes.int_between(1, MAX_RESAMPLES), default=1000,
                        help=f"paired bootstrap resamples (default 1000, at most {MAX_RESAMPLES:,})")
    parser.add_argument("--data-dir", type=argtypes.nonempty_path, help="data root (default: $STS_DATA, else the per-user cache)")
    parser.set_defaults(func=_cmd_compare, usage_error=parser.error)


def _cmd_compare(args) -> int:
    from semsts.scoring.compare import compare_runs
    from semsts.scoring.compare_tables import COMPARE_RENDERERS
    from semsts.scoring.html_report import write_compare_report
    from semsts.scoring.report import InvalidRun
    runs = dict(args.run)
    if len(runs) != len(args.run):
        args.usage_error("each --run needs its own NAME")
    if args.report:  # no file of the user's is replaced
        from semsts.scoring.html_report import COMPARE_FILES, check_report_folder
        check_report_folder(args.report, COMPARE_FILES)
    try:
        with stdout_to_stderr():  # only the tables reach stdout
            dataset = _dataset(args)
            cmp = compare_runs(dataset, runs, published=args.published, seed=args.seed, resamples=args.resamples,
                               progress=_significance_bar)
            text = COMPARE_RENDERERS[args.format](cmp, every_row=args.all)
            if args.report:
                path = write_compare_report(cmp, dataset, runs, args.report)
    except InvalidRun as exc:
        return _cannot_score(exc, "a run", args.dataset)
    if args.published and not cmp["leaderboard"]:
        from .notes import note
        note(f"--published: no published table ranks {cmp['dataset']}; the table holds our runs alone")
    sys.stdout.write(text)
    if args.report:
        print(f"report: {path}", file=sys.stderr)
    return 0


# ``python evaluate.py NAME …`` runs SUBCOMMANDS[NAME](argv_rest) -> exit code.
SUBCOMMANDS: dict[str, Callable[[list], int]] = {"compare": compare_main}
