"""``sts bench``'s 95% bootstrap intervals of every figure of our rows, and paired bootstrap tests between rows.

Pairs are resampled with replacement within each subset (:func:`~semsts.scoring.significance.resample_indices`:
stratified, so pooled and per-subset figures keep their composition; MTEB's SICK-R pool resamples SICK's train
and trial sets too), with the same indices for every row, so that two rows' differences are paired. Each
figure is recomputed on every resample by the aggregate that makes it (:func:`~semsts.scoring.aggregates.of_resamples`),
Spearman from ranks counted within the resample; an interval is the percentile interval of the resampled
figures, a test's p the two-sided bootstrap p of the resampled differences
(:func:`~semsts.scoring.significance.bootstrap_p`).
"""
from __future__ import annotations

import dataclasses
from collections import deque
from itertools import combinations

import numpy as np

from semsts.core.background import thread_pool
from semsts.core.errors import InvalidValue
from semsts.core.stats import pearson_rows

from . import aggregates, intervals
from . import conventions as cv
from .bench import SIMCSE_DATASETS, BenchRow, figure_values
from .correlations import dense_codes, rank_rows
from .significance import bootstrap_p, percentile_ci, resample_indices

METHOD = ("paired bootstrap over pairs, resampled within each subset, the same resamples for every row; "
          "percentile 95% intervals; two-sided p = twice the smaller share of resampled differences on either "
          "side of 0 (at most 1)")
CHUNK_PAIRS = 1_000_000  # resampled pairs held at once (resamples x pairs): memory, not results


@dataclasses.dataclass(frozen=True)
class Bootstrap:
    """How the intervals and tests were made, and the tests: one dict per pair of rows and figure."""

    seed: int
    resamples: int
    tests: tuple = ()
    method: str = METHOD


def _stratum(dataset: str, part: str) -> str:
    return part if "/" in part else f"{dataset}/{part}"


def strata(rows) -> dict:
    """Every subset the rows' figures stand on, ``dataset/subset`` -> its scored gold, in the rows' order.

    Rows on the same subset must hold the same scored pairs (else they are not paired): a ValueError says so."""
    out: dict = {}
    for row in rows:
        for d, f in row.figures.items():
            for name, (gold, _) in [*f.parts.items(), *(f.mteb_parts or {}).items()]:
                key = _stratum(d, name)
                if key not in out:
                    out[key] = gold
                elif not np.array_equal(out[key], gold):
                    raise InvalidValue(f"{row.system}: the scored pairs of {key} differ from another row's: "
                                       "its figures cannot be resampled with theirs")
    return out


def _coded(dataset: str, parts: dict) -> dict:
    """Dense codes of gold and prediction over all ``parts`` together, per part (for pooled and per-part Spearman)."""
    names = list(parts)
    gold = dense_codes(np.concatenate([parts[n][0] for n in names]))
    pred = dense_codes(np.concatenate([parts[n][1] for n in names]))
    out, start = {}, 0
    for n in names:
        stop = start + len(parts[n][0])
        out[_stratum(dataset, n)] = (pred[start:stop], gold[start:stop])
        start = stop
    return out


def _spearman(gold_ranks: dict, key):
    """Row-wise Spearman of dense codes whose gold side's ranks are kept in ``gold_ranks[key]`` for the next row."""
    def correlation(pred_codes, gold_codes):
        if key not in gold_ranks:
            gold_ranks[key] = rank_rows(gold_codes)
        return pearson_rows(rank_rows(pred_codes), gold_ranks[key])
    return correlation


def _drawn(arrays: dict, idx: dict, names) -> list:
    """``(prediction, gold)`` of each named part drawn into the resamples ``idx``."""
    return [(p[idx[n]], g[idx[n]]) for n, (p, g) in ((n, arrays[n]) for n in names)]


