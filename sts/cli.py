"""The ``sts`` command line: one entry point over the data layer, the systems and the scorer."""
from __future__ import annotations

import _thread
import argparse
import atexit
import contextlib
import gc
import importlib
import os
import signal
import sys
import threading
import time

from .argtypes import nonempty_path

# name, one-line help, and the module and function that add the command's arguments and handler to its parser
COMMANDS = (
    ("data", "list, fetch and verify datasets", "semsts.data_cli", "add_data_arguments"),
    ("run", "fit a system, write official outputs", "semsts.run_cli", "add_run_arguments"),
    ("train", "train the regression system, save model + card", "semsts.train_cli", "add_train_arguments"),
    ("eval", "score outputs against the gold (python evaluate.py)", "semsts.eval_cli", "add_eval_arguments"),
    ("compare", "place runs among the published results (python evaluate.py compare)", "semsts.eval_cli",
     "add_compare_arguments"),
    ("bench", "score systems, models, encoders, pair scorers or runs over the STS family (STS12-17 and every 2017 "
     "track, STS-B and its companion, SICK-R, BIOSSES, STS22, MTEB's multilingual STS) under the conventions covering "
     "them (official, SentEval, SimCSE, MTEB), beside SimCSE's and MTEB's published rows", "semsts.bench",
     "add_bench_arguments"),
    ("demo", "run every system on the shipped demo data and print the scoreboard", "semsts.demo", "add_demo_arguments"),
)


class _Commands(argparse._SubParsersAction):
    """argparse's subcommands, each one's arguments added by its module when it is chosen (or asked for its help):
    ``sts eval`` and ``sts data`` never import the systems that ``sts run``'s choices name. The command's own
    arguments (what follows its name) are kept as ``args.argv``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._builders = {}

    def add_command(self, name: str, help: str, module: str, function: str) -> None:
        self.add_parser(name, help=help)
        self._builders[name] = (module, function)

    def __call__(self, parser, namespace, values, option_string=None):
        if values[:2] == ["eval", "compare"]:  # `python evaluate.py compare …` as `sts eval compare …` too
            values = values[1:]
        name = values[0]
        if name in self._builders:
            module, function = self._builders.pop(name)
            getattr(importlib.import_module(module), function)(self._name_parser_map[name])
        namespace.argv = list(values[1:])
        super().__call__(parser, namespace, values, option_string)


def build_parser() -> argparse.ArgumentParser:
    """The ``sts`` command line: one parser, a subcommand per entry of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="sts", description="The STS suite: datasets, systems, the scorer.")
    parser.add_argument("--version", action="store_true", help="print the suite's and the scorer's versions")
    parser.add_argument("--data-dir", dest="data_dir_before", metavar="DIR", type=nonempty_path, help="data root of every command that "
                        "reads one, as after the command's name (given both, the later one wins)")
    parser.register("action", "commands", _Commands)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands", action="commands")
    for entry in COMMANDS:
        commands.add_command(*entry)
    return parser


def entry() -> None:
    """The ``sts`` process (console script and ``python -m semsts``): :func:`main`, with garbage collections
    rarer (``semsts.core.COLLECTIONS``: the WordNet, word-frequency and model tables are long-lived and
    hardly ever garbage, and each full collection walks them all again: 0.35 s of a 4 s ``sts run``), a closed
    stream standing in as the null device, and an exit that never hangs (:func:`_end`): after Ctrl-C, or on a thread
    a user's encoder or scorer started and left running. The exit ends the process in its last exit handler
    (:func:`_last_exit_handler`), once the others ran."""
    from semsts.core import COLLECTIONS

    from .streams import stand_in_for_closed
    gc.set_threshold(*COLLECTIONS)
    atexit.register(_last_exit_handler)  # the first exit handler: it runs last
    stand_in_for_closed()  # `sts … >&-`: the output dropped, as print drops it, not a traceback
    code = main()  # (argparse's usage errors and --help raise SystemExit with their own code through here)
    sys.stdout = sys.stderr  # the output is complete: what the exit runs (an encoder's exit handler) prints is stderr's
    if code == 130:  # Ctrl-C: see _end
        _INTERRUPTED.append(code)
    if code == 130 or _user_threads():  # the exit would wait for them (for ever, if one never ends)
        threading.Thread(target=_end, args=(code, EXIT_GRACE, code != 130), daemon=True).start()
    _EXIT_CODE.append(code)
    sys.exit(code)


