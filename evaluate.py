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
from corpora import formats

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
    errors = []
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


def _cmd_typed_files(args) -> int:
    gold_path, sys_path = args.files
    bounds = args.range or formats.STS_RANGE
    gold = corpora.read_typed_gold(gold_path, bounds)
    errors = list(corpora.check_typed_output(sys_path, len(gold), bounds))
    if errors:
        _print_errors(errors)
        return 1
    print("\n".join(typed_lines(score_typed(corpora.read_typed_output(sys_path, len(gold), bounds), gold))))
    return 0


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


def _print_errors(errors) -> None:
    for exc in errors:
        print(exc, file=sys.stderr)


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
    gold_path, sys_path = args.files
    if corpora.typed.is_typed_file(gold_path):
        return _cmd_typed_files(args)
    bounds = args.range or formats.STS_RANGE
    gold = formats.read_gold(gold_path, bounds)
    errors = list(formats.check_output(sys_path, len(gold), bounds))
    if errors:
        _print_errors(errors)
        return 1
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


if __name__ == "__main__":
    sys.exit(main())
