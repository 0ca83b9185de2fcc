"""``sts train regression …``: fit a named regime (or the user's datasets), save the model and its card.

The scorer is passed in by the caller (``sts train`` passes ``evaluate.score_subsets``), so the
card's test-set scores are the official ones while this package never imports the scorer.
"""
from __future__ import annotations

import argparse
import sys
import time

import corpora
from features.sets import FAMILIES, set_names

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
    p.add_argument("--save", required=True, help="model file to write, e.g. models/sts2012.joblib (card: .json)")
    p.add_argument("--feature-set", choices=set_names(), default="all")
    p.add_argument("--exclude", action="append", default=[], choices=list(FAMILIES), help="leave a family out")
    p.add_argument("--regressor", choices=regressor_names(), help="default: the regime's (svr; sts2013: ensemble)")
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
    folds, and one line per step (loading, final fit, predicting), each with the time since the start."""

    def __init__(self, tqdm):
        self.tqdm = tqdm
        self.start = time.monotonic()

    def __call__(self, chunks):
        return self.tqdm(chunks, desc="featurizing", unit="chunk", file=sys.stderr, leave=False)

    def over(self, items, desc: str):
        return self.tqdm(items, desc=desc, file=sys.stderr, leave=False)

    def step(self, text: str) -> None:
        self.tqdm.write(f"[{time.monotonic() - self.start:5.0f}s] {text}", file=sys.stderr)


def cmd_train(args) -> int:
    if bool(args.regime) == bool(args.train):
        raise ValueError("give either --regime NAME or --train DATASET (repeatable)")
    check_destination(args.save)  # before minutes of training
    recipe = RECIPES[args.regime] if args.regime else custom_recipe(args.train, test=args.test)
    test_name = args.test or recipe.test
    chosen = {"regressor": args.regressor} if args.regressor else {}
    with settings(args, progress_bar(args)):
        models, card = train_recipe(recipe, data_dir=args.data_dir, columns=args.columns, feature_set=args.feature_set,
                                    exclude=tuple(args.exclude), **chosen)
        card = {"system": "regression", **card, "command": " ".join(["sts", "train", *args.argv]), "scores": {}}
        if test_name and args.scorer:
            (test,) = corpora.resolve_all([test_name], args.data_dir, columns=args.columns)
            test.require_gold()
            parts = [(sub.name, scores, sub.gold) for sub, scores in predict_subsets(models, test)]
            card["scores"] = {"test": {"dataset": test_name, **args.scorer(parts)}}
    if not args.quiet:
        print(f"saving {args.save}", file=sys.stderr)
    card = save_model(models, args.save, card)
    if not args.quiet:
        print(f"saved {args.save} (sha256 {card['sha256'][:12]}…) and its card")
        for name, entry in card["training_data"]["sub_models"].items():
            tuned = (f"dev Pearson {entry['dev_pearson']:.4f}" if "dev_pearson" in entry
                     else f"CV Pearson {entry['cv_pearson']:.4f}")
            print(f"  {name}: {entry['pairs']} pairs, {tuned}")
        test = card["scores"].get("test")
        if test:
            print(f"  {test['dataset']}: ALL {test['all']:.4f}  ALLnorm {test['allnorm']:.4f}  Mean {test['mean']:.4f}")
    return 0
