"""The shared scorer: official STS/CLSS correlations, aggregates, statistics and validation.

``python evaluate.py GOLD SYS`` prints ``Pearson: 0.43340`` like the organizers' correlation.pl;
``python evaluate.py --dataset NAME --run DIR`` scores a whole run directory with a
reproducibility signature; ``python evaluate.py --check SYS --dataset NAME --subset S`` validates
one output file like correct-output.pl.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np

import corpora
from corpora import argtypes, formats

__version__ = "1.0.0"

Z95 = 1.959963984540054
UNDEFINED = "n/a"
_R_MAX = 0.9999999999  # keeps atanh finite for |r| = 1


class UndefinedCorrelation(ValueError):
    """Pearson is undefined, e.g. for a constant output."""


class InvalidRun(ValueError):
    """A run directory that cannot be scored; ``errors`` holds every FormatError found."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


# --------------------------------------------------------------------------- correlations

def pearson(x, y, weights=None) -> float:
    """Pearson's r (weighted when ``weights`` is given); NaN when either side is constant.

    The weighted form is the one the 2012 and 2013 task papers use for confidences
    (weighted means, covariances and variances with the same weights).
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) != len(y):
        raise ValueError(f"{len(x)} system scores but {len(y)} gold scores")
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float)
    if len(x) < 2 or not np.sum(w) > 0:
        return math.nan
    mx, my = np.average(x, weights=w), np.average(y, weights=w)
    dx, dy = x - mx, y - my
    sxx, syy = np.sum(w * dx * dx), np.sum(w * dy * dy)
    if sxx <= 0 or syy <= 0:
        return math.nan
    return float(np.clip(np.sum(w * dx * dy) / math.sqrt(sxx * syy), -1.0, 1.0))


def spearman(x, y) -> float:
    """Spearman's rho: Pearson of average ranks."""
    from scipy.stats import rankdata
    return pearson(rankdata(x), rankdata(y))


def least_squares_map(system, gold) -> np.ndarray:
    """The system scores mapped onto the gold by the least-squares line (ALLnorm's step)."""
    x, y = np.asarray(system, dtype=float), np.asarray(gold, dtype=float)
    if not len(x):  # a subset with no scored pair: nothing to map (and no numpy warning)
        return x.copy()
    vx = np.var(x)
    if vx == 0:
        return np.full_like(x, y.mean())
    beta1 = np.mean((x - x.mean()) * (y - y.mean())) / vx
    return beta1 * x + (y.mean() - beta1 * x.mean())


# --------------------------------------------------------------------------- statistics

def _fisher_z(r: float) -> float:
    return math.atanh(min(max(r, -_R_MAX), _R_MAX))


def fisher_ci(r: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Fisher-z confidence interval of a Pearson r on n pairs: tanh(atanh(r) ± q / sqrt(n - 3)).

    The 2012 task paper's interval analysis: r = .8239 on 3108 pairs gives [.8123, .8349].
    NaNs when r is undefined or n <= 3.
    """
    if not math.isfinite(r) or n <= 3:
        return (math.nan, math.nan)
    from scipy.stats import norm
    z, se = _fisher_z(r), 1.0 / math.sqrt(n - 3)
    q = norm.ppf(0.5 + level / 2)
    return (math.tanh(z - q * se), math.tanh(z + q * se))


def fisher_z_test(r1: float, n1: int, r2: float, n2: int | None = None) -> tuple[float, float]:
    """One-tailed Fisher-z test that r1 > r2; returns ``(z, p)``.

    The *SEM 2013 paper's significance test between runs (Press et al. 2002, Numerical Recipes
    eq. 14.5.10): z = (atanh r1 - atanh r2) / sqrt(1/(n1-3) + 1/(n2-3)), p = P(Z >= z). It treats
    the two correlations as independent; for two runs scored on the same gold, where they are
    not, :func:`williams_test` is the sharper test. ``n2`` defaults to ``n1``.
    """
    from scipy.stats import norm
    n2 = n1 if n2 is None else n2
    if not (math.isfinite(r1) and math.isfinite(r2)) or min(n1, n2) <= 3:
        return (math.nan, math.nan)
    z = (_fisher_z(r1) - _fisher_z(r2)) / math.sqrt(1.0 / (n1 - 3) + 1.0 / (n2 - 3))
    return (float(z), float(norm.sf(z)))


def williams_test(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    """Williams' test that r12 > r13 when both share variable 1; returns ``(t, p)``, one-tailed.

    Variable 1 is the gold, 2 and 3 two systems: r12, r13 their Pearsons with the gold, r23 the
    Pearson between the systems. Williams' T2 as Steiger (1980, "Tests for comparing elements of
    a correlation matrix", Psychological Bulletin 87) recommends it, with n - 3 degrees of freedom:
    t = (r12 - r13) sqrt((n-1)(1+r23) / (2 |R| (n-1)/(n-3) + rbar^2 (1-r23)^3)),
    |R| = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23, rbar = (r12 + r13) / 2.
    """
    from scipy.stats import t as student_t
    if not all(math.isfinite(v) for v in (r12, r13, r23)) or n <= 3:
        return (math.nan, math.nan)
    det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    rbar = (r12 + r13) / 2
    denom = 2 * det * (n - 1) / (n - 3) + rbar ** 2 * (1 - r23) ** 3
    if denom <= 0:
        return (math.nan, math.nan)
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23) / denom)
    return (float(t), float(student_t.sf(t, n - 3)))


class BootstrapResult(NamedTuple):
    """A paired bootstrap of ``metric(a, gold) - metric(b, gold)``."""

    difference: float  # on the full sample
    ci: tuple  # percentile interval of the resampled differences
    p_value: float  # share of resamples in which a does not beat b (one-tailed, a > b)
    n_resamples: int
    seed: int


def paired_bootstrap(gold, system_a, system_b, n_resamples: int = 1000, seed: int = 0,
                     level: float = 0.95, metric: Callable = pearson) -> BootstrapResult:
    """Paired bootstrap (Efron & Tibshirani 1993; Koehn 2004) of the gap between two systems.

    Pairs are resampled with replacement, the same indices for both systems; the p-value is the
    share of resamples where ``metric(a) - metric(b) <= 0``. Deterministic for a given seed.
    Resamples where a metric is undefined (a constant resample) are left out of the CI and p.
    """
    gold = np.asarray(gold, dtype=float)
    a, b = np.asarray(system_a, dtype=float), np.asarray(system_b, dtype=float)
    if not len(gold) == len(a) == len(b):
        raise ValueError(f"gold, a and b differ in length: {len(gold)}, {len(a)}, {len(b)}")
    rng = np.random.default_rng(seed)
    diffs = np.empty(n_resamples)
    for i in range(n_resamples):
        idx = rng.integers(0, len(gold), size=len(gold))
        diffs[i] = metric(a[idx], gold[idx]) - metric(b[idx], gold[idx])
    diffs = diffs[np.isfinite(diffs)]
    observed = metric(a, gold) - metric(b, gold)
    if len(diffs) == 0:
        return BootstrapResult(observed, (math.nan, math.nan), math.nan, n_resamples, seed)
    tail = (1 - level) / 2
    lo, hi = np.quantile(diffs, [tail, 1 - tail])
    return BootstrapResult(float(observed), (float(lo), float(hi)), float(np.mean(diffs <= 0)),
                           n_resamples, seed)


# --------------------------------------------------------------------------- scoring

def _mean(values, weights=None) -> float:
    """Mean of Pearsons; NaN when any is undefined (a constant output has no r)."""
    values = np.asarray(values, dtype=float)
    if len(values) == 0 or np.isnan(values).any():
        return math.nan
    return float(np.average(values, weights=weights))


def score_subsets(parts) -> dict:
    """Per-subset and dataset scores over ``[(name, system, gold[, confidences]), …]``.

    Unscored pairs (NaN gold) are dropped before anything is computed. Aggregates: ALL (Pearson
    of the concatenation), ALLnorm (per-subset least-squares map onto the gold, then ALL), Mean
    (Pearsons weighted by scored pairs, the official 2012-2016 figure) and the unweighted mean.
    With confidences on every subset, ``all_weighted`` is the 2012 paper's ALLw.
    """
    subsets, xs, ys, ws, maps = {}, [], [], [], []
    for name, system, gold, *rest in parts:
        system, gold = np.asarray(system, dtype=float), np.asarray(gold, dtype=float)
        conf = rest[0] if rest and rest[0] is not None else None
        keep = ~np.isnan(gold)
        x, y = system[keep], gold[keep]
        r = pearson(x, y)
        subsets[name] = {
            "n": int(len(y)), "n_unscored": int(np.count_nonzero(~keep)),
            "pearson": r, "spearman": spearman(x, y), "ci95": list(fisher_ci(r, len(y))),
            "weighted_pearson": None if conf is None else pearson(x, y, np.asarray(conf, float)[keep]),
        }
        xs.append(x)
        ys.append(y)
        ws.append(None if conf is None else np.asarray(conf, float)[keep])
        maps.append(least_squares_map(x, y))
    x_all, y_all = np.concatenate(xs), np.concatenate(ys)
    rs = [s["pearson"] for s in subsets.values()]
    return {
        "subsets": subsets,
        "all": pearson(x_all, y_all),
        "allnorm": pearson(np.concatenate(maps), y_all),
        "mean": _mean(rs, [s["n"] for s in subsets.values()]),
        "unweighted_mean": _mean(rs),
        "all_weighted": None if any(w is None for w in ws) else pearson(x_all, y_all, np.concatenate(ws)),
    }


def clss_scores(result: dict) -> dict:
    """CLSS 2014's official ranking score (sum of the four levels' Pearsons) and Spearman sum."""
    levels = [result["subsets"][lvl] for lvl in corpora.CLSS_LEVELS if lvl in result["subsets"]]
    return {"official": float(sum(s["pearson"] for s in levels)),
            "spearman_sum": float(sum(s["spearman"] for s in levels))}


def validate_run(dataset: corpora.Dataset, run_dir) -> list:
    """Every FormatError of the run's output files for ``dataset`` (missing files included)."""
    errors = corpora.runrecord.check_run(run_dir, dataset.name, [sub.output_name for sub in dataset])
    for sub in dataset:
        check = corpora.check_typed_output if sub.kind == "typed" else formats.check_output
        errors.extend(check(Path(run_dir) / sub.output_name, len(sub), sub.score_range))
    return errors


