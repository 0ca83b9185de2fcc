"""Edit-distance similarities via rapidfuzz, on characters and on lemma sequences (DKPro's string family)."""
from __future__ import annotations

import numpy as np
from rapidfuzz import distance, fuzz, process

from .base import PairFeatures

PARTIAL_CHARS = 1000  # partial_ratio grows about cubically: it reads the first 1,000 characters of each side


def partial_ratio(a: str, b: str, **kwargs) -> float:
    return fuzz.partial_ratio(a[:PARTIAL_CHARS], b[:PARTIAL_CHARS], **kwargs)


CHAR_SCORERS = {
    "levenshtein": distance.Levenshtein.normalized_similarity,
    "indel": distance.Indel.normalized_similarity,
    "jaro_winkler": distance.JaroWinkler.normalized_similarity,
    "partial_ratio": partial_ratio,
    "token_sort": fuzz.token_sort_ratio,
    "token_set": fuzz.token_set_ratio,
}
WORD_SCORERS = {
    "word_levenshtein": distance.Levenshtein.normalized_similarity,
    "word_indel": distance.Indel.normalized_similarity,
}


def as_symbols(a, b) -> tuple[str, str]:
    """The two word sequences as strings of one code point per distinct word of the pair (edit distances only
    ask which words are equal), so rapidfuzz edits them as strings. The codes are the pair's own (from
    U+10000, room for 983,040 distinct words): nothing global grows with the data."""
    codes: dict = {}
    return tuple("".join(codes.setdefault(w, chr(0x10000 + len(codes))) for w in words) for words in (a, b))


class EditSimilarity(PairFeatures):
    """Normalized edit similarities in [0, 1] of the lower-cased texts and of the lemma sequences."""

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)

    def _names(self):
        return list(CHAR_SCORERS) + list(WORD_SCORERS)

    def transform(self, X):
        analyses = self.analyses(X)
        chars_a = [" ".join(a.words) for a, _ in analyses]
        chars_b = [" ".join(b.words) for _, b in analyses]
        symbols = [as_symbols(a.lemmas, b.lemmas) for a, b in analyses]
        words_a, words_b = [a for a, _ in symbols], [b for _, b in symbols]
        columns = []
        for name, scorer in CHAR_SCORERS.items():
            scale = 100.0 if name in ("partial_ratio", "token_sort", "token_set") else 1.0
            columns.append(_paired(chars_a, chars_b, scorer) / scale)
        for scorer in WORD_SCORERS.values():
            columns.append(_paired(words_a, words_b, scorer))
        return np.column_stack(columns) if X else np.zeros((0, len(self._names())))


def _paired(left, right, scorer) -> np.ndarray:
    if not left:
        return np.zeros(0)
    return np.asarray(process.cpdist(left, right, scorer=scorer, dtype=np.float64), dtype=float)
