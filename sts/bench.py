"""``sts bench``: systems, saved models, encoders or runs over the STS family, under every convention.

The predictions come from :mod:`semsts.baselines.bench_predictions`, the figures and tables from :mod:`semsts.scoring.bench` and
:mod:`semsts.scoring.bench_tables`; this module joins them and is the only one that prints.
"""
from __future__ import annotations

import sys

from semsts.core.errors import InvalidValue

from .streams import stdout_to_stderr

BENCH_EPILOG = """examples:
  sts bench token-cosine glove-mean sif --published
  sts bench --model stsb --format markdown
  sts bench regression --train stsb-train --convention official
  sts bench --encoder mypkg.embed:encode --published --report bench-html
  sts bench token-cosine sif --save-predictions preds    (each row's scored pairs, one file per dataset)
  sts bench --runs runs/sts2012 runs/sts2013 …    (directories written by `sts run`)

Every figure of our rows carries a 95% interval (Fisher z for a Pearson, the delta method for a mean of
subsets' Pearsons, else the bootstrap of the pairs resampled within each subset: --seed, --resamples; 0 turns
the bootstrap off) and each two rows a paired bootstrap test (two-sided p).
Only gold-scored pairs are predicted (as SentEval does). A system is fitted on each test set's pairs
unless it learns from gold: then it needs --train (fitted once) or is a saved --model."""


def add_bench_arguments(p) -> None:
    """``sts bench``'s arguments and handler, on the parser ``sts`` gives it."""
    import argparse

    from semsts import argtypes
    from semsts.options import add_caching, add_n_jobs
    from semsts.scoring.significance import MAX_RESAMPLES
    p.epilog, p.formatter_class = BENCH_EPILOG, argparse.RawDescriptionHelpFormatter
    p.description = "Score systems over the STS family under the conventions papers use."
    p.add_argument("system", nargs="*", help="registered systems (see `sts run --help`), each one row")
    p.add_argument("--model", action="append", default=[], type=argtypes.nonempty_file,
                   help="a model saved by `sts train`, or a shipped one by name: stsb, sts2012, sts2013 (repeatable)")
    p.add_argument("--encoder", action="append", default=[], metavar="SPEC",
                   help="a sentence encoder: glove-mean, sif, wordllama, minilm (all-MiniLM-L6-v2: needs torch and sentence-transformers, which you install) or package.module:function (repeatable); it also "
                        "confirms a --model whose card names it, whose encoder otherwise does not run")
    p.add_argument("--scorer", action="append", default=[], metavar="SPEC",
                   help="a pair scorer package.module:function, score(list[tuple[str, str]]) -> list[float] (a "
                        "cross-encoder, an LLM judge; imported: it runs your code), one row (repeatable); it also "
                        "confirms a --model whose card names it")
    p.add_argument("--runs", nargs="+", default=[], metavar="DIR",
                   help="run directories written by `sts run` (each names its system and dataset)")
    p.add_argument("--train", action="append", default=[], type=argtypes.nonempty, help="training dataset of the systems that learn from gold")
    add_caching(p)
    p.add_argument("--trained-on-sts", action="store_true",
                   help="the --encoder and --scorer models were trained on STS-family data (marks them not comparable)")
    p.add_argument("--datasets", type=lambda t: [d for d in t.split(",") if d],
                   help="comma-separated datasets of the bench family instead of --suite's, e.g. "
                        "stsb-test,sts2017-all-test (`sts data list` lists every dataset and whether it is present; "
                        "a name outside the family is refused, naming the family)")
    p.add_argument("--suite", choices=["classic", "mteb-eng-v2", "mteb-multilingual"], default="classic",
                   help="the datasets benched when --datasets is not given: classic (STS12-16, STS-B, SICK-R and "
                        "STS17 when present; the default) or mteb-eng-v2 (the STS tasks of MTEB(eng, v2): "
                        "STS12-15, STS17 en-en, STSBenchmark, SICK-R, BIOSSES, STS22.v2 en; scored by MTEB's "
                        "convention only where SimCSE's and the official tables do not cover them) or "
                        "mteb-multilingual (MTEB's STS17 and STS22.v2, all their subsets, and STSBenchmarkMultilingualSTS; "
                        "MTEB's convention: each subset's cosine Spearman and their mean per task)")
    p.add_argument("--convention", action="append", choices=["official", "senteval", "simcse", "mteb"],
                   help="only these tables (repeatable; default: all four)")
    p.add_argument("--published", action="store_true",
                   help="place the rows in SimCSE's Table 5 of published encoders and among MTEB's published STS "
                        "scores: text and markdown show the top rows and those around ours, ranked (csv, latex, json "
                        "and the --report page: every row)")
    p.add_argument("--all", action="store_true", help="with --published: every published row, in the paper's layout")
    p.add_argument("--no-sts-trained", dest="sts_trained", action="store_false",
                   help="with --published: leave out the published MTEB rows trained on STS data (marked †: mteb's "
                        "model metadata names an STS task among the model's training datasets)")
    p.add_argument("--format", choices=["text", "markdown", "csv", "latex", "json", "html"], default="text",
                   help="format of the tables (default text)")
    p.add_argument("--report", metavar="DIR", type=argtypes.nonempty_path,
                   help="also write DIR/index.html and DIR/bench.svg: a bar chart and SimCSE's Table 5 with the rows "
                        "placed in it, then the other conventions' tables with their signatures (needs the plots extra, "
                        "matplotlib); an index.html or bench.svg no earlier --report wrote is refused, other files are "
                        "left alone")
    p.add_argument("--save-predictions", metavar="DIR", type=argtypes.nonempty_path,
                   help="also write every row's scored pairs with their texts, gold and prediction: DIR/ROW.DATASET.jsonl "
                        "per row and dataset, described in DIR/README.txt (DIR new or not: a file an earlier save did "
                        "not write is left alone, and refused if a save would replace it)")
    p.add_argument("--seed", type=argtypes.int_at_least(0), default=0,
                   help="seed of the bootstrap resamples behind the intervals and paired tests (default 0)")
    p.add_argument("--resamples", type=argtypes.int_between(0, MAX_RESAMPLES), default=1000,
                   help="bootstrap resamples of the pairs for the 95%% intervals and paired tests of our rows "
                        f"(default 1000, at most {MAX_RESAMPLES:,}; 0: no intervals, no tests)")
    p.add_argument("--data-dir", type=argtypes.nonempty_path, help="data root (default: $STS_DATA, else the per-user cache)")
    add_n_jobs(p, threads="the bootstrap's resamples")
    p.add_argument("--quiet", action="store_true", help="print nothing but the tables and errors")
    p.set_defaults(func=bench_command, usage_error=p.error)


