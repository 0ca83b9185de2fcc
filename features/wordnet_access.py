"""What the features need from WordNet 3.0 (read through :mod:`corpora.wordnet`): base forms and
ancestor maps, each cached per word, so a word-pair similarity is one dict intersection.
"""
from __future__ import annotations

from functools import lru_cache

from corpora.wordnet import wordnet


@lru_cache(maxsize=None)
def morphy(word: str) -> str:
    """Base form: WordNet's exception lists first, then a verb reading, then a noun reading."""
    wn = wordnet()
    for pos in ("v", "n", "a"):
        bases = wn._exception_map[pos].get(word)
        if bases:
            return bases[0]
    for pos in ("v", "n"):
        forms = wn._morphy(word, pos, check_exceptions=False)
        if forms and word not in forms:
            return forms[0]
    return word


@lru_cache(maxsize=None)
def ancestors(lemma: str) -> dict:
    """Every synset of ``lemma`` (any part of speech) and their hypernyms, with the fewest edges
    from one of the lemma's senses; adjectives reach their similar-to satellites in one edge.
    """
    found: dict = {}
    frontier = [(s, 0) for s in wordnet().synsets(lemma)]
    while frontier:
        synset, depth = frontier.pop()
        key = synset.name()
        if found.get(key, depth + 1) <= depth:
            continue
        found[key] = depth
        nexts = synset.hypernyms() + synset.instance_hypernyms()
        if depth == 0 and synset.pos() in "as":
            nexts += synset.similar_tos()
        frontier.extend((s, depth + 1) for s in nexts)
    return found


_SIMILARITY: dict = {}


def word_similarity(a: str, b: str) -> float:
    """WordNet path similarity of two lemmas, maximized over their senses: ``1 / (1 + edges)``.

    1.0 for the same lemma or a shared synset, 0.0 when the words share no ancestor.
    """
    if a == b:
        return 1.0
    key = (a, b) if a < b else (b, a)
    value = _SIMILARITY.get(key)
    if value is None:
        da, db = ancestors(a), ancestors(b)
        if len(da) > len(db):
            da, db = db, da
        best = min((d + db[s] for s, d in da.items() if s in db), default=None)
        value = _SIMILARITY[key] = 0.0 if best is None else 1.0 / (1.0 + best)
    return value