def score_run(dataset: corpora.Dataset, run_dir, bootstrap: dict | None = None) -> dict:
    """The full report of a run directory: scores, notes and signature; InvalidRun if any file is bad."""
    if dataset.kind == "typed":
        return score_typed_run(dataset, run_dir)
    errors = validate_run(dataset, run_dir)
    if errors:
        raise InvalidRun(errors)
    parts = []
    for sub in dataset:
        scores, conf = formats.read_output(Path(run_dir) / sub.output_name, len(sub), sub.score_range)
        parts.append((sub.name, scores, sub.gold, conf))
    result = score_subsets(parts)
    report = {"dataset": dataset.name, "kind": dataset.kind, **result,
              "missing": missing_subsets(dataset), "notes": list(dataset.notes)}
    if dataset.kind == "clss":
        report.update(clss_scores(result))
    report["signature"] = signature(report, bootstrap)
    return report


def missing_subsets(dataset: corpora.Dataset) -> list[str]:
    """Subsets the task published that this dataset lacks, licensed ones marked."""
    spec = corpora.spec(dataset.name)
    present = {s.name for s in dataset}
    return [f"{name}(licensed)" if name in spec.licensed_out else name
            for name in spec.expected if name not in present]


# --------------------------------------------------------------------------- signature

def signature(report: dict, bootstrap: dict | None = None) -> str:
    """sacrebleu-style ``key:value|…|version:X`` naming every choice that makes numbers incomparable.

    ``bootstrap`` (``{"seed": …, "resamples": …}``) is for reports that resample.
    """
    subs = report["subsets"]
    unscored = sum(s["n_unscored"] for s in subs.values())
    has_conf = [s["weighted_pearson"] is not None for s in subs.values()]
    conf = "none" if not any(has_conf) else "ignored(+weighted-pearson)" if all(has_conf) else "partial(+weighted-pearson)"
    agg = "all=pooled,allnorm=lsq-per-subset,mean=size-weighted,umean=plain"
    if report.get("kind") == "clss":
        agg += ",official=sum-pearson"
    boot = "none" if not bootstrap else f"seed={bootstrap['seed']},n={bootstrap['resamples']}"
    fields = [
        ("dataset", report["dataset"]),
        ("subsets", ",".join(f"{name}={s['n']}" for name, s in subs.items())),
        ("missing", ",".join(report.get("missing", [])) or "none"),
        ("agg", agg),
        ("corr", "pearson"),
        ("unscored", f"dropped({unscored})"),
        ("conf", conf),
        ("nan", "error"),
        ("ci", "fisher-z95"),
        ("boot", boot),
        ("version", __version__),
    ]
    return "|".join(f"{k}:{v}" for k, v in fields)


# --------------------------------------------------------------------------- report formats

def _fmt(value) -> str:
    return UNDEFINED if value is None or not math.isfinite(value) else f"{value:.5f}"


def _ci(pair) -> str:
    lo, hi = pair
    return UNDEFINED if not math.isfinite(lo) else f"[{lo:.4f}, {hi:.4f}]"