class _RowResampler:
    """One row's figures on a chunk of resamples, each a ``(resamples,)`` array by :func:`figure_values`' keys."""

    def __init__(self, row: BenchRow):
        self.row = row
        self.raw, self.codes, self.pool_codes = {}, {}, {}
        for d, f in row.figures.items():
            self.raw[d] = {_stratum(d, n): (p, g) for n, (g, p) in f.parts.items()}
            self.codes[d] = _coded(d, f.parts)
            if f.mteb_parts is not None and f.mteb_parts is not f.parts:
                self.pool_codes[d] = _coded(d, f.mteb_parts)

    def figures(self, idx: dict, gold_ranks: dict) -> dict:
        """The figures on the resamples ``idx`` (stratum -> indices); ``gold_ranks`` memoizes the gold's ranks,
        the same for every row, over one chunk."""
        out = {}
        for d, f in self.row.figures.items():
            names = list(self.raw[d])
            raw, coded = _drawn(self.raw[d], idx, names), _drawn(self.codes[d], idx, names)
            sizes = [len(f.parts[n][0]) for n in f.parts]
            pearsons = [pearson_rows(p, g) for p, g in raw]
            spearmans = [_spearman(gold_ranks, (d, n))(p, g) for n, (p, g) in zip(names, coded)]
            if not cv.mteb_only(d):  # BIOSSES and STS22: the MTEB convention alone scores them
                for label, rule in cv.official_figures(d):
                    out[("official", d, label)] = aggregates.of_resamples(rule, raw, pearson_rows) \
                        if rule in ("pooled", "normalized") else aggregates.of_figure_rows(rule, pearsons, sizes)
                if not cv.official_only(d):  # the 2017 tracks beyond track 5: the official convention alone
                    for corr, values in (("pearson", pearsons), ("spearman", spearmans)):
                        for key, rule in cv.SENTEVAL_AGGREGATES:
                            out[("senteval", d, corr, key)] = aggregates.of_figure_rows(rule, values, sizes)
                    out[("simcse", d)] = _pooled_spearman(coded, d, gold_ranks)
            if f.mteb is not None and cv.mteb_by_subset(d):  # a multilingual task: the mean of its subsets' figures
                source = self.pool_codes.get(d) or self.codes[d]
                strata_, names = list(source), list(f.mteb_parts if d in self.pool_codes else f.parts)
                each = [_spearman(gold_ranks, (d, "mteb-subset", k))(p, g)
                        for k, (p, g) in zip(strata_, _drawn(source, idx, strata_))]
                out[("mteb", d)] = 100 * aggregates.of_figure_rows("mean", each, [1] * len(each))
                out.update({("mteb", d, name): 100 * v for name, v in zip(names, each)})
            elif f.mteb is not None:
                pool = self.pool_codes.get(d)
                if pool is not None:  # SICK-R: all of SICK
                    out[("mteb", d)] = 100 * aggregates.of_resamples(
                        "pooled", _drawn(pool, idx, list(pool)), _spearman(gold_ranks, (d, "mteb-pool")))
                else:  # the task's test split pooled: SimCSE's figure where that convention scores it
                    out[("mteb", d)] = out[("simcse", d)] if ("simcse", d) in out else _pooled_spearman(coded, d, gold_ranks)
        count = len(next(iter(out.values())))
        if self.row.simcse_average is not None:
            out[("simcse", "Avg.")] = np.array([cv.simcse_average([out[("simcse", d)][i] for d in SIMCSE_DATASETS])
                                                for i in range(count)])
        tasks = self.row.mteb_tasks
        if tasks:
            out[("mteb", "mean")] = np.array([aggregates.mean([out[("mteb", d)][i] for d in tasks]) for i in range(count)])
        return out


def _pooled_spearman(coded, dataset: str, gold_ranks: dict):
    """Spearman x 100 of the year's subsets pooled, per resample (SimCSE's figure; MTEB's for a task's test split)."""
    return 100 * aggregates.of_resamples("pooled", coded, _spearman(gold_ranks, (dataset, "pooled")))


