"""Issue 32, the embedding cache and a user's encoder at run time: a stale or re-signed entry is recomputed with a note,
never used; special files in a cache folder are neither followed nor waited on; a cache that cannot be written is
one note; a lone surrogate is hashed like any text; an encoder's ``os._exit`` is an error naming it."""
from __future__ import annotations

import contextlib
import errno
import hashlib
import importlib
import json
import os
import posix
import signal
import subprocess
import sys
import warnings

import numpy as np
import pytest

from conftest import build_counter, write
from semsts import cli
from semsts.baselines.encoder import cosine_scores
from semsts.core.errors import Note
from semsts.corpora import derived_cache
from semsts.corpora.derived_cache import cached_arrays
from semsts.features.encoders import embed
from tests.conftest import pairs_tsv

SPEC = "encpkg:encode"
IMPL = '''
import os
import numpy as np


def encode(texts):
    """Characters hashed into 8 dimensions by ord(c) * MULT + position (MULT {mult}, or $ENC_MULT)."""
    mult = int(os.environ.get("ENC_MULT", "{mult}"))
    out = np.zeros((len(texts), 8))
    for i, t in enumerate(texts):
        for j, c in enumerate(t):
            out[i, (ord(c) * mult + j) % 8] += 1 + (j % 3)
    return out
'''


class Hung(Exception):
    """Raised in a run still going at its deadline (no OSError: the code under test must not take it for one)."""