def _aggregate_rows(report: dict) -> list[tuple[str, float]]:
    rows = [("ALL", report["all"]), ("ALLnorm", report["allnorm"]),
            ("Mean (size-weighted)", report["mean"]), ("Mean (unweighted)", report["unweighted_mean"])]
    if report.get("all_weighted") is not None:
        rows.append(("ALLw (confidence-weighted)", report["all_weighted"]))
    return rows


def _subset_table(report: dict) -> tuple[list[str], list[list[str]]]:
    with_conf = any(s["weighted_pearson"] is not None for s in report["subsets"].values())
    with_unscored = any(s["n_unscored"] for s in report["subsets"].values())
    header = (["subset", "n"] + (["unscored (dropped)"] if with_unscored else [])
              + ["Pearson", "Spearman", "95% CI"] + (["weighted Pearson"] if with_conf else []))
    rows = []
    for name, s in report["subsets"].items():
        row = ([name, str(s["n"])] + ([str(s["n_unscored"])] if with_unscored else [])
               + [_fmt(s["pearson"]), _fmt(s["spearman"]), _ci(s["ci95"])])
        if with_conf:
            row.append(_fmt(s["weighted_pearson"]))
        rows.append(row)
    return header, rows


CLSS_HEADS = {"paragraph2sentence": "Para-2-Sent", "sentence2phrase": "Sent-2-Phr",
              "phrase2word": "Phr-2-Word", "word2sense": "Word-2-Sense"}


def _clss_table(report: dict) -> tuple[list[str], list[list[str]]]:
    """The CLSS paper's Table 5 layout: one column per level, then the sum of the four."""
    levels = [lvl for lvl in corpora.CLSS_LEVELS if lvl in report["subsets"]]
    header = [""] + [CLSS_HEADS[lvl] for lvl in levels] + ["Official (sum)"]
    rows = [[label] + [_fmt(report["subsets"][lvl][key]) for lvl in levels] + [_fmt(report[total])]
            for label, key, total in (("Pearson", "pearson", "official"), ("Spearman", "spearman", "spearman_sum"))]
    return header, rows


def _aligned(header, rows) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in [header, *rows]]


def _markdown(header, rows) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + ["| " + " | ".join(r) + " |" for r in rows]


def _tables(report: dict) -> list[tuple[list[str], list[list[str]]]]:
    if report.get("kind") == "typed":
        return _typed_tables(report)
    n_all = sum(s["n"] for s in report["subsets"].values())
    tables = [_subset_table(report),
              (["aggregate", "n", "Pearson"], [[name, str(n_all), _fmt(v)] for name, v in _aggregate_rows(report)])]
    if report.get("kind") == "clss":
        tables.insert(0, _clss_table(report))
    return tables


def _render(report: dict, title: str, table: Callable, note: str, sig: str) -> str:
    lines = [title, ""]
    for header, rows in _tables(report):
        lines += table(header, rows) + [""]
    lines += [note.format(n) for n in report["notes"]]
    lines.append(sig.format(report["signature"]))
    return "\n".join(lines) + "\n"


def render_text(report: dict) -> str:
    return _render(report, f"dataset: {report['dataset']}", _aligned, "note: {}", "signature: {}")


def render_markdown(report: dict) -> str:
    return _render(report, f"**{report['dataset']}**", _markdown, "Note: {}  ", "Signature: `{}`")


def render_csv(report: dict) -> str:
    """One row per subset and aggregate; every row carries the signature so rows stay comparable."""
    if report.get("kind") == "typed":
        return _typed_csv(report)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["dataset", "row", "n", "n_unscored", "pearson", "spearman", "ci95_lo", "ci95_hi",
                     "weighted_pearson", "signature"])
    sig, ds = report["signature"], report["dataset"]

    def num(v):
        return "" if v is None or not math.isfinite(v) else f"{v:.5f}"

    for name, s in report["subsets"].items():
        writer.writerow([ds, name, s["n"], s["n_unscored"], num(s["pearson"]), num(s["spearman"]),
                         num(s["ci95"][0]), num(s["ci95"][1]), num(s["weighted_pearson"]), sig])
    n_all = sum(s["n"] for s in report["subsets"].values())
    unscored = sum(s["n_unscored"] for s in report["subsets"].values())
    extra = [("official", report["official"])] if report.get("kind") == "clss" else []
    for name, v in _aggregate_rows(report) + extra:
        writer.writerow([ds, name, n_all, unscored, num(v), "", "", "", "", sig])
    return out.getvalue()


def _json_value(value):
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if isinstance(value, float):
        return round(value, 8) if math.isfinite(value) else None
    return value


def render_json(report: dict) -> str:
    """The issue's shape; an undefined correlation is ``null``, floats rounded to 8 decimals."""
    return json.dumps(_json_value(report), indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"text": render_text, "json": render_json, "markdown": render_markdown, "csv": render_csv}


# --------------------------------------------------------------------------- single files

def score_files(gold_path, sys_path, bounds=formats.STS_RANGE) -> float:
    """correlation.pl: Pearson of a system file against a gold file, unscored lines dropped.

    Refuses an output that does not validate (raises its first FormatError).
    """
    gold = formats.read_gold(gold_path, bounds)
    scores, _ = formats.read_output(sys_path, len(gold), bounds)
    keep = ~np.isnan(gold)
    return pearson(scores[keep], gold[keep])


