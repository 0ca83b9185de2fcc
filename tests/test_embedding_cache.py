"""The embedding cache, by contract: an encoder declaring its version (its ``cache_version`` attribute or
``--cache-version``) is cached, and a second bench encodes nothing and gives the same figures; another version is
another entry; a damaged entry is recomputed, never an error; a crash mid-write leaves no entry; --no-cache encodes
everything; an encoder declaring no version is not cached."""
import json

import pytest

from semsts import cli
from semsts.corpora import derived_cache
from semsts.features import embedding_cache
from semsts.features.encoders import ENCODERS

ARGS = ["bench", "--encoder", "toy_encoder:encode", "--datasets", "stsb-test", "--convention", "simcse",
        "--format", "json"]


def _bench(data_dir, capsys, *extra, err=None):
    quiet = [] if err is not None else ["--quiet"]  # --quiet keeps notes off stderr
    assert cli.main([*ARGS, "--data-dir", str(data_dir), *quiet, *extra]) == 0
    out = capsys.readouterr()
    if err is not None:
        err.append(out.err)
    return json.loads(out.out)["rows"][0]["datasets"]["stsb-test"]["simcse"]


@pytest.mark.parametrize("declared", ["attribute", "option"])
def test_a_second_bench_of_a_declared_encoder_encodes_nothing_and_gives_the_same_figures(
        toy_encoder, data_dir, capsys, _embedding_cache, declared):
    extra = ["--cache-version", "1"] if declared == "option" else []
    if declared == "attribute":
        toy_encoder.encode.cache_version = "1"
    err = []
    first = _bench(data_dir, capsys, *extra, err=err)
    encoded = sum(toy_encoder.calls)
    assert encoded > 2000 and f"{encoded:,} texts encoded and kept in the embedding cache" in err[0]
    toy_encoder.calls.clear()
    assert _bench(data_dir, capsys, *extra, err=err) == first and toy_encoder.calls == []
    assert f"{encoded:,} of {encoded:,} texts from the embedding cache" in err[1]
    assert _bench(data_dir, capsys, "--no-cache") == first and sum(toy_encoder.calls) == encoded
    toy_encoder.calls.clear()
    if declared == "attribute":
        toy_encoder.encode.cache_version = "2"
    assert _bench(data_dir, capsys, *(["--cache-version", "2"] if extra else [])) == first  # another version: computed
    assert sum(toy_encoder.calls) == encoded and len(list(_embedding_cache.glob("*.npy"))) == 2


def test_an_undeclared_encoder_is_computed_each_time_with_one_note(toy_encoder, data_dir, capsys, _embedding_cache):
    err = []
    first = _bench(data_dir, capsys, err=err)
    encoded = sum(toy_encoder.calls)
    assert first == _bench(data_dir, capsys) and sum(toy_encoder.calls) == 2 * encoded
    assert "note: encoder toy_encoder:encode declares no cache_version: its embeddings are computed afresh, not " \
           "cached (give it a cache_version attribute, or pass --cache-version V, to cache them)" in err[0]
    assert not _embedding_cache.exists()


@pytest.mark.parametrize("damage", ["cut", "emptied"])
def test_a_damaged_entry_is_recomputed_never_an_error(toy_encoder, data_dir, capsys, _embedding_cache, damage):
    first = _bench(data_dir, capsys, "--cache-version", "1")
    (entry,) = _embedding_cache.glob("*.npy")
    data = entry.read_bytes()
    entry.write_bytes(data[:len(data) // 2] if damage == "cut" else b"")  # as a failing disk leaves it
    toy_encoder.calls.clear()
    err = []
    assert _bench(data_dir, capsys, "--cache-version", "1", err=err) == first and sum(toy_encoder.calls) > 2000
    assert f"note: cache {entry}: unreadable" in err[0] and "computing it again" in err[0]
    assert entry.read_bytes() == data  # written again whole
    toy_encoder.calls.clear()
    assert _bench(data_dir, capsys, "--cache-version", "1") == first and toy_encoder.calls == []


def test_a_crash_mid_write_leaves_no_entry(toy_encoder, data_dir, capsys, _embedding_cache, monkeypatch):
    def dies(handle, array, **kwargs):
        handle.write(b"\x93NUMPY half an entry")
        raise KeyboardInterrupt
    monkeypatch.setattr(derived_cache.np, "save", dies)
    with pytest.raises(KeyboardInterrupt):
        cli.main([*ARGS, "--data-dir", str(data_dir), "--quiet", "--cache-version", "1"])
    capsys.readouterr()
    assert list(_embedding_cache.iterdir()) == []  # neither an entry nor its temporary file
    monkeypatch.undo()


def test_the_identity_is_the_spec_and_its_declared_version(toy_encoder, tmp_path):
    spec = "toy_encoder:encode"
    with pytest.warns(embedding_cache.Note, match="declares no cache_version"):
        assert embedding_cache.identity(spec, toy_encoder.encode) is None
    assert embedding_cache.identity(spec, toy_encoder.encode, "7") == spec + "@version:7"
    toy_encoder.encode.cache_version = "2"
    assert embedding_cache.identity(spec, toy_encoder.encode) == spec + "@version:2"
    assert embedding_cache.identity(spec, toy_encoder.encode, True) == spec + "@version:2"
    assert embedding_cache.identity(spec, toy_encoder.encode, "3") == spec + "@version:3"  # the option wins
    for name in ("glove-mean", "sif", "wordllama"):  # fast: computed afresh, never stale
        assert embedding_cache.identity(name, ENCODERS[name]) is None
    minilm = embedding_cache.identity("minilm", ENCODERS["minilm"])
    assert minilm.startswith("minilm@version:sentence-transformers/all-MiniLM-L6-v2@")  # its pinned files' revision
    assert embedding_cache.identity("minilm", toy_encoder.encode) is None
    assert embedding_cache.identity(None, toy_encoder.encode) is None  # nor a bare callable
    assert embedding_cache.texts_hash(["a", "b"]) != embedding_cache.texts_hash(["b", "a"])
