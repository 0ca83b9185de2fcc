"""``sts train regression …``: fit a named regime (or the user's datasets), save the model and its card.

The scorer is passed in by the caller (``sts train`` passes ``evaluate.score_subsets``), so the
card's test-set scores are the official ones while this package never imports the scorer.
"""
from __future__ import annotations

import argparse
import sys
import threading
import time

from semsts import corpora
from semsts.features.sets import FAMILIES, set_names

from .model_file import check_destination, save_model
from .parallel import BACKENDS, run_settings
from .recipes import RECIPES, custom_recipe, recipe_names, train_recipe
from .regression import regressor_names
from .subset_models import predict_subsets


def add_parallel_options(p) -> None:
    p.add_argument("--n-jobs", type=int, default=1, help="featurization workers (default 1)")
    p.add_argument("--backend", choices=BACKENDS, default="loky", help="joblib backend (dask: a cluster)")
    p.add_argument("--scheduler", help="dask scheduler address HOST:PORT for --backend dask")


def add_columns_option(p) -> None:
    p.add_argument("--columns", type=_columns, metavar="TEXT1,TEXT2[,SCORE]",
                   help="header names of the text (and score) columns of a plain TSV/CSV file")


def _columns(text: str) -> tuple:
    try:
        return corpora.tables.parse_columns(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_train_parser(sub) -> None:
    p = sub.add_parser("train", help="train the regression system on a named regime and save it with a card")
    p.add_argument("system", choices=["regression"])
    p.add_argument("--regime", choices=recipe_names(), help="named training regime")
    p.add_argument("--train", action="append", default=[],
                   help="instead of --regime: training dataset name or file/folder (repeatable)")
    p.add_argument("--test", help="dataset name or file scored for the card (default: the regime's test set)")
    add_columns_option(p)
    p.add_argument("--save", required=True, help="model file to write, e.g. models/sts2012.skops (card: .json)")
    p.add_argument("--feature-set", choices=set_names(), default="all")
    p.add_argument("--exclude", action="append", default=[], choices=list(FAMILIES), help="leave a family out")
    p.add_argument("--regressor", choices=regressor_names(), help="default: the regime's (svr; sts2013: ensemble)")
    p.add_argument("--encoder", metavar="SPEC", help="add a sentence encoder's features: glove-mean, sif or "
                   "package.module:function (imported: it runs your code)")
    add_parallel_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    p.add_argument("--data-dir", default=argparse.SUPPRESS, help="data root (also accepted before the command)")
    p.set_defaults(func=cmd_train)


def settings(args, progress=None):
    """The run settings the command line asks for (``--n-jobs``, ``--backend``, ``--scheduler``)."""
    return run_settings(n_jobs=args.n_jobs, backend=args.backend, scheduler=args.scheduler, progress=progress)


def progress_bar(args):
    if args.quiet:
        return None
    from tqdm import tqdm
    return _Bar(tqdm)


class _Bar:
    """A picklable progress hook on stderr: tqdm bars over featurization chunks and over CV fits and
    folds, and one line per step (loading, final fit, predicting). While a step or a bar waits on one
    long item (an SVR fit), the elapsed time is redrawn every ``tick`` seconds, so stderr never stays still."""

    def __init__(self, tqdm, tick: float = 2.0):
        self.tqdm, self.tick = tqdm, tick
        self.start = time.monotonic()
        self._beat = None

    def __getstate__(self):
        return {"tqdm": self.tqdm, "tick": self.tick, "start": self.start, "_beat": None}

    def __call__(self, chunks):
        self.close()
        return self._ticking(self.tqdm(chunks, desc="featurizing", unit="chunk", file=sys.stderr, leave=_kept()))

    def over(self, items, desc: str):
        self.close()
        return self._ticking(self.tqdm(items, desc=desc, file=sys.stderr, leave=_kept()))

    def step(self, text: str) -> None:
        self.close()
        self.tqdm.write(f"[{time.monotonic() - self.start:5.0f}s] {text}", file=sys.stderr)
        self._beat = _Heartbeat(self.tqdm(desc="  working", bar_format="{desc}: {elapsed}", file=sys.stderr,
                                          leave=_kept()), self.tick)

    def close(self) -> None:
        """End the current step's elapsed-time line."""
        if self._beat is not None:
            self._beat.stop()
            self._beat = None

    def _ticking(self, bar):
        beat = _Heartbeat(bar, self.tick)
        try:
            yield from bar
        finally:
            beat.stop()


def _kept() -> bool:
    """Whether a closed bar keeps its last state on its own line: yes in a log (stderr is not a
    terminal), so the log shows how far each bar got and the next line never starts after a
    carriage return; no on a terminal, where closed bars are wiped."""
    isatty = getattr(sys.stderr, "isatty", None)
    return not (isatty and isatty())


class _Heartbeat:
    """Redraws a tqdm bar every ``tick`` seconds from a daemon thread until stopped (then closes it)."""

    def __init__(self, bar, tick: float):
        self.bar, self.done = bar, threading.Event()
        self.thread = threading.Thread(target=self._run, args=(tick,), daemon=True)
        self.thread.start()

    def _run(self, tick: float) -> None:
        while not self.done.wait(tick):
            self.bar.refresh()

    def stop(self) -> None:
        self.done.set()
        self.thread.join()
        self.bar.close()


def cmd_train(args) -> int:
    if bool(args.regime) == bool(args.train):
        raise ValueError("give either --regime NAME or --train DATASET (repeatable)")
    check_destination(args.save)  # before minutes of training
    recipe = RECIPES[args.regime] if args.regime else custom_recipe(args.train, test=args.test)
    test_name = args.test or recipe.test
    chosen = {"regressor": args.regressor} if args.regressor else {}
    if args.encoder:
        chosen["encoder"] = args.encoder
    settings_bar = progress_bar(args)
    try:
        return _train(args, recipe, test_name, chosen, settings_bar)
    finally:
        if settings_bar is not None:
            settings_bar.close()


def _train(args, recipe, test_name, chosen, settings_bar) -> int:
    with settings(args, settings_bar):
        models, card = train_recipe(recipe, data_dir=args.data_dir, columns=args.columns, feature_set=args.feature_set,
                                    exclude=tuple(args.exclude), **chosen)
        card = {"system": "regression", **card, "command": " ".join(["sts", "train", *args.argv]), "scores": {}}
        if test_name and args.scorer:
            (test,) = corpora.resolve_all([test_name], args.data_dir, columns=args.columns)
            test.require_gold()
            parts = [(sub.name, scores, sub.gold) for sub, scores in predict_subsets(models, test)]
            card["scores"] = {"test": {"dataset": test_name, **args.scorer(parts)}}
    bar = settings_bar
    if bar is not None:
        bar.step(f"saving {args.save}")
    card = save_model(models, args.save, card)
    if settings_bar is not None:
        settings_bar.close()
    if not args.quiet:
        print(f"saved {args.save} (sha256 {card['sha256'][:12]}…) and its card")
        for name, entry in card["training_data"]["sub_models"].items():
            tuned = (f"dev Pearson {entry['dev_pearson']:.4f}" if "dev_pearson" in entry
                     else f"CV Pearson {entry['cv_pearson']:.4f}" if entry.get("cv_pearson") is not None
                     else f"no CV figure: {entry.get('cv_note', 'nothing was searched')}")
            print(f"  {name}: {entry['pairs']} pairs, {tuned}")
        test = card["scores"].get("test")
        if test:
            print(f"  {test['dataset']}: ALL {test['all']:.4f}  ALLnorm {test['allnorm']:.4f}  Mean {test['mean']:.4f}")
    return 0