def bench_command(args) -> int:
    """``sts bench``: every row's figures over the family, as tables (see :mod:`semsts.scoring.bench_tables`)."""
    from semsts.baselines.registry import system_names
    unknown = [s for s in args.system if s not in system_names()]
    if unknown:
        args.usage_error(f"unknown system {', '.join(unknown)}; known: {', '.join(system_names())}")
    if not (args.system or args.model or args.encoder or args.scorer or args.runs):
        args.usage_error("give at least one SYSTEM, --model FILE, --encoder SPEC, --scorer SPEC or --runs DIR")
    conventions = tuple(dict.fromkeys(args.convention or ("simcse", "official", "senteval", "mteb")))
    if args.report:  # before minutes of predicting: no file of the user's is replaced
        from semsts.scoring.bench_html import BENCH_FILES
        from semsts.scoring.html_report import check_report_folder
        check_report_folder(args.report, BENCH_FILES)
    if getattr(args, "save_predictions", None):  # before minutes of predicting, not after
        from semsts.scoring.pair_predictions import check_folder
        check_folder(args.save_predictions)
    from semsts.scoring.bench import FAMILY
    if args.datasets and set(args.datasets) <= set(FAMILY):  # no table would be left: said before minutes of predicting
        _check_covered(conventions, args.datasets)
    with stdout_to_stderr():  # only the tables reach stdout, whatever an encoder prints meanwhile
        rows, absent, boot, conventions, text = _bench_tables(args, conventions)
        pairs = _save_predictions(rows, args)  # the files first: a failure is then one error line and no tables
        if args.report:
            from semsts.scoring.bench_html import write_bench_report
            path = write_bench_report(rows, args.report, conventions=conventions, absent=absent, bootstrap=boot,
                                      pairs=pairs, predictions=getattr(args, "save_predictions", None),
                                      sts_trained=args.sts_trained)
    sys.stdout.write(text)
    if args.report and not args.quiet:
        print(f"wrote {path}", file=sys.stderr)
    return 0


def _save_predictions(rows, args):
    """Each row's scored pairs (for the report's worst pairs and ``--save-predictions``), saved when asked."""
    folder = getattr(args, "save_predictions", None)
    if not (folder or args.report):
        return ()
    from semsts.scoring.pair_predictions import pair_tables, save_predictions
    pairs = pair_tables(rows, args.data_dir)
    if folder:
        written = save_predictions(pairs, folder)
        if not args.quiet:
            print(f"wrote {len(written)} prediction file(s) in {folder}", file=sys.stderr)
    return pairs


