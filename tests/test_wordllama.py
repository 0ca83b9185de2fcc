"""WordLlama's static vectors (corpora.wordllama): read offline from the installed wheel of the pinned version,
memory-mapped; the built-in ``wordllama`` encoder against WordLlama's own inference code."""
import re

import numpy as np
import pytest

from semsts import cli
from semsts.core.extras import how_to_install
from semsts.corpora import wordllama
from semsts.features.encoders import load_encoder, wordllama_mean

TEXTS = ["A man is playing a flute.", "A man plays the flute!", "The economy grew by 3.2% in 2019.", "",
         "   ", "Un café, s'il vous plaît — 東京", "don't stop", "word " * 700]


@pytest.fixture
def fresh_resource():
    """The module's cached files, table and tokenizer forgotten before and after the test."""
    def clear():
        for cached in (wordllama.checked_files, wordllama.table, wordllama.tokenizer, wordllama.word_ids):
            cached.cache_clear()
        wordllama._TABLE.__init__()
    clear()
    yield
    clear()


def test_the_table_is_the_wheels_file_memory_mapped_and_pinned():
    table = wordllama.table()
    assert isinstance(table, np.memmap) and table.shape == (32000, 256) and table.dtype == np.float16
    assert wordllama.content_sha256() == "77ade99f3f8049c19d5f564a66a7eb37c3c0cb99fbae28c269bcc6d265f26e60"
    assert wordllama.token_ids("the dog") == [278, 11203]  # Llama 2's ids, no <s>


def test_the_builtin_encoder_is_wordllamas_own_mean_pooling():
    """Independent computation: WordLlama's inference code (float32, padded batches) on the same table and tokenizer."""
    from wordllama.inference import WordLlamaInference
    theirs = WordLlamaInference(np.asarray(wordllama.table()), wordllama.tokenizer()).embed(TEXTS)
    ours = wordllama_mean(TEXTS)
    assert load_encoder("wordllama") is wordllama_mean and ours.shape == (len(TEXTS), 256)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=2e-6)
    assert not ours[3].any()  # no token: the zero vector (theirs divides by one token); spaces are tokens ('▁')


def test_another_version_of_the_wheel_is_refused(monkeypatch, fresh_resource):
    """An upgrade of the wheel could change the vectors the model cards name by their SHA-256: it is refused."""
    monkeypatch.setattr(wordllama.metadata, "version", lambda name: "0.5.0")
    with pytest.raises(wordllama.WordLlamaNotFound, match=re.escape(
            "wordllama 0.5.0 is installed; the suite reads the vectors of 0.4.0.post1: " + how_to_install("reference"))):
        wordllama.table()


def test_a_missing_wheel_is_one_error_line_saying_what_to_install(tmp_path, monkeypatch, capsys, fresh_resource):
    monkeypatch.setattr(wordllama.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(wordllama.WordLlamaNotFound, match=re.escape("wordllama==0.4.0.post1): " + how_to_install("reference"))):
        wordllama.table()
    assert cli.main(["run", "wordllama", "--test", "demo-test", "--quiet", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: the wordllama encoder needs the 'reference' extra (wordllama, WordLlama's vectors: not installed): "
                   + how_to_install("reference")]
    assert not (tmp_path / "out").exists()  # no output file: the folder the failed run made is removed


def word_vector(word: str) -> np.ndarray:
    """One word's vector, plainly: the mean of its tokens' rows, in float64 (zeros for a word of no token)."""
    ids = wordllama.word_ids(word)
    return np.asarray(wordllama.table()[list(ids)], dtype=np.float64).mean(axis=0) if ids else np.zeros(256)


def unit(vector: np.ndarray) -> np.ndarray:
    norm = np.sqrt(np.multiply(vector, vector, dtype=np.float64).sum())
    return vector / (norm if norm > 0 else 1.0)


def test_the_word_table_keeps_its_bound_and_gives_what_one_word_at_a_time_gives(monkeypatch):
    table = wordllama.WordTable()
    monkeypatch.setattr(wordllama, "SEEN_LIMIT", 40)
    words = [f"w{i}" for i in range(100)] + ["dog", "Dog", "", "zebra"]
    for start in range(0, len(words), 13):
        chunk = words[start:start + 26]
        slots = table.slots(chunk)
        assert len(table.slot) <= max(40, len(set(chunk)))
        for word, k in zip(chunk, slots):
            assert table.vectors[k].tobytes() == word_vector(word).tobytes()
            assert table.units[k].tobytes() == unit(word_vector(word)).tobytes()
    assert not word_vector("").any() and not table.units[table.slots([""])[0]].any()


def test_a_model_with_the_builtin_encoder_records_the_resource(tmp_path):
    import warnings

    from semsts import corpora
    from semsts.baselines.model_file import load_model, save_model
    from semsts.baselines.regression import FeatureRegression
    from semsts.baselines.subset_models import SubsetModels
    from tests.conftest import SMALL_PARAMS
    train = corpora.load("demo-train")
    system = FeatureRegression(**SMALL_PARAMS, encoder="wordllama", param_grid={"C": [2.0]}, cv=2)
    card = save_model(SubsetModels({"all": system.fit(train.pairs[:60], train.gold[:60])}), tmp_path / "m.skops",
                      {"regime": "test"})
    assert card["encoder"] == "wordllama" and card["resources"]["wordllama"] == wordllama.content_sha256()
    assert set(card["resources"]) == {"wordnet", "wordllama"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same versions and resources: no note
        models, loaded = load_model(tmp_path / "m.skops")
    assert loaded["resources"] == card["resources"]