def resampled_figures(rows, *, resamples: int, seed: int, threads: int = 1) -> list[dict]:
    """Every figure of every row on each of ``resamples`` stratified resamples (the same for every row):
    per row, figure key -> ``(resamples,)`` array. Chunks of resamples go to ``threads`` threads (numpy lets
    go of the GIL), at most two per thread in memory; the figures do not depend on how many."""
    pairs = strata(rows)
    names = list(pairs)
    chunk = max(1, CHUNK_PAIRS // max(1, sum(len(g) for g in pairs.values())))
    resamplers = [_RowResampler(r) for r in rows]

    def chunk_figures(indices) -> list:
        idx, gold_ranks = dict(zip(names, indices)), {}
        return [resampler.figures(idx, gold_ranks) for resampler in resamplers]

    drawn: list = [{} for _ in rows]

    def keep(per_row) -> None:
        for out, figures in zip(drawn, per_row):
            for key, values in figures.items():
                out.setdefault(key, []).append(values)
    with thread_pool(max(1, threads)) as pool:
        waiting: deque = deque()
        for indices in resample_indices([len(pairs[n]) for n in names], resamples, seed, chunk=chunk):
            waiting.append(pool.submit(chunk_figures, indices))
            if len(waiting) >= 2 * max(1, threads):
                keep(waiting.popleft().result())
        while waiting:
            keep(waiting.popleft().result())
    return [{key: np.concatenate(chunks) for key, chunks in out.items()} for out in drawn]


def closed_form(row: BenchRow) -> dict:
    """The intervals of the row's Pearson figures that have a closed form (the official figures but ALLnorm, SentEval's
    Pearson mean and wmean), by :mod:`semsts.scoring.intervals`, as ``sts eval`` and ``sts compare`` give them; the
    other figures keep their bootstrap interval."""
    out = {}
    for d, f in row.figures.items():
        if cv.mteb_only(d):
            continue
        scores = cv.subset_scores(f.parts)
        n = sum(s.n for s in scores)
        figures = [(("official", d, label), rule, f.official.get(label)) for label, rule in cv.official_figures(d)]
        if f.senteval is not None:
            figures += [(("senteval", d, "pearson", key), rule, f.senteval["pearson"][key])
                        for key, rule in cv.SENTEVAL_AGGREGATES]
        for key, rule, value in figures:
            interval = intervals.figure_interval(rule, value, scores, n)
            if interval is not None:
                out[key] = interval
    return out


def bootstrap_rows(rows, *, resamples: int = 1000, seed: int = 0, threads: int = 1) -> tuple[tuple, Bootstrap]:
    """``rows`` with their 95% intervals (``BenchRow.ci``) and the paired tests between each two of them
    (resampled in ``threads`` threads: the same figures whatever their number)."""
    rows = tuple(rows)
    if not resamples or not rows:
        return rows, None
    drawn = resampled_figures(rows, resamples=resamples, seed=seed, threads=threads)
    with_ci = tuple(dataclasses.replace(r, ci={**{k: percentile_ci(v) for k, v in d.items()}, **closed_form(r)})
                    for r, d in zip(rows, drawn))
    values = [figure_values(r) for r in rows]
    tests = []
    for i, j in combinations(range(len(rows)), 2):
        for key in values[i]:
            if key not in values[j] or (key == ("mteb", "mean") and rows[i].mteb_tasks != rows[j].mteb_tasks):
                continue
            diffs = drawn[i][key] - drawn[j][key]
            tests.append({"a": rows[i].system, "b": rows[j].system, "figure": list(key),
                          "difference": values[i][key] - values[j][key], "ci95": list(percentile_ci(diffs)),
                          "p": bootstrap_p(diffs, two_sided=True)})
    return with_ci, Bootstrap(seed, resamples, tuple(tests))