def _parse_range(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(v) for v in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH such as 0-5, got {text!r}") from None
    if not lo < hi:
        raise argparse.ArgumentTypeError(f"range {text!r} is empty")
    return (lo, hi)


# --------------------------------------------------------------------------- TYPED (*SEM 2013 pilot)

def score_typed(system, gold) -> dict:
    """Table 3 of the *SEM 2013 paper: the Pearson of each of the eight types and their plain mean."""
    system, gold = np.asarray(system, dtype=float), np.asarray(gold, dtype=float)
    if system.shape != gold.shape or gold.ndim != 2 or gold.shape[1] != len(corpora.TYPES):
        raise ValueError(f"typed scores must both be (n, {len(corpora.TYPES)}), got {system.shape} and {gold.shape}")
    types = {t: pearson(system[:, j], gold[:, j]) for j, t in enumerate(corpora.TYPES)}
    return {"n": len(gold), "types": types, "mean": _mean(list(types.values()))}


def score_typed_run(dataset: corpora.Dataset, run_dir) -> dict:
    """The report of a TYPED run directory (``STS.output.europeana.txt``); InvalidRun if it is bad."""
    errors = validate_run(dataset, run_dir)
    if errors:
        raise InvalidRun(errors)
    (sub,) = dataset.subsets
    result = score_typed(corpora.read_typed_output(Path(run_dir) / sub.output_name, len(sub)), sub.gold)
    report = {"dataset": dataset.name, "kind": "typed", **result, "notes": list(dataset.notes)}
    report["signature"] = "|".join(f"{k}:{v}" for k, v in [
        ("dataset", dataset.name), ("n", result["n"]), ("types", len(corpora.TYPES)), ("agg", "mean=plain-of-types"),
        ("corr", "pearson"), ("nan", "error"), ("version", __version__)])
    return report


def typed_lines(result: dict) -> list[str]:
    """What the organizers' correlation-typed.pl printed: ``Pearson (Type): r`` per type, then the mean."""
    return ([f"Pearson ({label}): {_fmt(result['types'][t])}" for t, label in zip(corpora.TYPES, corpora.TYPE_LABELS)]
            + [f"Pearson mean: {_fmt(result['mean'])}"])


def _typed_tables(report: dict) -> list[tuple[list[str], list[list[str]]]]:
    header = ["", *corpora.TYPE_LABELS, "Mean"]
    return [(header, [["Pearson", *(_fmt(report["types"][t]) for t in corpora.TYPES), _fmt(report["mean"])]])]


def _typed_csv(report: dict) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["dataset", "type", "n", "pearson", "signature"])
    for name, r in [*report["types"].items(), ("mean", report["mean"])]:
        writer.writerow([report["dataset"], name, report["n"], "" if not math.isfinite(r) else f"{r:.5f}",
                         report["signature"]])
    return out.getvalue()


# --------------------------------------------------------------------------- command line

# Subcommands: ``python evaluate.py NAME …`` runs SUBCOMMANDS[NAME](argv_rest) -> exit code.
SUBCOMMANDS: dict[str, Callable[[list], int]] = {}


def build_parser(prog: str = "evaluate.py") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description=__doc__.splitlines()[0],
        epilog="forms: GOLD SYS | --dataset NAME --run DIR | --check SYS [--dataset NAME --subset S]"
               + "".join(f" | {name} …" for name in SUBCOMMANDS))
    parser.add_argument("files", nargs="*", metavar="GOLD SYS", help="score one output file like correlation.pl")
    parser.add_argument("--range", type=_parse_range, help="score range for GOLD SYS and --check without a dataset (default 0-5)")
    parser.add_argument("--dataset", help="named dataset, e.g. sts2012-test")
    parser.add_argument("--run", help="directory holding the official output files of one run")
    parser.add_argument("--check", metavar="SYS", help="validate one output file like correct-output.pl")
    parser.add_argument("--subset", help="with --check: the subset whose input SYS answers")
    parser.add_argument("--format", choices=list(RENDERERS), default="text", help="report format (default text)")
    parser.add_argument("--data-dir", help="data root (default: $STS_DATA, else the per-user cache)")
    return parser


def _print_errors(errors, limit: int = 20) -> None:
    for exc in errors[:limit]:
        print(exc, file=sys.stderr)
    if len(errors) > limit:
        print(f"… and {len(errors) - limit} more errors", file=sys.stderr)


def _cmd_check(args) -> int:
    n_expected, bounds = None, args.range or formats.STS_RANGE
    if args.dataset:
        sub = corpora.load(args.dataset, args.data_dir).subset(args.subset)
        n_expected, bounds = len(sub), sub.score_range
    typed = sub.kind == "typed" if args.dataset else corpora.typed.is_typed_file(args.check)
    check = corpora.check_typed_output if typed else formats.check_output
    errors = list(check(args.check, n_expected, bounds))
    if errors:
        _print_errors(errors)
        print(f"{args.check}: {len(errors)} error(s); the output file is not valid", file=sys.stderr)
        return 1
    print(f"{args.check}: Output file is OK!")
    return 0


def _cmd_run(args) -> int:
    dataset = corpora.load(args.dataset, args.data_dir)
    try:
        report = score_run(dataset, args.run)
    except InvalidRun as exc:
        _print_errors(exc.errors)
        print(f"error: {args.run} cannot be scored; check a file with "
              f"`python evaluate.py --check FILE --dataset {args.dataset} --subset NAME`", file=sys.stderr)
        return 1
    sys.stdout.write(RENDERERS[args.format](report))
    return 0


def _cmd_files(args) -> int:
    """``GOLD SYS``: correlation.pl, or correlation-typed.pl when the gold has eight columns."""
    gold_path, sys_path = args.files
    typed = corpora.typed.is_typed_file(gold_path)
    bounds = args.range or formats.STS_RANGE
    gold = (corpora.read_typed_gold if typed else formats.read_gold)(gold_path, bounds)
    if not len(gold):
        raise corpora.FormatError(gold_path, None, "is empty; expected one gold score per line")
    errors = list((corpora.check_typed_output if typed else formats.check_output)(sys_path, len(gold), bounds))
    if errors:
        _print_errors(errors)
        return 1
    if typed:
        print("\n".join(typed_lines(score_typed(corpora.read_typed_output(sys_path, len(gold), bounds), gold))))
        return 0
    r = score_files(gold_path, sys_path, bounds)
    print(f"Pearson: {_fmt(r) if math.isfinite(r) else UNDEFINED + ' (undefined: a constant side)'}")
    unscored = int(np.count_nonzero(np.isnan(gold)))
    print(f"signature: file:{Path(sys_path).name}|n={len(gold) - unscored}|unscored:dropped({unscored})"
          f"|corr:pearson|conf:ignored|nan:error|version:{__version__}", file=sys.stderr)
    return 0


def main(argv=None, prog: str = "evaluate.py") -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]](argv[1:])
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.check:
        if args.files or args.run or bool(args.dataset) != bool(args.subset):
            parser.error("--check SYS takes --dataset and --subset together (or neither), nothing else")
        command = _cmd_check
    elif args.dataset or args.run:
        if not (args.dataset and args.run) or args.files:
            parser.error("give --dataset NAME and --run DIR together")
        command = _cmd_run
    elif len(args.files) == 2:
        command = _cmd_files
    else:
        parser.error("give GOLD SYS, --dataset NAME --run DIR, or --check SYS")
    try:
        return command(args)
    except (corpora.FormatError, corpora.DatasetNotFound, KeyError, OSError) as exc:
        print(f"error: {exc.args[0] if isinstance(exc, KeyError) else exc}", file=sys.stderr)
        return 1


# =========================================================================== compare
# ``python evaluate.py compare`` / ``sts compare``: our runs placed among a task paper's published
# table (corpora.leaderboards), their 95% intervals, significance between runs, and an HTML report.

ALPHA = 0.05


