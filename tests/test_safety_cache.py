"""Issue 43, caches by contract: a user's encoder that declares no version is computed afresh each run, so a change
no key sees (a module behind a re-export, an environment variable) gives fresh, right figures; a cache that cannot be
written is one note; a lone surrogate is hashed like any text; a user's encoder failing as it fits is one error."""
from __future__ import annotations

import contextlib
import errno
import importlib
import os
import sys
import warnings

import pytest

from conftest import write
from semsts import cli
from semsts.baselines.encoder import cosine_scores
from semsts.corpora import derived_cache
from semsts.features.encoders import embed

SPEC = "encpkg:encode"
IMPL = '''
import os
import numpy as np

calls = []


def encode(texts):
    """Characters hashed into 8 dimensions; with $ENC_CHANGED, the texts holding "odd" are encoded otherwise."""
    calls.append(len(texts))
    out = np.zeros((len(texts), 8))
    for i, t in enumerate(texts):
        for j, c in enumerate(t):
            out[i, (ord(c) * {mult} + j) % 8] += 1 + (j % 3)
        if "odd" in t and os.environ.get("ENC_CHANGED"):
            out[i, 0] += 5
    return out
'''


@pytest.fixture()
def encpkg(tmp_path, monkeypatch):
    """``encpkg:encode``, re-exported by the package from ``encpkg/impl.py``; returns a function that rewrites impl."""
    folder = tmp_path / "encoders"
    write(folder / "encpkg" / "__init__.py", "from .impl import encode\n")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # an edit within the second is seen, not a stale .pyc
    monkeypatch.delenv("ENC_CHANGED", raising=False)
    monkeypatch.setattr(derived_cache, "_UNWRITABLE", set())

    def impl(mult: int):
        write(folder / "encpkg" / "impl.py", IMPL.replace("{mult}", str(mult)))
    impl(1)
    yield impl
    for name in ("encpkg", "encpkg.impl"):
        sys.modules.pop(name, None)


def _test_file(tmp_path):
    """366 pairs (732 texts), two of whose texts hold "odd"."""
    lines = ["sentence1\tsentence2\tscore"]
    for i in range(366):
        lines.append(f"a text {i}{' odd' if i == 100 else ''} .\tanother text {i}{' odd' if i == 200 else ''} ."
                     f"\t{i % 6}.0")
    path = tmp_path / "test.tsv"
    if not path.exists():
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(tmp_path, capsys, *extra, name="out"):
    """``sts run --encoder encpkg:encode``, the encoder imported afresh as a new process would: its exit code,
    stderr lines, output file's bytes and the texts it encoded."""
    for module in ("encpkg", "encpkg.impl"):
        sys.modules.pop(module, None)
    importlib.invalidate_caches()
    out = tmp_path / name
    with warnings.catch_warnings():
        warnings.simplefilter("always")  # each run is a new process: its notes are said again
        code = cli.main(["run", "--encoder", SPEC, "--test", str(_test_file(tmp_path)), "--out", str(out), *extra])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    outputs = sorted(out.glob("STS.output.*"))
    return code, err.splitlines(), outputs[0].read_bytes() if outputs else None, sum(sys.modules["encpkg.impl"].calls)


def notes(err):
    """The notes of a problem (not the count of texts encoded and kept, or read from the cache)."""
    counts = ("texts encoded and kept in the embedding cache", "texts from the embedding cache")
    return [line for line in err if line.startswith("note: ") and not any(c in line for c in counts)]


# --- The two stale cases of issue 43: 2 of 732 texts changed where no key sees it. The encoder declares no version,
# so it is not cached: each run encodes every text and gives the figures of the encoder as it is now.


@pytest.mark.parametrize("change", ["module behind the re-export edited", "environment variable set"])
def test_an_undeclared_encoder_is_computed_afresh_so_a_change_no_key_sees_gives_right_figures(
        encpkg, tmp_path, capsys, monkeypatch, _embedding_cache, change):
    code, first_err, before, encoded = run(tmp_path, capsys, name="first")
    assert code == 0 and encoded == 732
    if change.startswith("module"):
        encpkg(1)  # the same module, now changing the texts holding "odd" without the variable
        write(tmp_path / "encoders" / "encpkg" / "impl.py",
              (tmp_path / "encoders" / "encpkg" / "impl.py").read_text().replace('os.environ.get("ENC_CHANGED")',
                                                                                  "True"))
    else:
        monkeypatch.setenv("ENC_CHANGED", "1")
    code, err, again, encoded = run(tmp_path, capsys, name="again")
    code, _, fresh, _ = run(tmp_path, capsys, "--no-cache", name="fresh")
    assert code == 0 and again == fresh != before
    assert sum(a != b for a, b in zip(before.splitlines(), again.splitlines())) == 2  # the two pairs of the "odd" texts
    assert encoded == 732 and not _embedding_cache.exists()
    assert notes(first_err) == [f"note: encoder {SPEC} declares no cache_version: its embeddings are computed afresh, "
                                "not cached (give it a cache_version attribute, or pass --cache-version V, to cache "
                                "them)"]


