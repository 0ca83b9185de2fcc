"""``sts run …``: fit a system (or load a model ``sts train`` saved) and write official output files."""
from __future__ import annotations

import argparse

from semsts import argtypes, corpora
from semsts.baselines.model_file import load_model
from semsts.baselines.registry import describe, make_system, needs_training, require_extra, system_names
from semsts.baselines.run import run_system, write_outputs
from semsts.core.errors import InvalidValue
from semsts.core.extras import require
from semsts.corpora import runrecord
from semsts.options import add_caching, add_columns_option, add_parallel_options, progress_bar, settings

from .notes import note
from .streams import stdout_to_stderr


def cmd_run(args) -> int:
    with stdout_to_stderr():  # only the written paths reach stdout, whatever an encoder prints meanwhile
        written = _run(args)
    if not args.quiet:
        for path in written:
            print(path)
    return 0


def _run(args) -> list:
    """The output files of the run the command line asks for, written."""
    stale = runrecord.clean_stale(args.out)
    if stale:
        note(f"removed {len(stale)} temporary file(s) an interrupted run left in {args.out}: "
             f"{', '.join(p.name for p in stale)}", even_quiet=True)
    if args.system is None and not (args.encoder or args.scorer):
        raise InvalidValue("give a SYSTEM to run, --encoder SPEC to run a sentence encoder or --scorer SPEC to run a "
                           "pair scorer")
    if args.system is not None:  # before the data is read
        require_extra(args.system)
    for option, spec, param in (("--encoder", args.encoder, "encoder"), ("--scorer", args.scorer, "scorer")):
        if spec and not args.model and (args.train if args.system is None
                                         else param not in make_system(args.system).get_params()):
            raise InvalidValue(f"{option} SPEC runs {'an encoder' if param == 'encoder' else 'a pair scorer'} on its "
                               "own (no SYSTEM, no --train), or adds its features to `regression --train`")
    if args.system is None and args.encoder and args.scorer:
        raise InvalidValue("--encoder SPEC and --scorer SPEC each run as a system on their own: run one at a time "
                           "(or add both to `regression --train`)")
    if not args.model and not args.train and args.system is not None and needs_training(args.system):
        raise InvalidValue(f"{args.system} learns from scored pairs: give --train DATASET (repeatable)"
                           + (" or --model FILE (a model saved by `sts train`)" if args.system == "regression"
                            else ""))
    if args.encoder:  # a built-in encoder's missing requirement (torch) is said before any work
        from semsts.features.encoders import check_ready
        check_ready(args.encoder)
    test, *train = corpora.resolve_all([args.test, *args.train], args.data_dir, columns=args.columns)
    for ds in train:
        ds.require_gold()
    for ds in [test, *train]:
        for text in ds.notes:
            note(text)
    from semsts.baselines.token_cosine import not_2017_baseline
    if text := not_2017_baseline(args.system, [s.name for s in test]):
        note(text)
    if args.model:  # a saved model (sts train): predict with it, no fitting
        if args.system != "regression" or args.train:
            raise InvalidValue("--model takes a model saved by `sts train`, and no --train "
                               "(with --encoder SPEC or --scorer SPEC: the encoder or pair scorer its card names, to "
                               "confirm it may run)")
        return run_saved(args, test)
    if args.system is None and args.scorer:
        from semsts.baselines.scorer import PairScorer
        system, name = PairScorer(args.scorer, cache=args.cache), f"scorer {args.scorer}"
    elif args.system is None:
        from semsts.baselines.encoder import EncoderSimilarity
        system, name = EncoderSimilarity(args.encoder, cache=args.cache), f"encoder {args.encoder}"
    else:
        system, name = make_system(args.system), args.system
        system.set_params(**{k: v for k, v in (("encoder", args.encoder), ("scorer", args.scorer)) if v})
    if args.seed is not None:
        if "seed" not in system.get_params():
            raise InvalidValue(f"{args.system} takes no seed")
        system.set_params(seed=args.seed)
    bar = progress_bar(args)
    try:
        with settings(args, bar):
            return run_system(system, test, args.out, train, name=name)
    finally:  # an error then starts its own line, not after the step's elapsed time
        if bar:
            bar.close()


def run_saved(args, test) -> list:
    """``sts run regression --model FILE``: predict with a saved model instead of fitting."""
    bar = progress_bar(args)
    require("reference", "a model file")  # before any work
    try:
        if bar:
            bar.step(f"loading {args.model}")
        models, card = load_model(args.model, encoder=args.encoder, scorer=args.scorer, cache=args.cache)
        with settings(args, bar):
            return write_outputs(models, test, args.out, name="regression", model_sha256=card["sha256"])
    finally:  # an error then starts its own line, not after the step's elapsed time
        if bar:
            bar.close()


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """``sts run``'s arguments and handler, on the parser ``sts`` gives it."""
    p.description = "Systems: " + "; ".join(f"{n}: {describe(n)}" for n in system_names())
    p.add_argument("system", nargs="?", choices=system_names(), help="the system (omit it with --encoder or --scorer)")
    p.add_argument("--test", required=True, type=argtypes.nonempty, help="dataset name or file/folder to predict, e.g. sts2012-test or mine.tsv")
    p.add_argument("--train", action="append", default=[], type=argtypes.nonempty, help="training dataset name or file/folder (repeatable)")
    add_columns_option(p)
    p.add_argument("--out", required=True, type=argtypes.nonempty_path, help="output directory")
    p.add_argument("--seed", type=int, help="seed of a seeded system such as random")
    p.add_argument("--model", type=argtypes.nonempty_file, help="a model saved by `sts train` (its card is checked), or a shipped one by name: stsb, sts2012, sts2013")
    p.add_argument("--encoder", metavar="SPEC", help="run a sentence encoder (glove-mean, sif, wordllama, minilm or package.module:function, "
                   "imported: it runs your code) as the system, or with `regression --train` add its features; with "
                   "--model, the encoder the model's card names, which runs only when named again so")
    p.add_argument("--scorer", metavar="SPEC", help="run a pair scorer package.module:function, score(list[tuple[str, "
                   "str]]) -> list[float] (a cross-encoder, an LLM judge; imported: it runs your code), as the system, or "
                   "with `regression --train` add its score as a feature; with --model, the scorer the model's card "
                   "names, which runs only when named again so")
    add_caching(p)
    add_parallel_options(p)
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    p.add_argument("--data-dir", type=argtypes.nonempty_path, help="data root (default: $STS_DATA, else the per-user cache)")
    p.set_defaults(func=cmd_run)