EXIT_GRACE = 3.0  # seconds the exit gets after Ctrl-C or beside a user's thread (it takes well under one)
_INTERRUPTED: list = []  # 130 once the command was interrupted
_EXIT_CODE: list = []  # the command's exit status, once main returned


def _last_exit_handler() -> None:
    """After every other exit handler (the worker pool shut down, a user's encoder's own handlers, temporary folders
    removed), the process ends here with the command's status (:func:`_end`), skipping the interpreter's freeing of
    every object and module one by one (a noticeable share of a short command once scikit-learn, SciPy and the WordNet
    tables are loaded). Not when a profiler, tracer or coverage tool watches the process: it writes its results after.
    Exit handlers registered before :func:`entry` (a ``sitecustomize``'s) would run after this one, so they are skipped."""
    if _INTERRUPTED:  # at once: see _end
        _end(130)
    monitoring = getattr(sys, "monitoring", None)
    watched = sys.gettrace() is not None or sys.getprofile() is not None or (
        monitoring is not None and any(monitoring.get_tool(i) is not None for i in range(6)))
    if _EXIT_CODE and not watched:
        _end(_EXIT_CODE[0])


def _user_threads() -> list[str]:
    """The names of the threads that are no daemons and that the suite did not start (its own are named ``semsts…``:
    :mod:`semsts.core.background`): a user's encoder's or scorer's, which the exit waits for."""
    return [t.name for t in threading.enumerate()
            if not (t.daemon or t is threading.main_thread() or t.name.startswith("semsts"))]


def _end(code: int, grace: float = 0.0, threads: bool = False) -> None:
    """The process ends here with ``code``, its streams flushed, after ``grace`` seconds, whatever the exit still
    waits for. With ``threads``, from a daemon thread while the exit waits for a user's threads (:func:`entry`):
    those still running then are named in a note, and the command's worker processes ended. After Ctrl-C, with 130:
    from a daemon thread ``grace`` seconds on,
    whatever the exit still waits for (an interrupt that lands in an import can leave Python's import lock held,
    and a thread importing after it waits on it for ever, which the exit would join: see
    :mod:`semsts.core.background`); and at once from the last exit handler, before the interpreter's finalization,
    which ended an interrupted ``sts bench --model`` with SIGINT (-2) instead of 130 in about half the runs."""
    time.sleep(grace)
    if threads and (names := _user_threads()):
        from .notes import note
        note(f"{len(names)} thread(s) your code started still run ({', '.join(dict.fromkeys(names))[:200]}); the command ends "
             "without waiting for them", even_quiet=True)
        _end_workers()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    os._exit(code)


def _end_workers() -> None:
    """End the worker processes this command started (they ignore Ctrl-C: see ``semsts.options``), now."""
    if "joblib.externals.loky" in sys.modules:  # else none started (an executor made here starts no process)
        from joblib.externals.loky import get_reusable_executor
        with contextlib.suppress(Exception):
            get_reusable_executor(reuse=True).shutdown(wait=False, kill_workers=True)


def _close_bars() -> None:
    """End the progress bars a command left drawn (:func:`semsts.bars.close_all`), if it drew any."""
    bars = sys.modules.get("semsts.bars")
    if bars is not None:
        bars.close_all()


@contextlib.contextmanager
def _noting_interrupts():
    """Within the block Ctrl-C raises KeyboardInterrupt as ever, and is noted in the list yielded: one raised where
    Python ignores exceptions (a weak reference's callback, an import hook) is not lost. Python's handler after."""
    interrupted = []
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield interrupted
        return

    def on_interrupt(signum, frame):
        interrupted.append(signum)
        raise KeyboardInterrupt

    previous_hook, active, main_thread = sys.unraisablehook, [True], threading.main_thread().ident

    def interrupt_again():  # a real signal, so that a blocking wait is interrupted too
        time.sleep(0.05)
        if active[0]:
            signal.pthread_kill(main_thread, signal.SIGINT)

    def quiet_about_interrupts(unraisable):
        """No "Exception ignored in …" traceback: the interrupt is raised again, from another thread once this
        hook has returned, where the command's own code gets it (else the command would go on)."""
        if isinstance(unraisable.exc_type, type) and issubclass(unraisable.exc_type, KeyboardInterrupt):
            _thread.start_new_thread(interrupt_again, ())  # not threading's start(), which waits here
        else:
            previous_hook(unraisable)
    signal.signal(signal.SIGINT, on_interrupt)
    sys.unraisablehook = quiet_about_interrupts
    try:
        yield interrupted
    finally:
        active[0] = False
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.unraisablehook = previous_hook


