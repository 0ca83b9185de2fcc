"""word2sense for the string baselines: the target sense's gloss against each gloss of the word's senses.

As SemEval-2014 Task 3 defines its baselines: keep the best match over the word's senses; a word
with no sense in WordNet 3.0 gets confidence 0 and one fixed score. Glosses are whole, definition
with examples. Two details differ between the task's two baselines, as measured on clss2014-test
(README): LCS takes the senses whose lemma is the word, whatever its case (``barcelona#n`` finds
``Barcelona``), and gives unknown words 0.09 (.108); GST looks the word up with WordNet's
morphological processing and gives unknown words 0 (.185).
"""
from __future__ import annotations

import re

import numpy as np

from semsts.corpora import wordnet

from .base import PairError

WORD = re.compile(r"^(?P<lemma>[^#\s]+)#(?P<pos>[nvar])$")
SENSE_KEY = re.compile(r"^[^%\s]+%[1-5]:\d\d:\d\d:[^:\s]*:[^:\s]*$")


def is_word2sense(pairs) -> bool:
    """True when every pair's first item is ``lemma#pos``, the CLSS word2sense input.

    The word side decides, so that one malformed sense key is an error naming its line rather
    than turning the whole level into text pairs.
    """
    return bool(pairs) and all(WORD.match(w) for w, _ in pairs)


def word_senses(word: str, morphological: bool = False) -> list:
    """The synsets of ``lemma#pos``: with the lemma ``lemma`` in any case, or as WordNet's morphy finds them."""
    match = WORD.match(word)
    lemma, pos = match["lemma"], match["pos"]
    if morphological:
        return wordnet.wordnet().synsets(lemma, pos)
    return [entry.synset() for entry in wordnet.wordnet().lemmas(lemma, pos) if entry.name().lower() == lemma.lower()]


def target_sense(index: int, sense_key: str):
    if not SENSE_KEY.match(sense_key):
        raise PairError(index, f"expected a WordNet sense key (lemma%ss_type:lex_filenum:lex_id:head_word:head_id, "
                               f"e.g. cat%1:05:00::), got {sense_key[:80]!r}")
    try:
        return wordnet.sense_from_key(sense_key).synset()
    except ValueError as exc:  # corpora.FormatError without a file: the runner adds file and line
        raise PairError(index, f"sense key {sense_key!r} does not resolve in WordNet {wordnet.version()}") from exc


def word2sense_scores(pairs, similarity_many, morphological: bool = False, unknown: float = 0.0) -> np.ndarray:
    """Best ``similarity_many`` of (word sense gloss, target gloss) per pair; ``unknown`` for a word without senses."""
    glosses, owner = [], []
    for index, (word, key) in enumerate(pairs):
        target = wordnet.gloss(target_sense(index, key))
        for synset in word_senses(word, morphological):
            glosses.append((wordnet.gloss(synset), target))
            owner.append(index)
    scores = np.full(len(pairs), -np.inf)
    if glosses:
        np.maximum.at(scores, np.asarray(owner), similarity_many(glosses))
    scores[~np.isfinite(scores)] = unknown
    return scores


def word2sense_confidence(pairs, morphological: bool = False) -> np.ndarray:
    """100 for a word in WordNet, 0 for one that is not (its score is only a stand-in)."""
    return np.array([100.0 if word_senses(w, morphological) else 0.0 for w, _ in pairs])
