"""WordLlama's static token vectors (``l2_supercat_256``): one 256-dimensional vector per token of the
Llama 2 tokenizer, trained by WordLlama's authors so that the mean of a text's token vectors serves for
sentence similarity.

They come inside the PyPI wheel ``wordllama`` (MIT; the vectors derive from Llama 2's token embeddings,
under Meta's Llama 2 licence; its authors' training evaluated on STS-B dev as it went). Nothing is fetched:
the wheel's own loader looks for its tokenizer in a folder the wheel does not have, then on the internet,
so we read the two files ourselves, without importing the package: the tokenizer with Hugging Face's
``tokenizers`` (a dependency of the wheel) and the safetensors table memory-mapped with numpy (every
worker process shares its pages). Only the wheel's pinned version is read (another is refused: an upgrade
could change the figures); the SHA-256s of its two files name the resource in model cards and caches.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import struct
from importlib import metadata
from pathlib import Path

import numpy as np

from semsts.core import extras
from semsts.core.errors import STSError

PACKAGE, VERSION = "wordllama", "0.4.0.post1"
VECTORS = "weights/l2_supercat_256.safetensors"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
SHA256 = {VECTORS: "64b47a2dc493cb8e85944076601189739852d7b64e0e1eedcb1937a251cd9fd5",
          TOKENIZER: "93248f2a9ec36c7b35f700a033d5f36228aae48db61aee31007fa49062cdeb68"}
SHAPE = (32000, 256)


def how_to_install() -> str:
    return (f"WordLlama vectors not found: they come with the 'reference' extra (the wheel wordllama=={VERSION}): "
            + extras.how_to_install("reference"))


class WordLlamaNotFound(FileNotFoundError, STSError):
    """The ``wordllama`` wheel (or ``tokenizers``, to read its tokenizer) is not installed."""


def folder() -> Path:
    """The installed package's folder, found without running its code."""
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):  # blocked, or half removed
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise WordLlamaNotFound(how_to_install())
    return Path(next(iter(spec.submodule_search_locations)))


@functools.lru_cache(maxsize=1)
def checked_files() -> dict:
    """The paths of the two files in the installed wheel, once its version is checked to be :data:`VERSION`."""
    root = folder()
    try:
        installed = metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        installed = "of no version"
    if installed != VERSION:
        raise WordLlamaNotFound(f"wordllama {installed} is installed; the suite reads the vectors of {VERSION}: "
                                + extras.how_to_install("reference"))
    found = {name: root / name for name in SHA256}
    for path in found.values():
        if not path.is_file():
            raise WordLlamaNotFound(f"{how_to_install()} ({path} is missing)")
    return found


def content_sha256() -> str:
    """One SHA-256 over the pinned SHA-256s of the vectors and the tokenizer (what a model card records)."""
    checked_files()
    return hashlib.sha256((SHA256[VECTORS] + SHA256[TOKENIZER]).encode()).hexdigest()


@functools.lru_cache(maxsize=1)
def table() -> np.ndarray:
    """The (32000, 256) float16 token table, memory-mapped from the safetensors file."""
    path = checked_files()[VECTORS]
    with open(path, "rb") as handle:
        (size,) = struct.unpack("<Q", handle.read(8))
        start, _ = json.loads(handle.read(size))["embedding.weight"]["data_offsets"]
    return np.memmap(path, dtype="<f2", mode="r", offset=8 + size + start, shape=SHAPE)


@functools.lru_cache(maxsize=1)
def tokenizer():
    """The Llama 2 tokenizer of the wheel, without special tokens, padding or truncation."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise WordLlamaNotFound(f"{how_to_install()} (the tokenizers library is missing)") from None
    found = Tokenizer.from_file(str(checked_files()[TOKENIZER]))
    found.no_truncation()
    found.no_padding()
    return found


def token_ids(text: str) -> list:
    """The token ids of ``text`` as WordLlama reads it (no special tokens)."""
    return tokenizer().encode(text, add_special_tokens=False).ids


@functools.lru_cache(maxsize=1 << 17)  # per word, bounded
def word_ids(word: str) -> tuple:
    """The token ids of one word, read as a word of a sentence (after a space)."""
    return tuple(token_ids(word))


class WordTable:
    """The vectors (and unit vectors) of the words looked up so far, one row each, so that a chunk's words are one
    fancy index rather than a stack of arrays; at most :data:`SEEN_LIMIT` words, then it starts again."""

    def __init__(self):
        self.slot: dict = {}
        self.vectors = np.zeros((1 << 10, SHAPE[1]))
        self.units = np.zeros((1 << 10, SHAPE[1]))

    def slots(self, words) -> np.ndarray:
        new = [w for w in dict.fromkeys(words) if w not in self.slot]
        if new and len(self.slot) + len(new) > SEEN_LIMIT:  # bounded: a user's data may hold any number of words
            self.slot.clear()
            new = list(dict.fromkeys(words))
        if len(self.slot) + len(new) > len(self.vectors):  # room doubled, as a list grows
            size = max(2 * len(self.vectors), len(self.slot) + len(new))
            for name in ("vectors", "units"):
                grown = np.zeros((size, SHAPE[1]))
                grown[:len(self.slot)] = getattr(self, name)[:len(self.slot)]
                setattr(self, name, grown)
        if new:
            self._add(new)
        return np.fromiter((self.slot[w] for w in words), dtype=np.int64, count=len(words))

    def _add(self, words: list) -> None:
        """Rows for ``words``: the mean of each word's token rows in float64 (zeros for a word of no token) and that
        scaled to unit length, a stack of the words of one token count at once (numpy reduces each word's rows in a
        stack as it reduces them alone)."""
        first = len(self.slot)
        self.slot.update((w, first + k) for k, w in enumerate(words))
        ids = [word_ids(w) for w in words]
        counts = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
        rows = table()
        for n in np.unique(counts).tolist():
            members = np.flatnonzero(counts == n)
            place = first + members
            if n == 0:
                self.vectors[place] = self.units[place] = 0.0
                continue
            vectors = np.asarray(rows[np.asarray([ids[m] for m in members.tolist()])], dtype=np.float64).mean(axis=1)
            norms = np.sqrt(np.multiply(vectors, vectors, dtype=np.float64).sum(axis=-1))
            self.vectors[place] = vectors
            self.units[place] = vectors / np.where(norms > 0, norms, 1.0)[:, None]


SEEN_LIMIT = 1 << 17  # words whose vectors are kept between lookups
_TABLE = WordTable()


def word_vectors(words, *, unit: bool = False) -> np.ndarray:
    """The words' vectors (the mean of each word's token rows), or their unit vectors if ``unit``, as the rows of a
    new array."""
    slots = _TABLE.slots(list(words))
    return (_TABLE.units if unit else _TABLE.vectors)[slots]
