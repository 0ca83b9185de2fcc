"""WordNet-augmented word overlap and aligned word similarity (TakeLab, Mihalcea et al. 2006).

Each content lemma of one text is matched to its most similar lemma of the other by WordNet
path similarity; the best matches are averaged, plain and weighted by information content.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from semsts.corpora.wordnet import ancestors, word_similarity

from .base import PairFeatures
from .similarity import ratio
from .weighted import information_content

# A pair's WordNet table that two families read in turn (WordNet overlap, then alignment)
# is shared through a memo of a chunk's pairs (1,024), for pairs of up to 32 x 32 lemmas: a few MB at most.
SHARED_PAIRS, SHARED_CELLS = 1 << 10, 1 << 10


def similarity_table(left, right) -> tuple[tuple[float, ...], ...]:
    """WordNet similarity of every lemma of ``left`` (rows) to every lemma of ``right`` (columns); a sentence
    pair's table is computed once for the families that read it (WordNet overlap, then alignment), a larger
    table (long texts) through the synsets the two sides share."""
    if len(left) * len(right) > SHARED_CELLS:
        return _table_by_synsets(left, right)
    return _shared_table(tuple(left), tuple(right))


def _table(left, right) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(word_similarity(w, v) for v in right) for w in left)


@lru_cache(maxsize=1 << 16)  # per lemma, bounded, as corpora.wordnet.ancestors
def _reach(lemma: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`semsts.corpora.wordnet.ancestors` of ``lemma`` as arrays: each synset as one number, its depth."""
    found = ancestors(lemma)
    numbers = np.fromiter((offset * 4 + "nvar".index(pos) for pos, offset in found), dtype=np.int64, count=len(found))
    return numbers, np.fromiter(found.values(), dtype=np.int64, count=len(found))


JOINED = 1 << 20  # (cell, synset) pairs of a large table joined at once: about 40 MB


def _table_by_synsets(left, right) -> tuple[tuple[float, ...], ...]:
    """:func:`_table`, the same floats, in a few numpy calls: each cell's fewest edges
    (:func:`semsts.corpora.wordnet.word_similarity`) is the least, over the synsets both lemmas reach, of the
    sum of their two depths; the (row, column, edges) of every shared synset are joined by synset at once."""
    if not left or not right:
        return _table(left, right)
    sides = []
    for lemmas in (right, left):
        reached = [_reach(lemma) for lemma in lemmas]
        synset = np.concatenate([r[0] for r in reached])
        order = np.argsort(synset, kind="stable")
        index = np.repeat(np.arange(len(lemmas)), [len(r[0]) for r in reached])
        sides.append((synset[order], index[order], np.concatenate([r[1] for r in reached])[order]))
    (syn_b, col_b, depth_b), (syn_a, row_a, depth_a) = sides
    lo, hi = np.searchsorted(syn_b, syn_a, "left"), np.searchsorted(syn_b, syn_a, "right")
    edges = np.full(len(left) * len(right), np.iinfo(np.int64).max, dtype=np.int64)
    ends = np.cumsum(hi - lo)
    done = 0
    while done < len(syn_a):  # entries of the left side whose joined cells number about JOINED at most, at once
        stop = max(done + 1, int(np.searchsorted(ends, (ends[done - 1] if done else 0) + JOINED, "right")))
        part = slice(done, stop)
        counts = (hi - lo)[part]
        starts = np.repeat(lo[part] - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        at_b = starts + np.arange(int(counts.sum()))  # each joined cell's entry of the right side
        cells = np.repeat(row_a[part], counts) * len(right) + col_b[at_b]
        np.minimum.at(edges, cells, np.repeat(depth_a[part], counts) + depth_b[at_b])
        done = stop
    edges = edges.reshape(len(left), len(right))
    shared = edges < np.iinfo(np.int64).max
    table = np.zeros(edges.shape)
    table[shared] = 1.0 / (1.0 + edges[shared])
    columns = {lemma: j for j, lemma in enumerate(right)}
    for i, lemma in enumerate(left):  # the same lemma is 1.0, found in WordNet or not
        if lemma in columns:
            table[i, columns[lemma]] = 1.0
    return tuple(map(tuple, table.tolist()))


@lru_cache(maxsize=SHARED_PAIRS)
def _shared_table(left: tuple, right: tuple) -> tuple[tuple[float, ...], ...]:
    return _table(left, right)


def best_matches(left, right) -> tuple[list[float], list[float]]:
    """Each lemma's best WordNet similarity to any lemma of the other side: ``left``'s, then ``right``'s."""
    table = similarity_table(left, right)
    return ([max(row, default=0.0) for row in table],
            [max(column) for column in zip(*table)] if left else [0.0] * len(right))


def harmonic(x: float, y: float) -> float:
    return ratio(2 * x * y, x + y)


class WordNetOverlap(PairFeatures):
    """Best-match similarity both ways and their harmonic mean, plain and IC-weighted, plus the
    share of lemmas with a synonym (similarity 1) on the other side.
    """

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)

    def _names(self):
        return ["augmented_ab", "augmented_ba", "augmented_harmonic",
                "ic_aligned_ab", "ic_aligned_ba", "ic_aligned_harmonic", "synonym_share"]

    def _row(self, a, b):
        la, lb = sorted(set(a.content)), sorted(set(b.content))
        if not la and not lb:
            return [1.0] * 7
        ma, mb = best_matches(la, lb)
        ab, ba = ratio(math.fsum(ma), len(la)), ratio(math.fsum(mb), len(lb))
        wa = [information_content(w) for w in la]
        wb = [information_content(w) for w in lb]
        iab = ratio(math.fsum(m * w for m, w in zip(ma, wa)), math.fsum(wa))
        iba = ratio(math.fsum(m * w for m, w in zip(mb, wb)), math.fsum(wb))
        synonyms = sum(m == 1.0 for m in ma) + sum(m == 1.0 for m in mb)
        return [ab, ba, harmonic(ab, ba), iab, iba, harmonic(iab, iba), ratio(synonyms, len(la) + len(lb))]