def aggregate_ci(rs, ns, rule: str, level: float = 0.95) -> tuple[float, float]:
    """Normal-approximation interval of a size-weighted mean, plain mean or sum of Pearsons.

    The subsets are independent samples and var(r) ~ (1 - r^2)^2 / (n - 1) for each.
    """
    from scipy.stats import norm
    rs, ns = np.asarray(rs, dtype=float), np.asarray(ns, dtype=float)
    if len(rs) == 0 or not np.isfinite(rs).all() or (ns <= 1).any():
        return (math.nan, math.nan)
    w = {"sum": np.ones_like(rs), "weighted": ns / ns.sum()}.get(rule, np.ones_like(rs) / len(rs))
    centre = float(np.sum(w * rs))
    half = float(norm.ppf(0.5 + level / 2)) * math.sqrt(float(np.sum(w ** 2 * (1 - rs ** 2) ** 2 / (ns - 1))))
    return (centre - half, centre + half)


def _aggregate_metric(rule: str, sizes) -> Callable:
    """``metric(stacked, gold)`` for :func:`paired_bootstrap`: column 0 the scores, column 1 the subset index."""
    def metric(stacked, gold):
        scores, ids = stacked[:, 0], stacked[:, 1].astype(int)
        if rule == "pooled":
            return pearson(scores, gold)
        rs = [pearson(scores[ids == i], gold[ids == i]) for i in range(len(sizes))]
        return float(np.sum(rs)) if rule == "sum" else _mean(rs, sizes if rule == "weighted" else None)
    return metric


def _fallback_board(dataset: corpora.Dataset):
    """The layout for a dataset no task paper ranks: the scorer's aggregates, no published rows."""
    from corpora import leaderboards
    subs = tuple(s.name for s in dataset)
    measures = {"official": "sum"} if dataset.kind == "clss" else {"all": "pooled", "allnorm": "pooled", "mean": "weighted"}
    return leaderboards.Leaderboard(
        name="", title=dataset.name, source="", dataset=dataset.name, measures=measures,
        primary="official" if dataset.kind == "clss" else "mean", subsets=subs, sizes={}, labels={}, marks={},
        rows=(), path=None, columns=("name", *(c for m in measures for c in (m, f"{m}_rank")), *subs), digits=4)


def _run_as_row(board, name: str, report: dict, present):
    """Our run as a table row, its figures rounded like the paper's so that ties place as the paper's do."""
    from corpora import leaderboards
    scores = {s: round(report["subsets"][s]["pearson"], board.digits) for s in present}  # NaN stays unranked
    for measure in board.measures:
        value = report.get(measure)
        if measure in board.columns and isinstance(value, float) and math.isfinite(value):
            scores[measure] = round(value, board.digits)
    return leaderboards.Row(name, "ours", scores, {}, "", "", 0)


def _ranking_value(board, row, measure: str, present, sizes) -> float | None:
    """The figure a row is ranked by: as printed, or recomputed over the subsets present when some are missing."""
    if tuple(present) == tuple(board.subsets):
        return board.value(row, measure)
    return board.aggregate(row, measure, present, sizes)


def _table_columns(board, present, measures) -> list[str]:
    """The paper's column order for the subsets and measures shown; a measure it only ranks goes before its rank."""
    cols = []
    for col in board.columns:
        base = col[:-5] if col.endswith("_rank") else col
        if col == "name" or col in present or col in measures:
            cols.append(col)
        elif col.endswith("_rank") and base in measures:
            if base not in cols and board.measures[base] != "given":
                cols.append(base)
            cols.append(col)
    return cols


def compare_runs(dataset: corpora.Dataset, runs: dict, published: bool = True,
                 seed: int = 0, resamples: int = 1000) -> dict:
    """Score ``runs`` (name -> run directory) and place them among the task paper's published table.

    Published ranks stay the paper's; each of our runs takes the rank its figures would have among the
    published ranked rows. With a subset missing, published aggregates and ranks are recomputed over
    the subsets present. InvalidRun carries every bad file of every run.
    """
    from corpora import leaderboards
    errors = [e for run_dir in runs.values() for e in validate_run(dataset, run_dir)]
    if errors:
        raise InvalidRun(errors)
    try:
        board = leaderboards.for_dataset(dataset.name)
    except corpora.DatasetNotFound:
        board = _fallback_board(dataset)
    present = [s.name for s in dataset if s.name in board.subsets]
    sizes = {s.name: s.n_scored for s in dataset}
    missing = [s for s in board.subsets if s not in present]
    measures = [m for m in board.measures if not (missing and board.measures[m] in ("pooled", "given"))]
    primary = board.primary if board.primary in measures else measures[0]
    boot = {"seed": seed, "resamples": resamples} if len(runs) > 1 else None  # the pairs are bootstrapped
    reports = {name: score_run(dataset, run_dir, boot) for name, run_dir in runs.items()}
    pub = list(board.rows) if published else []
    ours = {name: _run_as_row(board, name, rep, present) for name, rep in reports.items()}

    rows = [{"name": r.name, "ours": False, "role": r.role, "marks": r.marks, "notes": r.notes,
             "scores": {**{s: r.scores.get(s) for s in present},
                        **{m: _ranking_value(board, r, m, present, sizes) for m in measures}},
             "ranks": {}} for r in pub]
    rows += [{"name": name, "ours": True, "role": "ours", "marks": "", "notes": "", "run": str(runs[name]),
              "scores": {**{s: rep["subsets"][s]["pearson"] for s in present},
                         **{m: rep.get(m) if isinstance(rep.get(m), float) else None for m in measures}},
              "ranks": {}, "signature": rep["signature"]} for name, rep in reports.items()]
    position = {}
    for m in measures:
        ranked = [i for i, r in enumerate(pub) if m in r.ranks]
        values = [rows[i]["scores"][m] for i in ranked]
        recomputed = dict(zip(ranked, leaderboards.competition_ranks(values)))
        our_values = [_ranking_value(board, ours[row["name"]], m, present, sizes) if row["ours"] else None
                      for row in rows]
        among_ours = leaderboards.competition_ranks(our_values)
        for i, row in enumerate(rows):
            if row["ours"]:
                row["ranks"][m] = leaderboards.placed_rank(our_values[i], values) if pub else among_ours[i]
            elif i in recomputed:
                row["ranks"][m] = recomputed[i] if missing else pub[i].ranks[m]
            else:
                row["ranks"][m] = None
            if m == primary:
                position[i] = row["ranks"][m] or leaderboards.placed_rank(row["scores"][m], values) or math.inf
    n_total = sum(sizes[s] for s in present)
    rule = board.measures[primary]
    for row in rows:
        row["ci95"] = _row_ci(row, primary, rule, present, sizes, n_total)
    def order(i):  # by rank; within one rank (a run placed beside a published one, an unranked reference) by score
        score = rows[i]["scores"].get(primary)
        return position[i], -score if score is not None and math.isfinite(score) else math.inf, rows[i]["ours"], i

    rows = [rows[i] for i in sorted(range(len(rows)), key=order)]
    return {
        "dataset": dataset.name, "leaderboard": board.name or None, "source": board.source or None,
        "title": board.title, "measures": measures, "primary": primary, "subsets": present, "missing": missing,
        "n": n_total, "digits": board.digits, "labels": {k: board.label(k) for k in [*present, *measures]},
        "columns": _table_columns(board, present, measures), "marks": board.marks,
        "notes": _compare_notes(dataset, board, present, missing, measures, primary, bool(pub)),
        "rows": rows,
        "significance": _significance(dataset, reports, runs, rows, primary, rule, present, sizes, seed, resamples),
    }


