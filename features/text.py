"""Tokens, lemmas and content words of a text, computed once per distinct text and cached.

A regex tokenizer and WordNet's morphy stand in for NLTK's punkt and tagger, so nothing is
downloaded beyond WordNet 3.0 itself.
"""
from __future__ import annotations

import re
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

TOKEN = re.compile(r"\w+(?:[.,'’\-]\w+)*|[^\w\s]", re.UNICODE)
NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)*$")

STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most
my myself no nor not of off on once only or other our ours ourselves out over own same she should so
some such than that the their theirs them themselves then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you your
yours yourself yourselves 's 'll 're 've 'd n't also may might must shall upon us one
""".split())

NEGATIONS = frozenset("no not never none nobody nothing neither nor nowhere cannot without n't".split())

MAX_CHARS = 5_000  # the families whose work grows faster than the text read the first 5,000 characters of a side
# FILE:LINE where a pair's row starts (None: not known), for a note about one pair; the runner sets it while a system
# fits or predicts on the pairs of files (semsts.baselines.run.at_lines)
PAIR_PLACE: ContextVar = ContextVar("pair_place", default=lambda pair: None)


@dataclass(frozen=True)
class Analysis:
    """What every family reads from one text."""

    text: str
    tokens: tuple  # surface tokens, case kept, punctuation included
    words: tuple  # lower-cased word tokens (no punctuation)
    lemmas: tuple  # WordNet base forms of ``words``
    content: tuple  # lemmas that are not stopwords, punctuation or numbers
    numbers: frozenset  # numeric tokens, normalized (commas dropped)
    capitalized: frozenset  # lower-cased tokens written with a capital not at sentence start
    negations: int  # how many negation words


def is_word(token: str) -> bool:
    return token[0].isalnum() or token[0] == "_"


@lru_cache(maxsize=1 << 17)  # per word, bounded
def lemma(word: str) -> str:
    """The WordNet base form of a lower-cased word (verb reading first), the word itself if none."""
    if word in STOPWORDS or not word.isalpha():
        return word
    from semsts.corpora.wordnet import morphy
    return morphy(word)


def head(text: str) -> str:
    """The part of a side that the superlinear families read: its first :data:`MAX_CHARS` characters
    (longer than any sentence, or paragraph, of the task data by far), so a pair's features take bounded time."""
    return text[:MAX_CHARS]


def cut_pairs(pairs) -> list[int]:
    """Indices of the pairs with a side longer than :data:`MAX_CHARS` (the superlinear families read its head)."""
    return [i for i, (a, b) in enumerate(pairs) if len(a) > MAX_CHARS or len(b) > MAX_CHARS]


ANALYSED_TEXTS = 1 << 14  # analyses kept: a chunk's texts (1,000) are read many times over, once by every family
ANALYSED_CHARS = 1 << 20  # and the characters of their texts: four chunks of long texts (CHUNK_CHARS each)


class Analyses:
    """The analyses of the texts read last: at most :data:`ANALYSED_TEXTS` texts of :data:`ANALYSED_CHARS`
    characters in all, then it starts again, so that its memory does not grow with the pairs (an analysis holds about
    20 bytes a character of its text; 16,384 texts of 5,000 characters would have held 1.6 GB)."""

    def __init__(self):
        self.texts: dict = {}
        self.chars = 0

    def __call__(self, text: str) -> Analysis:
        found = self.texts.get(text)
        if found is None:
            if len(self.texts) >= ANALYSED_TEXTS or self.chars + len(text) > ANALYSED_CHARS:
                self.texts.clear()
                self.chars = 0
            found = self.texts[text] = analysis(text)
            self.chars += len(text)
        return found


_ANALYSES = Analyses()


def analyse(text: str) -> Analysis:
    """Tokenize, lemmatize and classify the tokens of ``text`` (:func:`analysis`), kept per distinct text
    (:class:`Analyses`)."""
    return _ANALYSES(text)


def analysis(text: str) -> Analysis:
    """Tokenize, lemmatize and classify the tokens of ``text`` (uncached: :func:`analyse` keeps them)."""
    tokens = tuple(TOKEN.findall(text))
    words = tuple(t.lower() for t in tokens if is_word(t))
    lemmas = tuple(lemma(w) for w in words)
    numbers = frozenset(t.replace(",", "") for t in tokens if NUMBER.match(t))
    content = tuple(m for m in lemmas if m not in STOPWORDS and not NUMBER.match(m) and len(m) > 1)
    capitalized = frozenset(t.lower() for i, t in enumerate(tokens)
                            if i > 0 and t[0].isupper() and t.lower() not in STOPWORDS)
    negations = sum(1 for w in words if w in NEGATIONS or w.endswith("n't"))
    return Analysis(text, tokens, words, lemmas, content, numbers, capitalized, negations)
