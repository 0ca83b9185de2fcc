"""word2sense for the string baselines: the target sense's gloss against each gloss of the word's senses.

As SemEval-2014 Task 3 defines its baselines: keep the best match over the word's senses; a word
with no sense in WordNet 3.0 gets the mean of the in-vocabulary scores and confidence 0. The
word's senses are those whose WordNet lemma is the word exactly (case-sensitive, no morphological
normalization) and glosses are whole, definition with examples: this reproduces the official
LCS baseline (.109).
"""
from __future__ import annotations

import re

import numpy as np

from corpora import wordnet

from .base import PairError

WORD = re.compile(r"^(?P<lemma>[^#\s]+)#(?P<pos>[nvar])$")
SENSE_KEY = re.compile(r"^[^%\s]+%[1-5]:\d\d:\d\d:[^:\s]*:[^:\s]*$")


def is_word2sense(pairs) -> bool:
    """True when every pair is ``(lemma#pos, WordNet sense key)``, the CLSS word2sense input."""
    return bool(pairs) and all(WORD.match(w) and SENSE_KEY.match(k) for w, k in pairs)


def word_senses(word: str) -> list:
    """The synsets of ``lemma#pos`` whose lemma is exactly ``lemma``; empty for a word not in WordNet."""
    match = WORD.match(word)
    lemma, pos = match["lemma"], match["pos"]
    return [entry.synset() for entry in wordnet.wordnet().lemmas(lemma, pos) if entry.name() == lemma]


def target_sense(index: int, sense_key: str):
    try:
        return wordnet.sense_from_key(sense_key).synset()
    except ValueError as exc:  # corpora.FormatError without a file: the runner adds file and line
        raise PairError(index, f"sense key {sense_key!r} does not resolve in WordNet {wordnet.version()}") from exc


def in_vocabulary(pairs) -> np.ndarray:
    """Whether each pair's word has a sense in WordNet."""
    return np.fromiter((bool(word_senses(w)) for w, _ in pairs), dtype=bool, count=len(pairs))


def word2sense_scores(pairs, similarity_many) -> np.ndarray:
    """Best ``similarity_many`` of (word sense gloss, target gloss) per pair; OOV words get the in-vocabulary mean."""
    glosses, owner = [], []
    for index, (word, key) in enumerate(pairs):
        target = wordnet.gloss(target_sense(index, key))
        for synset in word_senses(word):
            glosses.append((wordnet.gloss(synset), target))
            owner.append(index)
    scores = np.full(len(pairs), -np.inf)
    if glosses:
        np.maximum.at(scores, np.asarray(owner), similarity_many(glosses))
    known = np.isfinite(scores)
    scores[~known] = scores[known].mean() if known.any() else 0.0
    return scores


def word2sense_confidence(pairs) -> np.ndarray:
    """100 for a word in WordNet, 0 for one that is not (its score is only the mean)."""
    return np.where(in_vocabulary(pairs), 100.0, 0.0)