# --- A cache that cannot be written is one note; the run goes on with the right figures.


def _unwritable(folder, monkeypatch, kind) -> None:
    if kind == "a file":
        folder.write_text("mine\n")
    elif kind == "a full disk":
        folder.mkdir()
        original = derived_cache.atomic_open

        @contextlib.contextmanager
        def full(path, *args, **kwargs):
            with original(path, *args, **kwargs) as handle:
                yield handle
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(derived_cache, "atomic_open", full)
    else:  # read-only: a folder without write permission, which root may still write: then a read-only file system
        folder.mkdir()
        folder.chmod(0o555)
        if os.geteuid() == 0:
            def read_only(path, *args, **kwargs):
                raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
            monkeypatch.setattr(derived_cache, "atomic_open", read_only)


@pytest.mark.parametrize("kind", ["a file", "a full disk", "read-only"])
def test_a_cache_that_cannot_be_written_is_one_note(encpkg, tmp_path, capsys, monkeypatch, _embedding_cache, kind):
    code, _, expected, _ = run(tmp_path, capsys, "--no-cache", name="expected")
    assert code == 0
    _unwritable(_embedding_cache, monkeypatch, kind)
    before = sorted(p.name for p in tmp_path.iterdir())
    for attempt in ("first", "second"):
        code, err, out, _ = run(tmp_path, capsys, "--cache-version", "1", name=attempt)
        assert code == 0 and out == expected
        assert [line for line in err if line.startswith(("note:", "error:"))] == (
            [line for line in err if "could not be written" in line and str(_embedding_cache) in line]), err
        assert len(notes(err)) == (1 if attempt == "first" else 0)  # one note a run (here: a process)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*before, "first", "second"])
    if kind == "a file":
        assert _embedding_cache.read_text() == "mine\n"
    if kind == "a full disk":
        assert list(_embedding_cache.iterdir()) == []  # no temporary file left


def test_many_entries_that_cannot_be_written_are_one_note(tmp_path, monkeypatch, toy_encoder, _embedding_cache):
    monkeypatch.setattr(derived_cache, "_UNWRITABLE", set())
    _embedding_cache.write_text("mine\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for pairs in ([("a b", "c d")], [("e f", "g h")], [("i j", "k l")]):
            cosine_scores(toy_encoder.encode, pairs, cache_spec="toy_encoder:encode", cache_version="1")
    assert [str(w.message) for w in caught] == [
        f"the cache {_embedding_cache} could not be written (it is not a folder); going on without it"]


# --- A lone surrogate (JSON's "\ud800") handed through the Python API is a text like any other, cached or not (a
# dataset file holding one is refused where it is read: tests/test_jsonl.py).


def test_a_lone_surrogate_is_cached_like_any_text(toy_encoder, _embedding_cache):
    pairs = [("a cat \ud800 sat", "the cat sat"), ("a dog ran", "the sun \udfff set"), ("a bird flew", "a bird flew")]
    cached = [cosine_scores(toy_encoder.encode, pairs, cache_spec="toy_encoder:encode", cache_version="1").tolist()
              for _ in range(2)]
    assert cached[0] == cached[1] == cosine_scores(toy_encoder.encode, pairs).tolist() and len(cached[0]) == 3
    assert len(list(_embedding_cache.glob("*.npy"))) == 1  # cached on the first call, read on the second


# --- A user's encoder failing as it fits itself on the texts is one error naming it.


ADAPTING = '''
class Adapting:
    """An encoder that fits itself on the texts it scores, as SIF does."""

    def for_sentences(self, texts):
        raise RuntimeError("cannot fit")

    def __call__(self, texts):
        return [[1.0]] * len(texts)


fails = Adapting()
'''


def test_a_user_encoder_failing_as_it_fits_is_one_error_naming_it(tmp_path, monkeypatch):
    from semsts.features.encoder_features import EncoderFeatures
    write(tmp_path / "enc_adapting.py", ADAPTING)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("enc_adapting", None)
    module = importlib.import_module("enc_adapting")
    fails = "encoder enc_adapting:Adapting failed fitting on {} texts (RuntimeError: cannot fit)"
    with pytest.raises(ValueError) as caught:
        embed(module.fails, ["a b", "c d"], 8)
    assert str(caught.value) == fails.format(2)
    with pytest.raises(ValueError) as caught:
        EncoderFeatures("enc_adapting:fails").fit([("a b", "c d"), ("e f", "g h")])
    assert str(caught.value) == fails.format(4)
    sys.modules.pop("enc_adapting", None)
