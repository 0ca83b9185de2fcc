"""``sts train …``: fit a named regime (or the user's datasets), save the model and its card.

The card's test-set scores come from the official scorer (``semsts.evaluate.score_subsets``).
"""
from __future__ import annotations

import argparse
import sys

from semsts import argtypes, corpora, evaluate
from semsts.baselines.model_file import check_destination, save_model
from semsts.baselines.model_search import regressor_names
from semsts.baselines.regimes import REGIMES, custom_regime, regime_names, train_regime
from semsts.baselines.run import predict_subsets
from semsts.core.errors import InvalidValue
from semsts.core.extras import require
from semsts.features.sets import DEFAULT_SET, FAMILIES, set_names
from semsts.options import add_columns_option, add_parallel_options, progress_bar, settings
from semsts.streams import stdout_to_stderr


def add_train_arguments(p: argparse.ArgumentParser) -> None:
    """``sts train``'s arguments and handler, on the parser ``sts`` gives it."""
    p.description = "Train the regression system on a named regime (or your datasets) and save it with a card."
    p.add_argument("legacy", nargs="?", help=argparse.SUPPRESS)  # `sts train regression …`, the form before issue 33
    p.add_argument("--regime", choices=regime_names(), help="named training regime")
    p.add_argument("--train", action="append", default=[], type=argtypes.nonempty,
                   help="instead of --regime: training dataset name or file/folder (repeatable)")
    p.add_argument("--test", type=argtypes.nonempty, help="dataset name or file scored for the card (default: the regime's test set)")
    add_columns_option(p)
    p.add_argument("--save", required=True, type=argtypes.nonempty_file, help="model file to write, e.g. my.skops (card: my.json)")
    p.add_argument("--feature-set", choices=set_names(), default=DEFAULT_SET,
                   help="the feature families the regression learns from: reference (default: every family but "
                        "substrings), all, or the families of TakeLab's or DKPro's 2012 systems that our resources "
                        "reach (takelab, dkpro); --exclude drops more")
    p.add_argument("--exclude", action="append", default=[], choices=list(FAMILIES), metavar="FAMILY",
                   help=f"leave a family out (repeatable): {', '.join(FAMILIES)}")
    p.add_argument("--regressor", choices=regressor_names(), help="default: the regime's (svr; sts2013-sts2016: ensemble)")
    p.add_argument("--encoder", metavar="SPEC", help="add a sentence encoder's features: glove-mean, sif, wordllama, minilm or "
                   "package.module:function (imported: it runs your code)")
    p.add_argument("--scorer", metavar="SPEC", help="add a pair scorer's score as a feature: package.module:function, "
                   "score(list[tuple[str, str]]) -> list[float] (imported: it runs your code)")
    add_parallel_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    p.add_argument("--data-dir", type=argtypes.nonempty_path, help="data root (default: $STS_DATA, else the per-user cache)")
    p.set_defaults(func=cmd_train, usage_error=p.error)


def cmd_train(args) -> int:
    if args.legacy == "regression":  # one line, not the long usage: the user knows the command, not its new form
        print("error: `sts train` names no system now: drop `regression`, e.g. "
              "`sts train --regime stsb --save stsb.skops`", file=sys.stderr)
        return 2
    if args.legacy is not None:
        args.usage_error(f"unrecognized arguments: {args.legacy}")
    if bool(args.regime) == bool(args.train):
        raise InvalidValue("give either --regime NAME or --train DATASET (repeatable)")
    check_destination(args.save)  # before minutes of training
    require("reference", "`sts train` (the reference system)")
    from semsts.features.encoders import check_ready
    check_ready(args.encoder)  # a built-in encoder's missing requirement (torch) too
    if args.scorer:  # a scorer that cannot be imported, before minutes of featurizing
        from semsts.features.scorers import load_scorer
        load_scorer(args.scorer)
    recipe = REGIMES[args.regime] if args.regime else custom_regime(args.train, test=args.test)
    test_name = args.test or recipe.test
    chosen = {name: getattr(args, name) for name in ("regressor", "encoder", "scorer") if getattr(args, name)}
    settings_bar = progress_bar(args)
    try:
        with stdout_to_stderr():  # only the summary reaches stdout, whatever an encoder prints meanwhile
            card = _train(args, recipe, test_name, chosen, settings_bar)
    finally:
        if settings_bar is not None:
            settings_bar.close()
    if not args.quiet:
        _summary(args, card)
    return 0


def _train(args, recipe, test_name, chosen, settings_bar) -> dict:
    """Train, score the test set for the card, save the model; the card as written."""
    from semsts.baselines.run import at_pair
    from semsts.features.errors import NonFiniteScore
    with settings(args, settings_bar):
        if test_name:  # read before the user's encoder or scorer runs (it may change the current folder)
            try:
                (test,) = corpora.resolve_all([test_name], args.data_dir, columns=args.columns)
            except corpora.DatasetNotFound as exc:
                if args.test:
                    raise
                raise corpora.DatasetNotFound(f"{exc} (or score the regime on another test set: --test "
                                              "DATASET_OR_FILE)") from None
            test.require_gold()
        try:
            models, card = train_regime(recipe, data_dir=args.data_dir, columns=args.columns,
                                        feature_set=args.feature_set, exclude=tuple(args.exclude), **chosen)
        except NonFiniteScore as exc:  # a pair scorer's feature: at the first training file and line holding the pair
            raise at_pair(exc, [sub for ds in corpora.resolve_all(recipe.train, args.data_dir, columns=args.columns)
                                for sub in ds]) from None
        card = {"system": "regression", **card, "command": " ".join(["sts", "train", *args.argv]), "scores": {}}
        if test_name:
            predicted = predict_subsets(models, list(test))
            parts = [(sub.name, predicted[id(sub)][0], sub.gold) for sub in test]
            card["scores"] = {"test": {"dataset": test_name, **evaluate.score_subsets(parts)}}
    if settings_bar is not None:
        settings_bar.step(f"saving {args.save}")
    return save_model(models, args.save, card)


def _summary(args, card) -> None:
    print(f"saved {args.save} (sha256 {card['sha256'][:12]}…) and its card")
    for name, entry in card["training_data"]["sub_models"].items():
        tuned = (f"dev Pearson {entry['dev_pearson']:.4f}" if "dev_pearson" in entry
                 else f"CV Pearson {entry['cv_pearson']:.4f}" if entry.get("cv_pearson") is not None
                 else f"no CV figure: {entry.get('cv_note', 'nothing was searched')}")
        print(f"  {name}: {entry['pairs']} pairs, {tuned}")
    test = card["scores"].get("test")
    if test:
        print(f"  {test['dataset']}: ALL {test['all']:.4f}  ALLnorm {test['allnorm']:.4f}  Mean {test['mean']:.4f}")
