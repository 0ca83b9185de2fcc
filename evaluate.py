"""The shared scorer: official STS/CLSS correlations, aggregates, statistics and validation.

``python evaluate.py GOLD SYS`` prints ``Pearson: 0.43340`` like the organizers' correlation.pl;
``python evaluate.py --dataset NAME --run DIR`` scores a whole run directory.
"""
from __future__ import annotations

import argparse
import math
import sys

import numpy as np

import corpora
from corpora import formats

__version__ = "1.0.0"

Z95 = 1.959963984540054


class UndefinedCorrelation(ValueError):
    """Pearson is undefined, e.g. for a constant output."""


def pearson(x, y, weights=None) -> float:
    """Pearson's r (weighted when ``weights`` is given); NaN when either side is constant."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) != len(y):
        raise ValueError(f"{len(x)} system scores but {len(y)} gold scores")
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float)
    if len(x) < 2:
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


def fisher_ci(r: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Fisher-z confidence interval of a Pearson r on n pairs."""
    if not math.isfinite(r) or n <= 3:
        return (math.nan, math.nan)
    from scipy.stats import norm
    z, se = math.atanh(min(max(r, -0.9999999999), 0.9999999999)), 1.0 / math.sqrt(n - 3)
    q = norm.ppf(0.5 + level / 2)
    return (math.tanh(z - q * se), math.tanh(z + q * se))


def score_subsets(parts) -> dict:
    """Aggregates over ``[(name, system, gold), …]``: ALL, ALLnorm, Mean (size-weighted) and plain mean.

    Unscored pairs (NaN gold) are dropped before anything is computed.
    """
    names, xs, ys, rs, ns, maps = [], [], [], [], [], []
    for name, system, gold in parts:
        system, gold = np.asarray(system, dtype=float), np.asarray(gold, dtype=float)
        keep = ~np.isnan(gold)
        x, y = system[keep], gold[keep]
        names.append(name)
        xs.append(x)
        ys.append(y)
        rs.append(pearson(x, y))
        ns.append(len(y))
        maps.append(least_squares_map(x, y))
    x_all, y_all = np.concatenate(xs), np.concatenate(ys)
    ns_arr, rs_arr = np.asarray(ns, dtype=float), np.asarray(rs)
    return {
        "subsets": {name: {"n": n, "pearson": r} for name, n, r in zip(names, ns, rs)},
        "all": pearson(x_all, y_all),
        "allnorm": pearson(np.concatenate(maps), y_all),
        "mean": float(np.sum(rs_arr * ns_arr) / ns_arr.sum()),
        "unweighted_mean": float(np.mean(rs_arr)),
    }


def _fmt(value: float) -> str:
    return "n/a (undefined: constant scores)" if not math.isfinite(value) else f"{value:.5f}"


def score_files(gold_path, sys_path, bounds=formats.STS_RANGE) -> float:
    """correlation.pl: Pearson of a system file against a gold file, unscored lines dropped."""
    gold = formats.read_gold(gold_path, bounds)
    scores, _ = formats.read_output(sys_path, len(gold), bounds)
    keep = ~np.isnan(gold)
    return pearson(scores[keep], gold[keep])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="evaluate.py", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="GOLD SYS: score one output file like correlation.pl")
    parser.add_argument("--range", default="0-5", help="score range of GOLD SYS files (default 0-5)")
    args = parser.parse_args(argv)
    if len(args.files) != 2:
        parser.error("give GOLD SYS")
    lo, hi = (float(v) for v in args.range.split("-"))
    try:
        r = score_files(args.files[0], args.files[1], (lo, hi))
    except (corpora.FormatError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Pearson: {_fmt(r)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