def _row_ci(row: dict, primary: str, rule: str, present, sizes, n_total):
    """95% interval of the primary measure: Fisher z for a pooled Pearson, else over the subset figures."""
    value = row["scores"].get(primary)
    if value is None:
        return None
    if rule == "pooled":
        return list(fisher_ci(value, n_total))
    kept = [(row["scores"][s], sizes[s]) for s in present if row["scores"].get(s) is not None]
    if not kept or (len(kept) < len(present) and rule != "sum"):
        return None
    return list(aggregate_ci([r for r, _ in kept], [n for _, n in kept], rule))


def _compare_notes(dataset, board, present, missing, measures, primary, published: bool) -> list[str]:
    notes = list(dataset.notes)
    label = board.label(primary)
    if missing and not (published and board.rows):
        notes.append(f"{', '.join(missing)} missing: every measure is over {', '.join(present)}")
    elif missing:
        how = {"weighted": "size-weighted mean", "mean": "mean", "sum": "sum"}.get(board.measures[primary], "")
        dropped = [board.label(m) for m in board.measures if m not in measures]
        notes.append(f"{', '.join(missing)} missing: each published {label} is recomputed as the {how} of its figures on "
                     f"{', '.join(present)}, and the published ranks are recomputed from it"
                     + (f"; {', '.join(dropped)} cannot be recomputed and are left out" if dropped else ""))
    if published and board.rows:
        notes.append("our runs (marked *) take the rank their figures, rounded like the paper's, would have among the "
                     "published ranked runs, which keep their ranks; '-': a published row the paper does not rank")
        notes.append(f"published: {board.source}")
    if board.marks and published:
        notes.append("marks: " + "; ".join(f"{k} {v}" for k, v in board.marks.items()))
    notes.append(f"95% CI of {label}: " + ("Fisher z over all pairs" if board.measures[primary] == "pooled" else
                 "normal approximation over the subsets, var(r) = (1 - r^2)^2 / (n - 1)"))
    return notes


def _stacked_outputs(dataset, runs: dict, present):
    """Gold, subset index and each run's scores over the scored pairs of the subsets present."""
    golds, ids, scores = [], [], {name: [] for name in runs}
    for index, name in enumerate(present):
        sub = dataset.subset(name)
        keep = ~np.isnan(sub.gold)
        golds.append(sub.gold[keep])
        ids.append(np.full(int(keep.sum()), index))
        for run, run_dir in runs.items():
            out, _ = formats.read_output(Path(run_dir) / sub.output_name, len(sub), sub.score_range)
            scores[run].append(out[keep])
    return np.concatenate(golds), np.concatenate(ids), {k: np.concatenate(v) for k, v in scores.items()}


def _significance(dataset, reports, runs, rows, primary, rule, present, sizes, seed, resamples) -> list[dict]:
    """Each pair of our runs (Fisher z, Williams on the pooled pairs, paired bootstrap) and each run against the best published row (Fisher z)."""
    from itertools import combinations
    n = sum(sizes[s] for s in present)
    k = len(present)

    def as_r(value):  # a sum of k Pearsons is tested as their mean
        return value / k if rule == "sum" else value

    value = {r["name"]: r["scores"].get(primary) for r in rows if r["ours"]}
    tests = []
    if len(runs) > 1:
        gold, ids, outs = _stacked_outputs(dataset, runs, present)
        metric = _aggregate_metric(rule, [sizes[s] for s in present])
        for a, b in combinations(runs, 2):
            if _finite(value[b]) and not (_finite(value[a]) and value[a] >= value[b]):
                a, b = b, a
            z, p = fisher_z_test(as_r(value[a]), n, as_r(value[b]), n) if _finite(value[a]) and _finite(value[b]) else (math.nan,) * 2
            t, pw = williams_test(pearson(outs[a], gold), pearson(outs[b], gold), pearson(outs[a], outs[b]), n)
            boot = paired_bootstrap(gold, np.column_stack([outs[a], ids]), np.column_stack([outs[b], ids]),
                                    resamples, seed, metric=metric)
            tests.append({"a": a, "b": b, "published": None, "measure": primary,
                          "difference": boot.difference, "fisher_z": {"z": z, "p": p},
                          "williams": {"on": "all", "t": t, "p": pw},
                          "bootstrap": {"ci95": list(boot.ci), "p": boot.p_value, "resamples": resamples, "seed": seed},
                          "significant": bool(all(_finite(v) and v < ALPHA for v in (p, pw, boot.p_value)))})
    ranked = [r for r in rows if not r["ours"] and r["ranks"].get(primary) is not None and r["scores"].get(primary) is not None]
    if ranked:
        best = max(ranked, key=lambda r: r["scores"][primary])
        for name in runs:
            if not _finite(value[name]):
                continue
            a, b = (name, best["name"]) if value[name] >= best["scores"][primary] else (best["name"], name)
            va, vb = (value[name], best["scores"][primary]) if a == name else (best["scores"][primary], value[name])
            z, p = fisher_z_test(as_r(va), n, as_r(vb), n)
            tests.append({"a": a, "b": b, "published": best["name"], "measure": primary, "difference": va - vb,
                          "fisher_z": {"z": z, "p": p}, "williams": None, "bootstrap": None,
                          "significant": bool(_finite(p) and p < ALPHA)})
    return tests


def _finite(value) -> bool:
    return isinstance(value, float) and math.isfinite(value)


# --------------------------------------------------------------------------- compare: formats

def _rank_head(cmp: dict, col: str, previous: str) -> str:
    measure = col[:-5]
    return "Rank" if previous == measure else f"{cmp['labels'].get(measure, measure)} rank"