def _check_covered(conventions, datasets) -> tuple:
    """The conventions whose tables cover some of ``datasets`` (:func:`~semsts.scoring.bench.covering`); an error
    when none does."""
    from semsts.scoring.bench import covering, uncovered_note
    shown = covering(conventions, datasets)
    if not shown:
        raise InvalidValue(uncovered_note(conventions, datasets))
    return shown


def _covered(conventions, rows, args) -> tuple:
    """The tables of the datasets benched: a convention covering none of them is left out, with one note saying so."""
    from semsts.scoring.bench import uncovered_note
    from semsts.scoring.bench_tables import datasets_of
    benched = datasets_of(rows)
    shown = _check_covered(conventions, benched)
    if shown != conventions:
        from .notes import note
        note(uncovered_note(conventions, benched), even_quiet=bool(args.convention))  # a table asked for by name
    return shown


def _bench_tables(args, conventions) -> tuple:
    """The rows, the absent datasets, the bootstrap, the conventions shown and the tables as text."""
    if args.report:  # before minutes of predicting, not after
        from semsts.scoring.html_report import pyplot
        pyplot()
    rows, absent = bench_rows(args)
    conventions = _covered(conventions, rows, args)
    from semsts.core.run_settings import available_cores
    from semsts.options import progress_bar
    from semsts.scoring.bench_intervals import bootstrap_rows
    bar = progress_bar(args) if args.resamples else None
    if bar:  # a step line, its elapsed time redrawn while the resamples run (seconds for the whole family)
        bar.step(f"bootstrap: {args.resamples} resamples of the pairs (seed {args.seed}) for {len(rows)} row(s)")
    try:
        rows, boot = bootstrap_rows(rows, resamples=args.resamples, seed=args.seed,
                                    threads=min(args.n_jobs, available_cores()))
    finally:
        if bar:
            bar.close()
    from semsts.scoring.bench_tables import Bench
    return rows, absent, boot, conventions, Bench(tuple(rows), conventions, args.published, tuple(absent), boot,
                                                  every_row=args.all, sts_trained=args.sts_trained).render(args.format)


def _none_present(names, data_dir) -> str:
    """One line: which datasets are missing, where they were looked for, and the advice once."""
    from semsts.corpora.paths import data_root, root_rule
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    how = "" if data_dir else f" ({root_rule(data_dir)})"  # --data-dir: the user just said which
    return (f"none of the bench datasets is under the data root {data_root(data_dir)}{how}: missing {shown}; "
            "fetch them with `sts data fetch NAME …` or point --data-dir / STS_DATA at a data root holding them")


