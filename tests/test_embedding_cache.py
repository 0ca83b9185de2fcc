"""The embedding cache: a second bench with the same encoder encodes only the few texts that check the entry; a damaged entry is recomputed,
never used; --no-cache encodes everything; editing the encoder's module or its declared version is a new entry."""
import json

import numpy as np

from semsts import cli
from semsts.features import embedding_cache

ARGS = ["bench", "--encoder", "toy_encoder:encode", "--datasets", "stsb-test", "--convention", "simcse",
        "--format", "json"]


def _bench(data_dir, capsys, *extra, err=None):
    quiet = [] if err is not None else ["--quiet"]  # --quiet keeps notes off stderr
    assert cli.main([*ARGS, "--data-dir", str(data_dir), *quiet, *extra]) == 0
    out = capsys.readouterr()
    if err is not None:
        err.append(out.err)
    return json.loads(out.out)["rows"][0]["datasets"]["stsb-test"]["simcse"]


def test_a_second_bench_encodes_only_its_probe_and_gives_the_same_figures(toy_encoder, data_dir, capsys,
                                                                        _embedding_cache):
    first = _bench(data_dir, capsys)
    encoded = sum(toy_encoder.calls)
    assert encoded > 2000  # every distinct text of STS-B test, once
    toy_encoder.calls.clear()
    assert _bench(data_dir, capsys) == first and toy_encoder.calls == [embedding_cache.PROBE]  # one call checks it
    toy_encoder.calls.clear()
    assert _bench(data_dir, capsys, "--no-cache") == first and sum(toy_encoder.calls) == encoded


def test_a_damaged_entry_is_recomputed_never_used(toy_encoder, data_dir, capsys, _embedding_cache):
    first = _bench(data_dir, capsys)
    (array,) = _embedding_cache.glob("*.vectors.npy")
    data = bytearray(array.read_bytes())
    data[-8:] = np.float64(1e6).tobytes()  # one number changed: a plausible array, but not the one stored
    array.write_bytes(bytes(data))
    toy_encoder.calls.clear()
    err = []
    again = _bench(data_dir, capsys, err=err)
    assert again == first and sum(toy_encoder.calls) > 2000
    assert "changed since it was built; rebuilding it" in err[0]
    toy_encoder.calls.clear()
    assert _bench(data_dir, capsys) == first and toy_encoder.calls == [embedding_cache.PROBE]  # rebuilt whole


def test_the_identity_follows_the_module_and_a_declared_version(toy_encoder, tmp_path):
    spec = "toy_encoder:encode"
    by_file = embedding_cache.identity(spec, toy_encoder.encode)
    assert by_file.startswith(spec + "@file-sha256:")
    toy_encoder.encode.cache_version = "2"
    assert embedding_cache.identity(spec, toy_encoder.encode) == spec + "@version:2"
    assert embedding_cache.identity("glove-mean", toy_encoder.encode) is None  # built-ins are not cached
    assert embedding_cache.identity(None, toy_encoder.encode) is None  # nor a bare callable
    assert embedding_cache.texts_hash(["a", "b"]) != embedding_cache.texts_hash(["b", "a"])