def compare_table(cmp: dict, mark: Callable = lambda name, ours: ("* " if ours else "") + name) -> tuple[list, list]:
    """Header and string rows of the ranked table in the paper's layout, plus the primary measure's 95% CI."""
    cols, digits = cmp["columns"], cmp["digits"]
    header = [("Run" if c == "name" else _rank_head(cmp, c, cols[i - 1]) if c.endswith("_rank")
               else cmp["labels"].get(c, c)) for i, c in enumerate(cols)] + [f"95% CI ({cmp['labels'][cmp['primary']]})"]

    def num(v):
        return "" if v is None or not math.isfinite(v) else f"{v:.{digits}f}".replace("0.", ".", 1)

    out = []
    for row in cmp["rows"]:
        cells = []
        for c in cols:
            if c == "name":
                cells.append(mark(row["name"] + (" " + row["marks"] if row["marks"] else ""), row["ours"]))
            elif c.endswith("_rank"):
                rank = row["ranks"].get(c[:-5])
                cells.append("-" if rank is None else str(rank))
            else:
                cells.append(num(row["scores"].get(c)))
        ci = row.get("ci95")
        cells.append("" if not ci or not math.isfinite(ci[0]) else f"[{num(ci[0])}, {num(ci[1])}]")
        out.append(cells)
    return header, out


def significance_table(cmp: dict) -> tuple[list, list]:
    def p(v, fmt=".4f"):
        return UNDEFINED if not _finite(v) else f"{v:{fmt}}"
    header = ["higher", "lower", "difference", "Fisher z p", "Williams p (ALL)", "bootstrap p", "bootstrap 95% CI", "p < .05"]
    rows = []
    for t in cmp["significance"]:
        boot, will = t["bootstrap"], t["williams"]
        name = [n + (" (published)" if n == t["published"] else "") for n in (t["a"], t["b"])]
        rows.append([*name, p(t["difference"], "+.4f"),
                     p(t["fisher_z"]["p"]), p(will["p"]) if will else "", p(boot["p"]) if boot else "",
                     f"[{p(boot['ci95'][0], '+.4f')}, {p(boot['ci95'][1], '+.4f')}]" if boot else "",
                     "yes" if t["significant"] else "no"])
    return header, rows


def _compare_title(cmp: dict) -> str:
    return f"{cmp['dataset']}: {cmp['title'].rstrip('.')}"


def _compare_render(cmp: dict, table: Callable, title: str, note: str, mark: Callable) -> str:
    lines = [title, ""] + table(*compare_table(cmp, mark)) + [""]
    lines += [note.format(n) for n in cmp["notes"]]
    if cmp["significance"]:
        lines += ["", f"Significance of {cmp['labels'][cmp['primary']]} (one-tailed, higher > lower; "
                      "Williams on the pooled pairs; significant when every test has p < .05):", ""]
        lines += table(*significance_table(cmp))
    lines += [""] + [note.format(f"signature {r['name']}: {r['signature']}") for r in cmp["rows"] if r["ours"]]
    return "\n".join(lines) + "\n"


def render_compare_text(cmp: dict) -> str:
    return _compare_render(cmp, _aligned, _compare_title(cmp), "note: {}", lambda n, o: ("* " if o else "") + n)


def render_compare_markdown(cmp: dict) -> str:
    return _compare_render(cmp, _markdown, f"**{_compare_title(cmp)}**", "{}  ",
                           lambda n, o: f"**{n}** (ours)" if o else n)