def main(argv=None) -> int:
    if argv is None:  # the command line itself: Ctrl-C ends with one line and exit 130, not a traceback
        try:
            with _noting_interrupts() as interrupted:
                code = main(sys.argv[1:])
                if interrupted:  # raised where Python ignores exceptions (a callback): the command went on regardless
                    raise KeyboardInterrupt
            return code
        except KeyboardInterrupt:
            _end_workers()
            _close_bars()  # on a line of its own, not after a bar's carriage return
            print("sts: interrupted", file=sys.stderr)
            return 130
    argv = list(argv)
    for stream in (sys.stdout, sys.stderr):  # a terminal or pipe that cannot show '†' or 'ü' gets '\u2020', not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    from .notes import show_notes
    show_notes("--quiet" in argv)
    args = parse(argv)
    if args.version:
        return run_command(_print_version)
    if getattr(args, "encoder", None) or getattr(args, "scorer", None):  # a user's code may change the current folder:
        _absolute_paths(args)
    return run_command(args.func, args)


def _absolute_paths(args) -> None:
    """Every path ``args`` names that is read or written after a user's code runs (:data:`PATH_OPTIONS`), made
    absolute as the user meant it; a shipped model's name (``--model stsb``) stays a name."""
    from semsts.baselines.model_file import shipped_models
    names = set(shipped_models())
    for option in PATH_OPTIONS:
        value, keep = getattr(args, option, None), names if option == "model" else ()
        if value:
            absolute = [v if v in keep else os.path.abspath(v) for v in ([value] if isinstance(value, str) else value)]
            setattr(args, option, absolute[0] if isinstance(value, str) else absolute)


def parse(argv) -> argparse.Namespace:
    """``sts ARGV…``'s arguments (a usage error exits 2): ``--data-dir DIR`` before the command's name means what it
    means after it, where it wins if given there too (the later one, as for any option given twice)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None and not args.version:
        parser.error("the following arguments are required: COMMAND")
    if args.data_dir_before is not None and args.command is not None:
        if not hasattr(args, "data_dir"):
            parser.error(f"argument --data-dir: sts {args.command} reads no data root")
        if args.data_dir is None:
            args.data_dir = args.data_dir_before
    return args


# The options naming files and folders that a command reads or writes after a user's encoder or scorer has run
# (--test and --train are read before, by the names the user gave them)
PATH_OPTIONS = ("out", "model", "data_dir", "report", "save_predictions", "save", "runs")


def _print_version() -> int:
    from importlib.metadata import version

    from semsts import evaluate
    print(f"semsts {version('semsts')} (scorer {evaluate.__version__})")
    return 0


def run_command(command, *args) -> int:
    """The command line's one error boundary (``sts …`` and ``python evaluate.py …``): ``command(*args)``'s exit
    code, its output flushed. An error a user can act on (:class:`semsts.core.errors.STSError`, whichever layer
    raised it), a system error, or a ValueError/RuntimeError from a library below us is one ``error:`` line and
    exit 1, never a traceback; a reader gone away (``| head -1``) ends the command quietly with 0."""
    from semsts.core.errors import STSError

    from .streams import quiet_closed_stdout
    try:
        code = command(*args)
        sys.stdout.flush()  # a closed pipe or a full disk shows here, not in the interpreter's exit
        return code
    except BrokenPipeError:  # `sts data list | head -1`: the reader has what it wanted
        quiet_closed_stdout()
        return 0
    except (STSError, OSError, ValueError, RuntimeError) as exc:  # ValueError, RuntimeError: raised below us (numpy,
        output = type(exc) is OSError and exc.filename is None  # scikit-learn, an encoder) on input no check of ours
        with contextlib.suppress(OSError):                       # refused; output: writing it failed (`> /dev/full`)
            _close_bars()  # a bar still drawn (featurizing) ends its line first
            message = (f"cannot write the output: {exc.strerror or exc}" if output else
                       exc.args[0] if isinstance(exc, KeyError) and exc.args else exc)
            print(f"error: {message}", file=sys.stderr)
            if output:
                quiet_closed_stdout()
        return 1