@contextlib.contextmanager
def deadline(seconds: int):
    """A run that blocks (a FIFO, a device) fails the test instead of hanging it."""
    def expire(*_):
        raise Hung(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture()
def encpkg(tmp_path, monkeypatch):
    """``encpkg:encode``, re-exported by the package from ``encpkg/impl.py``; returns a function that rewrites impl."""
    folder = tmp_path / "encoders"
    write(folder / "encpkg" / "__init__.py", "from .impl import encode\n")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # an edit within the second is seen, not a stale .pyc
    monkeypatch.delenv("ENC_MULT", raising=False)
    monkeypatch.setattr(derived_cache, "_UNWRITABLE", set(), raising=False)

    def impl(mult: int):
        write(folder / "encpkg" / "impl.py", IMPL.replace("{mult}", str(mult)))
    impl(1)
    yield impl
    for name in ("encpkg", "encpkg.impl"):
        sys.modules.pop(name, None)


def run(tmp_path, capsys, *extra, name="out"):
    """``sts run --encoder encpkg:encode`` on 40 pairs, the encoder imported afresh as a new process would: its exit
    code, stderr lines and output file's bytes."""
    for module in ("encpkg", "encpkg.impl"):
        sys.modules.pop(module, None)
    importlib.invalidate_caches()
    test = tmp_path / "test.tsv"
    if not test.exists():
        pairs_tsv(test, 40, 2)
    out = tmp_path / name
    with deadline(8):
        code = cli.main(["run", "--encoder", SPEC, "--test", str(test), "--out", str(out), *extra])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    outputs = sorted(out.glob("STS.output.*"))
    return code, err.splitlines(), outputs[0].read_bytes() if outputs else None


def notes(err):
    """The notes of a problem (not the count of texts encoded and kept, or read from the cache)."""
    counts = ("texts encoded and kept in the embedding cache", "texts from the embedding cache")
    return [line for line in err if line.startswith("note: ") and not any(c in line for c in counts)]


# --- Defect 1: what the key cannot see (a module behind a re-export, an environment variable) is caught by the probe.


@pytest.mark.parametrize("change", ["module behind the re-export edited", "environment variable set"])
def test_a_stale_entry_is_noticed_recomputed_and_replaced(encpkg, tmp_path, capsys, monkeypatch, _embedding_cache, change):
    code, err, before = run(tmp_path, capsys, name="first")
    assert code == 0 and notes(err) == []
    if change.startswith("module"):
        encpkg(3)
    else:
        monkeypatch.setenv("ENC_MULT", "3")
    code, err, cached = run(tmp_path, capsys, name="cached")
    assert code == 0 and len(notes(err)) == 1 and "stale or damaged" in err[0] and "recomputing it" in err[0]
    assert str(_embedding_cache) in err[0]
    code, _, fresh = run(tmp_path, capsys, "--no-cache", name="fresh")
    assert code == 0 and cached == fresh != before
    code, err, again = run(tmp_path, capsys, name="again")  # the entry was replaced: no note, the same figures
    assert code == 0 and notes(err) == [] and again == fresh


# --- Defect 2: an entry replaced and its manifest signed again is checked as an encoder's output is.


def _resign(folder, vectors) -> None:
    (manifest,) = folder.glob("embeddings_*.json")
    array = manifest.with_name(manifest.stem + ".vectors.npy")
    np.save(array, vectors, allow_pickle=False)
    entry = json.loads(manifest.read_text())
    entry["files"]["vectors"] = hashlib.sha256(array.read_bytes()).hexdigest()
    manifest.write_text(json.dumps(entry))


TAMPER = {
    "NaN": lambda v: np.full_like(v, np.nan),
    "infinite row": lambda v: np.vstack([v[:-1], np.full((1, v.shape[1]), np.inf)]),
    "zeros": np.zeros_like,
    "zeros but five rows": lambda v: np.vstack([v[:5], np.zeros_like(v[5:])]),  # whichever five the probe once drew
    "zero columns": lambda v: np.hstack([np.zeros((len(v), 4)), v[:, 4:]]),
    "reversed rows": lambda v: v[::-1],
    "scaled": lambda v: v * 1.01,
    "a row short": lambda v: v[:-1],
    "one dimension": np.ravel,
    "three dimensions": lambda v: v[:, :, None],
    "narrower": lambda v: v[:, :4],
    "integers": lambda v: v.astype(np.int64),
    "strings": lambda v: v.astype(str),
    "no rows": lambda v: v[:0],
}


@pytest.mark.parametrize("tamper", TAMPER)
def test_a_re_signed_entry_is_checked_recomputed_and_never_used(encpkg, tmp_path, capsys, _embedding_cache, tamper):
    code, _, before = run(tmp_path, capsys, name="first")
    (stored,) = _embedding_cache.glob("*.vectors.npy")
    _resign(_embedding_cache, TAMPER[tamper](np.load(stored)))
    code, err, after = run(tmp_path, capsys, name="after")
    assert code == 0 and after == before
    assert len(notes(err)) == 1 and str(_embedding_cache / "embeddings_") in err[0], err
    assert err[0].endswith(("; recomputing it", "where the encoder gives float vectors (80, 8); rebuilding it")), err


def test_an_array_whose_header_claims_a_sparse_terabyte_is_refused_unread(encpkg, tmp_path, capsys, _embedding_cache):
    code, _, before = run(tmp_path, capsys, name="first")
    (stored,) = _embedding_cache.glob("*.vectors.npy")
    rows = len(np.load(stored))
    with open(stored, "wb") as handle:
        np.lib.format.write_array_header_1_0(handle, {"descr": "<f8", "fortran_order": False,
                                                      "shape": (rows, (1 << 40) // (8 * rows))})
        handle.truncate(handle.tell() + rows * ((1 << 40) // (8 * rows)) * 8)
    code, err, after = run(tmp_path, capsys, name="after")  # run's deadline: hashing a terabyte would fail it
    assert code == 0 and after == before and len(notes(err)) == 1 and "rebuilding it" in err[0], err


def test_the_probe_is_a_few_texts_drawn_anew_each_run():
    from semsts.features import embedding_cache as cache
    draws = [cache.probe_rows(100) for _ in range(3)]
    assert all(len(rows) == cache.PROBE == len(set(rows)) and rows == sorted(rows) and 0 <= rows[0] <= rows[-1] < 100
               for rows in draws)
    assert len({tuple(rows) for rows in draws}) == 3  # unpredictable: equal draws have odds of 1 in 10^11
    assert cache.probe_rows(2) == [0, 1]


def test_an_encoder_whose_embeddings_vary_between_calls_is_not_cached(tmp_path, monkeypatch, _embedding_cache):
    write(tmp_path / "enc_drift.py", "import numpy as np\ncount = [0]\n\ndef enc(texts):\n    count[0] += 1\n"
          "    return np.ones((len(texts), 3)) + count[0] * np.arange(3)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    encode = importlib.import_module("enc_drift").enc
    pairs = [("a b", "c d"), ("e f", "g h")]
    try:
        cosine_scores(encode, pairs, cache_spec="enc_drift:enc")
        with pytest.warns(Note) as caught:
            cosine_scores(encode, pairs, cache_spec="enc_drift:enc")
        messages = [str(w.message) for w in caught]
        assert len(messages) == 2 and "stale or damaged" in messages[0]
        assert "gives other embeddings for the same texts from one call to the next; they are not cached" in messages[1]
    finally:
        sys.modules.pop("enc_drift", None)


# --- Defect 3: special files in a cache folder are neither followed nor waited on; sizes are what the header implies.


def _special(path, kind) -> None:
    path.unlink()
    if kind == "FIFO":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to(kind)


SPECIAL = [("manifest", "FIFO"), ("vectors", "FIFO"), ("vectors", "/dev/zero"), ("manifest", "/dev/zero"),
           ("manifest", "/dev/urandom"),
           ("vectors", "/dev/urandom"), ("manifest", "folder"), ("vectors", "folder")]


@pytest.mark.parametrize("which, kind", SPECIAL)
def test_a_special_file_in_the_embedding_cache_is_refused_with_a_note(encpkg, tmp_path, capsys, _embedding_cache,
                                                                      which, kind):
    code, _, before = run(tmp_path, capsys, name="first")
    (path,) = _embedding_cache.glob("*.json" if which == "manifest" else "*.vectors.npy")
    _special(path, kind)
    code, err, after = run(tmp_path, capsys, name="after")
    assert code == 0 and after == before
    assert "not a regular file" in err[0] and str(path) in err[0], err
    if kind == "folder":  # not ours to remove: the entry cannot be written over it, which a second note says
        assert path.is_dir() and len(notes(err)) == 2 and f"could not be written ({path.name}: Is a directory)" in err[1]
    else:  # rebuilt in its place (written beside, then renamed over the link or FIFO, never through it)
        assert path.is_file() and not path.is_symlink() and len(notes(err)) == 1


@pytest.mark.parametrize("mmap", [False, True])
@pytest.mark.parametrize("which, kind", SPECIAL + [("vocabulary", "/dev/zero"), ("vectors", "longer than its header")])
def test_a_special_or_oversized_file_in_a_derived_cache_is_refused_at_once(tmp_path, monkeypatch, which, kind, mmap):
    """The GloVe index (memory-mapped) and the gloss space share the derived caches' reader."""
    monkeypatch.setattr(derived_cache, "_UNWRITABLE", set(), raising=False)
    build, calls = build_counter()
    cached_arrays(tmp_path, "space", {"source": "x"}, build, mmap=mmap)
    path = next(tmp_path.glob("*.json" if which == "manifest" else f"*.{which}.npy"))
    if kind == "longer than its header":
        with open(path, "r+b") as handle:
            handle.truncate(1 << 40)  # a sparse terabyte: refused by its size, never read
    else:
        _special(path, kind)
    with deadline(8), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        arrays, _ = cached_arrays(tmp_path, "space", {"source": "x"}, build, mmap=mmap)
    messages = [str(w.message) for w in caught if w.category is Note]
    assert messages[0].startswith(f"derived cache {path}: ") and messages[0].endswith("; rebuilding it")
    assert calls == [1, 1] and arrays["vectors"][-1, -1] == 11 and arrays["vocabulary"].tolist() == ["a", "b", "c"]
    if kind == "folder":  # not ours to remove, and in the way: built each time, with a note that it is not kept
        assert path.is_dir() and len(messages) == 2 and "could not be written" in messages[1]
        return
    assert len(messages) == 1 and isinstance(arrays["vectors"], np.memmap) == mmap
    again, _ = cached_arrays(tmp_path, "space", {"source": "x"}, build, mmap=mmap)
    assert calls == [1, 1] and again["vectors"].tolist() == arrays["vectors"].tolist()


@pytest.mark.parametrize("files", [{"../../escape": "0" * 64}, {"vectors": 5}, {"a/b": "0" * 64}])
def test_a_manifest_naming_files_outside_its_entry_is_refused(tmp_path, monkeypatch, files):
    monkeypatch.setattr(derived_cache, "_UNWRITABLE", set(), raising=False)
    build, calls = build_counter()
    cached_arrays(tmp_path, "space", {"source": "x"}, build)
    (manifest,) = tmp_path.glob("*.json")
    manifest.write_text(json.dumps({"key": {"source": "x"}, "files": files}))
    with pytest.warns(Note, match="unreadable"):
        arrays, _ = cached_arrays(tmp_path, "space", {"source": "x"}, build)
    assert calls == [1, 1] and arrays["vectors"][-1, -1] == 11


# --- Defect 4: a cache that cannot be written is one note; the run goes on with the right figures.


def _unwritable(folder, tmp_path, monkeypatch, kind) -> None:
    if kind == "a file":
        folder.write_text("mine\n")
    elif kind == "a FIFO":
        os.mkfifo(folder)
    elif kind == "a dangling link":
        folder.symlink_to(tmp_path / "nowhere")
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


UNWRITABLE = ["a file", "a FIFO", "a dangling link", "a full disk", "read-only"]


@pytest.mark.parametrize("kind", UNWRITABLE)
def test_a_cache_that_cannot_be_written_is_one_note(encpkg, tmp_path, capsys, monkeypatch, _embedding_cache, kind):
    code, _, expected = run(tmp_path, capsys, "--no-cache", name="expected")
    assert code == 0
    _unwritable(_embedding_cache, tmp_path, monkeypatch, kind)
    before = sorted(p.name for p in tmp_path.iterdir())
    for attempt in ("first", "second"):
        code, err, out = run(tmp_path, capsys, name=attempt)
        assert code == 0 and out == expected
        assert [line for line in err if line.startswith(("note:", "error:"))] == (
            [line for line in err if "could not be written" in line and str(_embedding_cache) in line]), err
        assert len(notes(err)) == (1 if attempt == "first" else 0)  # one note a run (here: a process)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*before, "first", "second"])
    assert not (tmp_path / "nowhere").exists()
    if kind == "a file":
        assert _embedding_cache.read_text() == "mine\n"
    if kind == "a full disk":
        assert list(_embedding_cache.iterdir()) == []  # no array file kept without its manifest, no temporary file


def test_many_entries_that_cannot_be_written_are_one_note(tmp_path, monkeypatch, toy_encoder, _embedding_cache):
    monkeypatch.setattr(derived_cache, "_UNWRITABLE", set(), raising=False)
    _embedding_cache.write_text("mine\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for pairs in ([("a b", "c d")], [("e f", "g h")], [("i j", "k l")]):
            cosine_scores(toy_encoder.encode, pairs, cache_spec="toy_encoder:encode")
    assert [str(w.message) for w in caught] == [
        f"the cache {_embedding_cache} could not be written (it is not a folder); going on without it"]


def test_sts_goes_on_past_a_fifo_where_its_per_user_cache_folder_should_be(encpkg, tmp_path, capsys):
    """The command itself, its cache in $XDG_CACHE_HOME: one note line, the figures --no-cache gives, nothing written."""
    code, _, expected = run(tmp_path, capsys, "--no-cache", name="expected")
    folder = tmp_path / "cache" / "sts" / "embeddings"
    folder.parent.mkdir(parents=True)
    os.mkfifo(folder)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "encoders"), "HOME": str(tmp_path),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "semsts", "run", "--encoder", SPEC, "--test", str(tmp_path / "test.tsv"),
                           "--out", str(tmp_path / "out")], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and code == 0
    assert done.stderr.splitlines() == [f"note: the cache {folder} could not be written (it is not a folder); going on "
                                        "without it"]
    assert next((tmp_path / "out").glob("STS.output.*")).read_bytes() == expected
    assert os.listdir(folder.parent) == ["embeddings"] and not folder.is_dir()


# --- Defect 5: a lone surrogate (JSON's "\ud800") is a text like any other, cached or not.


def test_a_lone_surrogate_is_cached_like_any_text(encpkg, tmp_path, capsys, _embedding_cache):
    root = tmp_path / "root"
    lines = [{"sentence1": "a cat \ud800 sat", "sentence2": "the cat sat", "score": 3.0},
             {"sentence1": "a dog ran", "sentence2": "the sun \udfff set", "score": 1.0},
             {"sentence1": "a bird flew", "sentence2": "a bird flew", "score": 4.0}]
    write(root / "sts2022" / "en" / "test.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
    results = []
    for extra in ([], [], ["--no-cache"]):
        out = tmp_path / f"out{len(results)}"
        with deadline(8):
            code = cli.main(["run", "--encoder", SPEC, "--test", "sts2022-test", "--data-dir", str(root),
                             "--out", str(out), *extra])
        err = capsys.readouterr().err
        assert code == 0 and "error" not in err and "Traceback" not in err, err
        results.append(next(out.glob("STS.output.*")).read_bytes())
    assert results[0] == results[1] == results[2] and len(results[0].splitlines()) == 3
    assert len(list(_embedding_cache.glob("*.json"))) == 1  # cached on the first run, read on the second


# --- Defect 6: an encoder calling os._exit is one error line naming it, not a silent exit 0.


EXITS = "import os\n\n\ndef enc(texts):\n    os._exit(0)\n\n\ndef careful(texts):\n    try:\n        os._exit(4)\n" \
        "    except Exception:\n        pass\n    return [[1.0]] * len(texts)\n"


def test_an_encoder_calling_os_exit_is_one_error_line(tmp_path):
    write(tmp_path / "enc_exit.py", EXITS)
    test = pairs_tsv(tmp_path / "test.tsv", 20, 3)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "semsts", "run", "--encoder", "enc_exit:enc", "--test", str(test),
                           "--out", str(tmp_path / "out"), "--quiet"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == ["error: encoder enc_exit:enc called os._exit(0)"]
    assert not list((tmp_path / "out").glob("STS.output.*"))


def test_an_encoder_module_calling_os_exit_as_it_is_imported_is_one_error_line(tmp_path):
    write(tmp_path / "enc_exits_on_import.py", "import os\nos._exit(3)\n")
    test = pairs_tsv(tmp_path / "test.tsv", 20, 3)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "semsts", "run", "--encoder", "enc_exits_on_import:enc", "--test",
                           str(test), "--out", str(tmp_path / "out"), "--quiet"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == ["error: encoder 'enc_exits_on_import:enc': module 'enc_exits_on_import' "
                                        "called os._exit(3) as it was imported"]
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("STS.output.*"))


def _report_then_end(connection, job) -> None:
    """In a worker: ``job``'s ValueError messages, and whether os._exit is the real one after each, sent back; then
    the worker's own os._exit(7) ends it, as a loky worker's exit does."""
    results = []
    for step in job():
        try:
            step()
            results.append((None, os._exit is posix._exit))
        except ValueError as exc:
            results.append((str(exc), os._exit is posix._exit))
    connection.send(results)
    connection.close()
    os._exit(7)


def in_worker(job) -> list:
    """``job`` run in a forked process, whose silent end (the defect) fails the test without ending pytest."""
    import multiprocessing
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=_report_then_end, args=(send, job))
    worker.start()
    send.close()
    worker.join(30)
    assert worker.exitcode == 7  # the worker's own os._exit, restored after each encoder, ended it
    assert receive.poll(1)
    return receive.recv()


def test_os_exit_is_refused_in_the_encoder_and_restored_after(tmp_path, monkeypatch):
    write(tmp_path / "enc_exit.py", EXITS)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("enc_exit", None)

    def job():
        from enc_exit import careful, enc  # careful catches Exception: os._exit's stand-in is no Exception
        return [lambda: embed(enc, ["a", "b"], 8), lambda: embed(careful, ["a", "b"], 8)]
    assert in_worker(job) == [("encoder enc_exit:enc called os._exit(0)", True),
                              ("encoder enc_exit:careful called os._exit(4)", True)]
    sys.modules.pop("enc_exit", None)


ADAPTING = '''import os


class Adapting:
    """An encoder that fits itself on the texts it scores, as SIF does."""

    def __init__(self, how):
        self.how = how

    def for_sentences(self, texts):
        if self.how == "exit":
            os._exit(3)
        raise RuntimeError("cannot fit")

    def __call__(self, texts):
        return [[1.0]] * len(texts)


exits, fails = Adapting("exit"), Adapting("fail")
'''


def test_a_user_encoder_failing_as_it_fits_is_one_error_naming_it(tmp_path, monkeypatch):
    from semsts.features.encoder_features import EncoderFeatures
    write(tmp_path / "enc_adapting.py", ADAPTING)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("enc_adapting", None)
    pairs = [("a b", "c d"), ("e f", "g h")]

    def job():
        module = importlib.import_module("enc_adapting")
        return [step for name in ("exits", "fails") for step in (
            lambda name=name: embed(getattr(module, name), ["a b", "c d"], 8),
            lambda name=name: EncoderFeatures(f"enc_adapting:{name}").fit(pairs))]
    exits, fails = "encoder enc_adapting:Adapting called os._exit(3)", \
        "encoder enc_adapting:Adapting failed fitting on 2 texts (RuntimeError: cannot fit)"
    assert in_worker(job) == [(exits, True), (exits, True), (fails, True),
                              (fails.replace("2 texts", "4 texts"), True)]
    sys.modules.pop("enc_adapting", None)