def bench_rows(args) -> tuple[list, list]:
    """The rows the command line asks for, and the family's absent datasets with how to get them."""
    from semsts import corpora
    from semsts.baselines import bench_predictions as bench
    from semsts.options import progress_bar
    from semsts.scoring.bench import FAMILY, MTEB_POOLS, OPTIONAL, SUITES
    unknown = [n for n in args.datasets or () if n not in FAMILY]
    if unknown:
        raise InvalidValue(f"not in the bench family: {', '.join(unknown)}; it is {', '.join(FAMILY)}")
    for spec in args.encoder:  # a built-in encoder's missing extra or requirement (torch) is said before any work
        from semsts.features.encoders import check_ready
        check_ready(spec)
    from semsts.features.scorers import load_scorer
    for spec in args.scorer:  # a scorer that cannot be imported too
        load_scorer(spec)
    suite = getattr(args, "suite", "classic")
    optional = OPTIONAL if suite == "classic" and not args.datasets else ()  # a dataset named is never optional
    datasets, absent = bench.present_datasets(args.datasets or SUITES[suite], args.data_dir, optional=optional)
    if not datasets:
        raise InvalidValue(_none_present([name for name, _ in absent], args.data_dir))
    from semsts.baselines.token_cosine import not_2017_baseline

    from .notes import note
    for name in dict.fromkeys(args.system):  # once per bench, as `sts run` says it
        if text := not_2017_baseline(name, [sub.name for ds in datasets for sub in ds]):
            note(text)
    from semsts.scoring.conventions import check_official, mteb_only
    for ds in datasets:  # every figure must be computable before minutes of predicting
        if not mteb_only(ds.name):
            check_official(ds.name)
    pools = []
    if not args.convention or "mteb" in args.convention:
        names = [p for ds in datasets for p in MTEB_POOLS.get(ds.name, ())]
        pools = bench.present_datasets(names, args.data_dir)[0]
    args.backend, args.scheduler = "loky", None  # the run settings sts train and sts run take
    from semsts.baselines.registry import require_extra
    for name in args.system:  # before minutes of predicting
        require_extra(name)
    if args.model:  # before any work
        from semsts.core.extras import require
        require("reference", "a model file")
    bar = progress_bar(args)
    from semsts.baselines.registry import needs_training, system_names
    if args.train and not any(needs_training(name) for name in args.system):
        raise InvalidValue("--train is for the systems that learn from gold "
                           f"({', '.join(filter(needs_training, system_names()))}); "
                           "the others are fitted on each test set's pairs")
    train = corpora.resolve_all(args.train, args.data_dir) if args.train else []
    try:
        rows = [_bench_system(name, train, datasets, pools, args, bar) for name in args.system]
        for path in args.model:
            from semsts.baselines.model_file import load_model, model_path
            if bar:
                bar.step(f"loading {path}")
            # an encoder or scorer a card names runs if named here
            models, card = load_model(path, encoder=args.encoder, scorer=args.scorer, cache=args.cache)
            trained_on = card["training_data"]  # checked by load_model: names of datasets, dev a name or absent
            used = trained_on.get("datasets", []) + ([trained_on["dev"]] if trained_on.get("dev") else [])
            rows.append(_bench_predict(f"regression ({model_path(path).name})", models, datasets, _unseen(pools, used), args, bar,
                                       fit=False,
                                       trained=True, source=f"model {path} (sha256 {card['sha256']})",
                                       notes=_seen_note(used, datasets, args.data_dir, from_card=True)))
        encoder_source = "a sentence encoder: cosine of the two texts' embeddings " + (
            "(fitted on STS-family data, as --trained-on-sts says)" if args.trained_on_sts
            else "(taken as not fitted on STS-family data; else say --trained-on-sts)")
        for spec in args.encoder:
            from semsts.baselines.encoder import EncoderSimilarity
            rows.append(_bench_predict(spec, EncoderSimilarity(spec, cache=args.cache), datasets, pools, args, bar, fit=True,
                                       trained=args.trained_on_sts, source=encoder_source))
        rows += [_bench_scorer(spec, datasets, pools, args, bar) for spec in args.scorer]
        rows += _bench_runs(args.runs, args.data_dir)
    finally:
        if bar:
            bar.close()
    return rows, absent


def _unseen(pools, training_names) -> list:
    """MTEB's SICK-R pools SICK's train and trial sets: a model trained on one of them gets no MTEB SICK-R."""
    return [] if any(p.name in training_names for p in pools) else pools


def _seen_note(training, datasets, data_dir, *, from_card: bool = False) -> tuple:
    """A note on how many scored test pairs the training data holds (a model that saw them is not comparable).

    A model card's training data is read only where it names a registered dataset: a path in a card is the
    card's word, not a file this command was asked to open."""
    from semsts import corpora
    from semsts.baselines.bench_predictions import seen_shares
    unnamed = [ds for ds in training if from_card and ds not in corpora.dataset_names()]
    training = [ds for ds in training if ds not in unnamed]
    loaded = [ds if isinstance(ds, corpora.Dataset) else corpora.resolve(ds, data_dir) for ds in training]
    unchecked = (f"its training data {', '.join(map(repr, unnamed))[:200]} is no registered dataset, so its overlap "
                 "with the test pairs is not checked",) if unnamed else ()
    shares = {name: (k, n) for name, (k, n) in seen_shares(loaded, datasets).items() if k}
    if not shares:
        return unchecked
    from semsts.scoring.bench import LABELS
    names = ", ".join(ds if isinstance(ds, str) else ds.name for ds in training)
    return ("its training data (" + names + ") holds " + ", ".join(
        f"{100 * k / n:.1f}% of {LABELS.get(name, name)}'s scored pairs" for name, (k, n) in shares.items()),) + unchecked


def _bench_predict(name, system, datasets, pools, args, bar, *, fit, trained, source, notes=()):
    from semsts.baselines.bench_predictions import predict_family
    from semsts.options import settings
    from semsts.scoring.bench import bench_row
    if bar:
        bar.step(f"{name}: predicting the scored pairs of {len(datasets) + len(pools)} dataset(s)")
    with settings(args, bar):
        parts, pool_parts = predict_family(system, datasets, fit=fit, pools=pools, progress=bar.over if bar else None)
    return bench_row(name, datasets, parts, pools=pool_parts, source=source, trained_on_sts=trained, notes=notes)