def render_compare_csv(cmp: dict) -> str:
    """The ranked table, one row per run, with an ``ours`` column and the CI as two numbers."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    cols = cmp["columns"]
    writer.writerow(["dataset", "ours", *cols, "ci95_lo", "ci95_hi", "marks"])
    for row in cmp["rows"]:
        cells = []
        for c in cols:
            v = row["name"] if c == "name" else row["ranks"].get(c[:-5]) if c.endswith("_rank") else row["scores"].get(c)
            cells.append("" if v is None else f"{v:.6f}" if isinstance(v, float) else v)
        ci = row.get("ci95") or ["", ""]
        writer.writerow([cmp["dataset"], int(row["ours"]), *cells,
                         *(f"{v:.6f}" if isinstance(v, float) and math.isfinite(v) else "" for v in ci), row["marks"]])
    return out.getvalue()


def _latex_escape(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\^{}"), ("†", r"$\dagger$"),
                 ("‡", r"$\ddagger$")):
        text = text.replace(a, b)
    return text


def render_compare_latex(cmp: dict) -> str:
    """A booktabs table: our runs in bold, the notes under it."""
    header, rows = compare_table(cmp, mark=lambda n, o: n)
    ours = [r["ours"] for r in cmp["rows"]]
    lines = [r"\begin{table}[t]", r"\centering\small", r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
             r"\toprule", " & ".join(_latex_escape(h) for h in header) + r" \\", r"\midrule"]
    for cells, bold in zip(rows, ours):
        cells = [_latex_escape(c) for c in cells]
        lines.append(" & ".join(rf"\textbf{{{c}}}" if bold and c else c for c in cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{_latex_escape(_compare_title(cmp))}. "
              + _latex_escape(" ".join(n.rstrip(".") + "." for n in cmp["notes"])) + "}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def render_compare_json(cmp: dict) -> str:
    """``{"dataset", "rows": [{"name", "ours", "scores", "ranks", "ci95", …}], "significance", …}``."""
    return json.dumps(_json_value(cmp), indent=2, ensure_ascii=False) + "\n"


COMPARE_RENDERERS = {"text": render_compare_text, "markdown": render_compare_markdown, "csv": render_compare_csv,
                     "latex": render_compare_latex, "json": render_compare_json}


# --------------------------------------------------------------------------- compare: HTML report

def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("the HTML report draws its plots with matplotlib, which is not installed: "
                           "pip install 'sts-suite[plots]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save_png(fig, path: Path) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, metadata={"Software": None})
    data = buf.getvalue()
    with corpora.atomic_open(path, "wb") as handle:
        handle.write(data)
    return data


def _plot_bars(plt, cmp: dict):
    primary, label = cmp["primary"], cmp["labels"][cmp["primary"]]
    shown = [r for r in cmp["rows"] if r["ours"] or r["role"] in ("baseline", "reference")
             or r["ranks"].get(primary) == 1]
    shown = [r for r in shown if r["scores"].get(primary) is not None][::-1]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(shown) + 1.4))
    values = [r["scores"][primary] for r in shown]
    errs = np.array([[v - r["ci95"][0], r["ci95"][1] - v] if r.get("ci95") and math.isfinite(r["ci95"][0]) else [0, 0]
                     for v, r in zip(values, shown)]).T
    ax.barh(range(len(shown)), values, xerr=errs, capsize=3,
            color=["tab:orange" if r["ours"] else "tab:blue" for r in shown])
    names = [("* " if r["ours"] else "") + r["name"] for r in shown]
    ax.set_yticks(range(len(shown)), [n if len(n) <= 42 else n[:40] + "…" for n in names], fontsize=8)
    ax.set_xlabel(f"{label} and its 95% interval; orange: ours, blue: published (best, baselines, references)", fontsize=9)
    ax.set_title(f"{cmp['dataset']}: {label}")
    fig.tight_layout()
    return fig


def _plot_scatter(plt, cmp: dict, gold, ids, outs):
    names, subsets = list(outs), cmp["subsets"]
    fig, axes = plt.subplots(len(names), len(subsets), figsize=(2.6 * len(subsets), 2.6 * len(names)), squeeze=False)
    for i, name in enumerate(names):
        for j, sub in enumerate(subsets):
            ax, keep = axes[i][j], ids == j
            ax.scatter(gold[keep], outs[name][keep], s=4, alpha=0.35, color="tab:blue")
            ax.set_title(f"{name}\n{sub}: r = {pearson(outs[name][keep], gold[keep]):.4f}", fontsize=8)
            ax.tick_params(labelsize=7)
            if i == len(names) - 1:
                ax.set_xlabel("gold", fontsize=8)
            if j == 0:
                ax.set_ylabel("system", fontsize=8)
    fig.tight_layout()
    return fig


def _plot_errors(plt, cmp: dict, gold, outs, top: float):
    bands = np.arange(0, int(math.ceil(top)))
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 0.8 / max(len(outs), 1)
    for k, (name, scores) in enumerate(outs.items()):
        band = np.minimum(np.floor(gold), bands[-1])
        data = [scores[band == b] - gold[band == b] for b in bands]
        pos = bands + 0.1 + width * (k + 0.5)
        parts = ax.boxplot([d if len(d) else [np.nan] for d in data], positions=pos, widths=width * 0.9,
                           patch_artist=True, showfliers=False, manage_ticks=False)
        for patch in parts["boxes"]:
            patch.set_facecolor(plt.cm.tab10(k % 10))
        ax.plot([], [], color=plt.cm.tab10(k % 10), linewidth=6, label=name)
    ax.axhline(0, color="grey", linewidth=0.8)
    counts = [int(np.sum(np.minimum(np.floor(gold), bands[-1]) == b)) for b in bands]
    ax.set_xticks(bands + 0.5, [f"{b}-{b + 1}\n(n={c})" for b, c in zip(bands, counts)])
    ax.set_xlabel("gold score band")
    ax.set_ylabel("system - gold")
    ax.set_title("Errors by gold score band")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def write_compare_report(cmp: dict, dataset: corpora.Dataset, runs: dict, out_dir) -> Path:
    """A self-contained ``index.html`` (plots inlined as PNG data) with the PNGs beside it."""
    import base64
    import html
    plt = _pyplot()
    out_dir = Path(out_dir)
    gold, ids, outs = _stacked_outputs(dataset, runs, cmp["subsets"])
    top = dataset.subsets[0].score_range[1]
    figures = [("bars.png", "Runs with their 95% intervals", _plot_bars(plt, cmp)),
               ("scatter.png", "Gold against system, per subset", _plot_scatter(plt, cmp, gold, ids, outs)),
               ("errors.png", "Error distribution by gold score band", _plot_errors(plt, cmp, gold, outs, top))]
    parts = []
    for file_name, caption, fig in figures:
        data = _save_png(fig, out_dir / file_name)
        plt.close(fig)
        parts.append(f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,'
                     f'{base64.b64encode(data).decode()}"><figcaption>{html.escape(caption)}</figcaption></figure>')

    def table(header, rows, ours=None):
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join(f'<tr{" class=ours" if ours and ours[i] else ""}>' + "".join(
            f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for i, row in enumerate(rows))
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    header, rows = compare_table(cmp)
    page = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{html.escape(_compare_title(cmp))}</title><style>",
            "body{font-family:sans-serif;margin:1.5em;color:#222} img{max-width:100%} figure{margin:1em 0}",
            "table{border-collapse:collapse;font-size:12px} td,th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right}",
            "td:first-child,th:first-child{text-align:left} tr.ours{background:#ffe8c2;font-weight:bold}",
            "</style></head><body>", f"<h1>{html.escape(_compare_title(cmp))}</h1>", *parts]
    if cmp["significance"]:
        page += ["<h2>Significance</h2>", table(*significance_table(cmp))]
    page += ["<h2>Ranked table</h2>", table(header, rows, [r["ours"] for r in cmp["rows"]]), "<ul>"]
    page += [f"<li>{html.escape(n)}</li>" for n in cmp["notes"]] + ["</ul></body></html>"]
    path = out_dir / "index.html"
    corpora.write_text_atomic(path, "\n".join(page) + "\n")
    return path


# --------------------------------------------------------------------------- compare: command line

def _run_spec(text: str) -> tuple[str, str]:
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=DIR, got {text!r}")
    return name, path


def compare_main(argv, prog: str = "evaluate.py compare") -> int:
    """``compare --dataset D --run NAME=DIR … [--published] [--format F] [--report DIR]``."""
    parser = argparse.ArgumentParser(prog=prog, description="Place runs among the task paper's published results, "
                                     "with 95% intervals and significance tests.")
    parser.add_argument("--dataset", required=True, help="named dataset, e.g. sts2012-test")
    parser.add_argument("--run", action="append", type=_run_spec, required=True, metavar="NAME=DIR",
                        help="a run directory of official output files, named (repeatable)")
    parser.add_argument("--published", action="store_true", help="include every row of the paper's table")
    parser.add_argument("--format", choices=list(COMPARE_RENDERERS), default="text")
    parser.add_argument("--report", metavar="DIR", help="also write DIR/index.html with plots (needs matplotlib)")
    parser.add_argument("--seed", type=argtypes.int_at_least(0), default=0, help="paired bootstrap seed (default 0)")
    parser.add_argument("--resamples", type=argtypes.int_at_least(1), default=1000,
                        help="paired bootstrap resamples (default 1000)")
    parser.add_argument("--data-dir", help="data root (default: $STS_DATA, else the per-user cache)")
    args = parser.parse_args(argv)
    runs = dict(args.run)
    if len(runs) != len(args.run):
        parser.error("each --run needs its own NAME")
    try:
        dataset = corpora.load(args.dataset, args.data_dir)
        cmp = compare_runs(dataset, runs, args.published, args.seed, args.resamples)
        if args.report:
            path = write_compare_report(cmp, dataset, runs, args.report)
    except InvalidRun as exc:
        _print_errors(exc.errors)
        print(f"error: a run cannot be scored; check a file with "
              f"`python evaluate.py --check FILE --dataset {args.dataset} --subset NAME`", file=sys.stderr)
        return 1
    except (corpora.FormatError, corpora.DatasetNotFound, RuntimeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(COMPARE_RENDERERS[args.format](cmp))
    if args.report:
        print(f"report: {path}", file=sys.stderr)
    return 0


SUBCOMMANDS["compare"] = compare_main


if __name__ == "__main__":
    sys.exit(main())