def _bench_scorer(spec, datasets, pools, args, bar):
    """A pair scorer: fitted once on every scored pair of the row (one map of its scale onto the tasks' range, which
    no figure sees, pooled or not), then predicting them."""
    from semsts.baselines.bench_predictions import scored_subset
    from semsts.baselines.run import fit_on_subsets
    from semsts.baselines.scorer import PairScorer
    from semsts.options import settings
    system = PairScorer(spec, cache=args.cache)
    subsets = [sub for ds in (*datasets, *pools) for sub in ds]
    if bar:
        bar.step(f"{spec}: scoring the scored pairs of {len(datasets) + len(pools)} dataset(s)")
    keeps = [scored_subset(sub)[1] for sub in subsets]
    with settings(args, bar):
        fit_on_subsets(system, subsets, keeps)
    trained = ("trained on STS-family data, as --trained-on-sts says" if args.trained_on_sts
               else "taken as not trained on STS-family data; else say --trained-on-sts")
    return _bench_predict(spec, system, datasets, pools, args, bar, fit=False, trained=args.trained_on_sts,
                          source=_scale_note(system, subsets, keeps, trained))


def _scale_note(system, subsets, keeps, trained: str) -> str:
    """A fitted pair scorer's row note: how its scores were put on the tasks' range, and whether it saw STS data."""
    lo, hi = system.score_range_
    if not system.declared_:
        scores = set(system.predict([sub.pairs[i] for sub, keep in zip(subsets, keeps) for i in keep]).tolist())
        if len(scores) == 1:  # scored at fit: predicting them scores nothing again
            return (f"a pair scorer: every score was {scores.pop():g}: nothing to map, each pair put at the middle of "
                    f"the tasks' range, so each correlation is undefined (n/a) ({trained})")
    how = "the range it declares" if system.declared_ else "its lowest and highest score on these pairs"
    return f"a pair scorer: its score of each pair, mapped from [{lo:g}, {hi:g}] ({how}; {trained})"


def _bench_system(name, train, datasets, pools, args, bar):
    """A registered system: fitted on each test set's pairs, or once on ``--train`` if it learns from gold."""
    from semsts.baselines.registry import make_system, needs_training
    from semsts.baselines.run import training_pairs
    from semsts.options import settings
    system = make_system(name)
    if not needs_training(name):
        return _bench_predict(name, system, datasets, pools, args, bar, fit=True, trained=False,
                              source=f"system {name}, fitted on each test set's pairs (it learns no scores)")
    if not train:
        raise InvalidValue(f"{name} learns from scored pairs: give --train DATASET (repeatable), "
                           "or bench a saved model with --model FILE")
    for ds in train:
        ds.require_gold()
    pairs, gold = training_pairs(train)
    if bar:
        bar.step(f"{name}: fitting on {', '.join(ds.name for ds in train)} ({len(pairs)} pairs)")
    with settings(args, bar):
        system.fit(pairs, gold)
    used = ", ".join(ds.name for ds in train)
    return _bench_predict(name, system, datasets, _unseen(pools, [ds.name for ds in train]), args, bar, fit=False,
                          trained=True, source=f"system {name} fitted on {used}",
                          notes=_seen_note(train, datasets, args.data_dir))


def _bench_runs(run_dirs, data_dir) -> list:
    """One row per system named in the run directories' records (``--runs``)."""
    from semsts import corpora
    from semsts.corpora import runrecord
    from semsts.scoring.bench import FAMILY, MTEB_POOLS, bench_row
    from semsts.scoring.runs import run_predictions
    by_system: dict = {}
    for run_dir in run_dirs:
        record = runrecord.read_record(run_dir)
        if record is None:
            raise InvalidValue(f"{run_dir}: no {runrecord.RECORD_NAME}; --runs takes directories written by `sts run`, "
                               "whose record names their system and dataset")
        dataset = corpora.load(record["dataset"], data_dir)
        dataset.require_gold()
        scores = run_predictions(dataset, run_dir)
        by_system.setdefault(record["system"], {})[dataset.name] = (dataset, {
            sub.name: (sub.gold, scores[sub.name]) for sub in dataset})
    rows = []
    pool_names = {p for names in MTEB_POOLS.values() for p in names}
    for system, runs in by_system.items():
        datasets = [runs[d][0] for d in FAMILY if d in runs]
        if not datasets:
            raise InvalidValue(f"the runs of {system} cover none of the bench family ({', '.join(FAMILY)})")
        pools = {name: parts for name, (_, parts) in runs.items() if name in pool_names}
        rows.append(bench_row(system, datasets, {ds.name: runs[ds.name][1] for ds in datasets}, pools=pools,
                              source=f"runs of {', '.join(sorted(runs))}"))
    return rows
