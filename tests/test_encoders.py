"""Tests of semsts.features.encoders: sentence encoders as systems and features, and a user's encoder that fails."""
from __future__ import annotations

import json
import pickle
import sys
import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.base import clone

from conftest import write
from semsts import baselines, cli, corpora
from semsts.baselines import make_system
from semsts.baselines.base import PairError
from semsts.baselines.encoder import EncoderSimilarity, cosine_scores
from semsts.baselines.run import run_system
from semsts.corpora.word_vectors import glove
from semsts.features.embedding import sif_weight
from semsts.features.encoders import SIF, embed, encoder_name, encoder_words, glove_mean, load_encoder, sif_means
from tests.conftest import SMALL, SMALL_PARAMS, pairs_tsv

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def letters(texts):
    """A deterministic toy encoder: letter counts."""
    return np.asarray([[t.lower().count(c) for c in LETTERS] for t in texts], dtype=float)


class Recording:
    """Letter counts, remembering every batch it was handed."""

    def __init__(self):
        self.batches = []

    def __call__(self, texts):
        self.batches.append(list(texts))
        return letters(texts)


def test_words_are_lower_cased_treebank_tokens_without_punctuation():
    assert list(encoder_words("Don't stop: the U.S. isn't it’s 3.5 well-known!")) == \
        ["do", "n't", "stop", "the", "u.s", "is", "n't", "it", "'s", "3.5", "well-known"]
    assert encoder_words("?!") == ()


def test_cosine_of_toy_embeddings_each_text_encoded_once_in_batches():
    enc = Recording()
    pairs = [("ab", "ab"), ("ab", "cd"), ("abc", "abd"), ("cd", "ab")]
    system = EncoderSimilarity(enc, batch_size=2).fit(pairs)
    scores = system.predict(pairs)
    np.testing.assert_allclose(scores, [1.0, 0.0, 2 / 3, 0.0])
    assert enc.batches == [["ab", "cd"], ["abc", "abd"]]  # 4 distinct texts, 2 per call, first-seen order


def test_zero_embedding_scores_zero_and_scores_lie_in_minus_one_one():
    pairs = [("ab", "..."), ("ab", "ab")]
    np.testing.assert_allclose(EncoderSimilarity(letters).fit(pairs).predict(pairs), [0.0, 1.0])
    def flip(texts):
        return np.asarray([[1.0, 0.0] if t == "x" else [-1.0, 0.0] for t in texts])

    np.testing.assert_allclose(EncoderSimilarity(flip).fit([]).predict([("x", "y")]), [-1.0])
    assert EncoderSimilarity.score_range == (-1.0, 1.0)


@pytest.mark.parametrize("output, message", [
    (lambda t: np.ones(len(t)), r"shape \(\d+,\) .* expected \(\d+, d\)"),
    (lambda t: np.ones((len(t) + 1, 3)), r"shape \(\d+, 3\) for \d+ texts"),
    (lambda t: np.ones((len(t), 0)), r"d >= 1"),
    (lambda t: [["x"] * 3 for _ in t], r"not a numeric \(n, d\) array"),
    (lambda t: [[1.0] * (i + 1) for i in range(len(t))], r"not a numeric \(n, d\) array"),
    (lambda t: np.ones((len(t), 3 if "a" in t[0] else 4)), r"4 dimensions after 3"),
])
def test_bad_encoder_output_is_refused_clearly(output, message):
    system = EncoderSimilarity(output, batch_size=2).fit([])
    with pytest.raises(ValueError, match=message):
        system.predict([("a", "b"), ("c", "d")])


def test_a_nan_embedding_names_its_text_and_first_pair():
    def enc(texts):
        return np.asarray([[np.nan, 1.0] if t == "bad" else [1.0, 1.0] for t in texts])

    with pytest.raises(PairError, match="NaN or infinite embedding for 'bad'") as info:
        EncoderSimilarity(enc).fit([]).predict([("a", "b"), ("c", "bad"), ("bad", "a")])
    assert info.value.index == 1


def test_the_encoder_and_batch_size_are_checked_at_fit():
    with pytest.raises(ValueError, match="needs an encoder"):
        EncoderSimilarity().fit([])
    with pytest.raises(ValueError, match="not a callable|must be a callable"):
        EncoderSimilarity(42).fit([])
    with pytest.raises(ValueError, match="batch_size"):
        EncoderSimilarity(letters, batch_size=0).fit([])


def test_specs_load_builtin_and_user_encoders(tmp_path, monkeypatch):
    write(tmp_path / "my_encoders.py", "import numpy as np\n"
          "def lengths(texts):\n    return np.asarray([[len(t), 1.0] for t in texts])\n"
          "class Box:\n    def encode(self, texts):\n        return np.ones((len(texts), 2))\n"
          "box = Box()\nNOT_CALLABLE = 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert load_encoder("glove-mean") is glove_mean and isinstance(load_encoder("sif"), SIF)
    assert load_encoder("my_encoders:lengths")(["abc"]).tolist() == [[3.0, 1.0]]
    assert load_encoder("my_encoders:box.encode")(["a"]).shape == (1, 2)
    for spec, message in [("glove", "expected a built-in encoder"), ("my_encoders:", "expected a built-in"),
                          ("no_such_module_xyz:f", "cannot import module 'no_such_module_xyz'"),
                          ("my_encoders:missing", "has no attribute 'missing'"),
                          ("my_encoders:NOT_CALLABLE", "is an int, not a callable")]:
        with pytest.raises(ValueError, match=message):
            load_encoder(spec)
    system = EncoderSimilarity("my_encoders:lengths").fit([])
    twin = pickle.loads(pickle.dumps(system))  # a model keeps the spec, not the function's code
    assert twin.encode == "my_encoders:lengths" and clone(system).encode == "my_encoders:lengths"
    assert twin.predict([("ab", "abcd")]).tolist() == system.predict([("ab", "abcd")]).tolist()
    assert encoder_name(load_encoder("my_encoders:lengths")) == "my_encoders:lengths"
    sys.modules.pop("my_encoders", None)


def test_glove_mean_is_the_mean_of_the_known_words_vectors():
    table = glove()
    rows = table.rows_of(["a", "dog", "barks"])
    assert (rows >= 0).all()
    expected = np.asarray(table.vectors[rows], dtype=float).mean(axis=0)
    got = glove_mean(["A dog barks.", "zzqxvw", "", "A dog zzqxvw barks"])
    np.testing.assert_allclose(got[0], expected, rtol=1e-6)
    np.testing.assert_allclose(got[3], expected, rtol=1e-6)  # an unknown word adds nothing
    assert got.shape == (4, 50) and not got[1].any() and not got[2].any()


def test_sif_by_hand():
    texts = ["A dog barks at the cat.", "The cat sleeps.", "Two men play guitar.", "A woman is slicing an onion."]
    table = glove()
    means = []
    for text in texts:
        words = encoder_words(text)
        rows = table.rows_of(words)
        vecs = np.asarray(table.vectors[rows[rows >= 0]], dtype=float)
        weights = np.asarray([sif_weight(w) for w, r in zip(words, rows) if r >= 0])
        means.append(weights @ vecs / len(vecs))
    means = np.asarray(means)
    np.testing.assert_allclose(sif_means(texts), means, rtol=1e-6)
    u = np.linalg.svd(means)[2][0]
    expected = means - np.outer(means @ u, u)
    got = SIF()(texts)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-9)
    assert np.abs(got @ u).max() < 1e-9  # nothing left along the common component
    assert SIF()(texts).tobytes() == got.tobytes()  # deterministic
    np.testing.assert_allclose(SIF().for_sentences(texts)(texts[:2]), got[:2], rtol=1e-12, atol=1e-15)


def test_sif_fits_on_every_text_of_a_predict_whatever_the_batch_size():
    pairs = [("A dog barks at the cat.", "The cat sleeps."), ("Two men play guitar.", "A man plays a guitar."),
             ("A woman is slicing an onion.", "Someone cuts an onion."), ("The cat sleeps.", "A dog barks.")]
    whole = make_system("sif").fit(pairs).predict(pairs)
    one_by_one = make_system("sif", batch_size=1).fit(pairs).predict(pairs)
    np.testing.assert_allclose(whole, one_by_one, rtol=1e-12)  # batching changes only the last bits
    texts = list(dict.fromkeys(t for p in pairs for t in p))
    emb = SIF()(texts)
    row = {t: i for i, t in enumerate(texts)}
    for (a, b), score in zip(pairs, whole):
        x, y = emb[row[a]], emb[row[b]]
        assert score == pytest.approx(x @ y / np.linalg.norm(x) / np.linalg.norm(y))


def test_encoders_run_through_the_runner_mapped_onto_the_task_range(tmp_path):
    test = corpora.load("demo-test")
    (sub,) = test.subsets
    for name, encode in [("glove-mean", glove_mean), ("sif", SIF())]:
        (path,) = run_system(name, test, tmp_path / name)
        written = np.loadtxt(path)
        expected = 2.5 + 2.5 * cosine_scores(encode, sub.pairs)
        np.testing.assert_allclose(written, expected, atol=5e-4)  # files keep 3 decimals
        assert written.min() >= 0 and written.max() <= 5 and len(written) == len(sub)


def test_encoder_features_by_hand():
    from semsts.features.encoder_features import EncoderFeatures
    pairs = [("ab", "ab"), ("aab", "ab"), ("ab", "..."), ("...", "!!")]
    family = EncoderFeatures(letters).fit(pairs)
    got = family.transform(pairs)
    s2, s5 = np.sqrt(2), np.sqrt(5)
    u, v = np.array([2, 1]) / s5, np.array([1, 1]) / s2  # "aab" and "ab" on the a, b letters
    expected = [[1.0, 0.0, 0.0, 1.0],
                [3 / (s5 * s2), np.abs(u - v).sum(), 1.0, s2 / s5],
                [0.0, 2 / s2, s2, 0.0],  # a zero embedding: cosine 0, its unit vector 0
                [0.0, 0.0, 0.0, 1.0]]
    np.testing.assert_allclose(got, expected)
    assert list(family.get_feature_names_out()) == ["encoderfeatures__cosine", "encoderfeatures__unit_l1",
                                                    "encoderfeatures__euclidean", "encoderfeatures__norm_ratio"]
    assert not family.learns_from_text and clone(family).encode is letters
    with pytest.raises(ValueError, match="needs an encoder"):
        EncoderFeatures().fit(pairs)


def test_an_adapting_encoder_is_fitted_on_the_training_texts_and_kept():
    from semsts.features.encoder_features import EncoderFeatures
    train = [("A dog barks at the cat.", "The cat sleeps."), ("Two men play guitar.", "A man plays a guitar."),
             ("A woman is slicing an onion.", "Someone cuts an onion.")]
    family = EncoderFeatures("sif").fit(train)
    assert family.learns_from_text
    texts = list(dict.fromkeys(t for p in train for t in p))
    component = SIF().for_sentences(texts).component
    np.testing.assert_allclose(family.encoder_.component, component)
    test = [("The cat sleeps.", "A dog barks."), ("A man plays a guitar.", "A man plays a guitar.")]
    whole = family.transform(test)
    np.testing.assert_allclose(np.vstack([family.transform(test[:1]), family.transform(test[1:])]), whole)
    x, y = SIF(component)(["The cat sleeps.", "A dog barks."])
    assert whole[0, 0] == pytest.approx(x @ y / np.linalg.norm(x) / np.linalg.norm(y))


def test_the_encoder_family_joins_a_named_set_only_when_asked():
    from semsts.features.sets import make_union
    plain = list(make_union("takelab").get_feature_names_out())
    with_encoder = list(make_union("takelab", encoder=letters).fit([("a", "b")]).get_feature_names_out())
    assert with_encoder == plain + [f"encoder__encoderfeatures__{n}" for n in ("cosine", "unit_l1", "euclidean", "norm_ratio")]
    assert not any(n.startswith("encoder__") for n in make_union("all").get_feature_names_out())


# --- A user's encoder that fails is one error line naming it (issue 23, case 8): at import, as it runs, or exiting.


MODULES = {
    "enc_raises": "def enc(texts):\n    raise RuntimeError('boom')\n",
    "enc_syntax": "def enc(:\n",
    "enc_exits": "import sys\nsys.exit(3)\n",
    "enc_import": "raise ImportError('no torch here')\n",
}


@pytest.mark.parametrize("spec, expected", [
    ("enc_raises:enc", "encoder enc_raises:enc failed on a batch of 512 texts (RuntimeError: boom)"),
    ("enc_syntax:enc", "importing module 'enc_syntax' failed (SyntaxError: invalid syntax"),
    ("enc_exits:enc", "importing module 'enc_exits' failed (SystemExit: 3)"),
    ("enc_import:enc", "cannot import module 'enc_import' (no torch here)"),
    ("os:system", "failed on a batch of 512 texts (TypeError: "),
])
def test_a_failing_encoder_is_one_error_line(tmp_path, monkeypatch, capsys, spec, expected):
    for name, text in MODULES.items():
        (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cli.main(["run", "--encoder", spec, "--test", "demo-test", "--out", str(tmp_path / "out"), "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and expected in err[0], err


# --- A user's encoder through the command line: as a system (`sts run --encoder`) and as a feature family of
# the regression (`sts train --encoder`, then `sts run --model`), with its spec in the model card.


def test_train_with_an_encoder_family_save_load_and_run(toy_encoder, tmp_path, capsys):
    train, test = pairs_tsv(tmp_path / "train.tsv", 59, 1), pairs_tsv(tmp_path / "test.tsv", 40, 2)
    model = tmp_path / "m.skops"
    assert cli.main(["train", "--train", str(train), "--test", str(test), *SMALL,
                     "--encoder", "toy_encoder:encode", "--save", str(model), "--quiet"]) == 0
    card = json.loads(model.with_suffix(".json").read_text())
    assert card["encoder"] == "toy_encoder:encode" and card["params"]["encoder"] == "toy_encoder:encode"
    assert [n for n in card["feature_names"] if n.startswith("encoder__")] == [
        "encoder__encoderfeatures__cosine", "encoder__encoderfeatures__unit_l1",
        "encoder__encoderfeatures__euclidean", "encoder__encoderfeatures__norm_ratio"]
    models, _ = baselines.load_model(model, encoder="toy_encoder:encode")  # the user's code: named again to run
    assert models.for_subset("x").encoder == "toy_encoder:encode"
    out = tmp_path / "out"
    assert cli.main(["run", "regression", "--model", str(model), "--encoder", "toy_encoder:encode", "--test", str(test),
                     "--out", str(out), "--quiet"]) == 0
    scores = np.loadtxt(next(out.glob("*.txt")))
    assert len(scores) == 40 and np.isfinite(scores).all()
    # the encoder family changes the model: the same training without it gives other predictions
    plain = baselines.make_system("regression", **SMALL_PARAMS, cv=3)
    with_encoder = baselines.make_system("regression", **SMALL_PARAMS, cv=3, encoder="toy_encoder:encode")
    pairs = [("a cat sat .", "the cat sat ."), ("a dog ran .", "the sun set ."), ("a bird flew .", "a bird flew .")] * 4
    y = [4.0, 0.5, 5.0] * 4
    assert not np.allclose(plain.fit(pairs, y).predict(pairs[:3]), with_encoder.fit(pairs, y).predict(pairs[:3]))


def test_an_encoder_runs_as_a_system_and_names_the_run(toy_encoder, tmp_path):
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    out = tmp_path / "out"
    assert cli.main(["run", "--encoder", "toy_encoder:encode", "--test", str(test), "--out", str(out), "--quiet"]) == 0
    record = json.loads((out / "sts-run.json").read_text())
    assert record["system"] == "encoder toy_encoder:encode" and record["complete"]
    scores = np.loadtxt(next(out.glob("STS.output.*")))
    assert len(scores) == 40 and ((scores >= 0) & (scores <= 5)).all()


@pytest.mark.parametrize("argv, message", [
    (["run", "--test", "T", "--out", "O"], "give a SYSTEM to run, --encoder SPEC"),
    (["run", "token-cosine", "--encoder", "sif", "--test", "T", "--out", "O"], "--encoder SPEC runs an encoder on its own"),
    (["run", "--encoder", "no_such_module_x:f", "--test", "T", "--out", "O"], "cannot import module 'no_such_module_x'"),
    (["train", "--train", "T", "--encoder", "no_colon", "--save", "m.skops"], "expected a built-in encoder"),
])
def test_bad_encoder_requests_say_what_is_expected(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pairs_tsv(tmp_path / "T", 20, 3)
    assert cli.main(argv + ["--quiet"]) == 1
    assert message in capsys.readouterr().err


# --- Issue 23, case 9: a long CSV field, complex embeddings.


def test_complex_embeddings_are_refused_not_cast():
    with pytest.raises(ValueError, match="returned complex numbers"):
        embed(lambda texts: np.ones((len(texts), 3)) * (1 + 2j), ["a", "b"], 8)


# --- an error about one pair names the file and the line where the pair's row starts (issue 44, kind 2) ----------

def pair_files(tmp_path, bad_side: str) -> list:
    """``(path, line)``: a headed TSV and a CSV whose earlier field holds newlines, pair 3 having ``bad_side``, and
    the line its row starts on, found in the text itself."""
    tsv = "id\tsentence1\tsentence2\tscore\np1\ta b\ta c\t1\np2\td e\td f\t2\np3\tg h\t" + bad_side + "\t3\n"
    csv = ('id,sentence1,sentence2,score\np1,"a b\nwritten over\r\nthree lines",a c,1\np2,d e,"d\nf",2\n'
           f'p3,g h,"{bad_side}",3\n')
    out = []
    for name, text in [("pairs.tsv", tsv), ("pairs.csv", csv)]:
        path = write(tmp_path / name, text)
        out.append((path, text[:text.index("p3")].count("\n") + 1))
    assert [line for _, line in out] == [4, 7]
    return out


def nan_for_bad(texts):
    return np.asarray([[np.nan, 1.0] if t == "bad" else [1.0, float(len(t))] for t in texts])


def refuse_empty(texts):
    if any(not t.strip() for t in texts):
        raise ValueError("empty input")
    return np.ones((len(texts), 2))


@pytest.mark.parametrize("bad_side, encode, message", [
    ("bad", nan_for_bad, "encoder .*nan_for_bad gave a NaN or infinite embedding for 'bad'"),
    ("  ", refuse_empty, r"encoder .*refuse_empty failed on a batch of \d texts \(ValueError: empty input\); "
                         "the batch holds the empty text '  '")])
def test_an_encoders_error_about_one_text_names_the_file_and_line_of_its_pair(tmp_path, bad_side, encode, message):
    for path, line in pair_files(tmp_path, bad_side):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the note of an empty text (tests/test_user_data.py)
            test = corpora.resolve(path)
        with pytest.raises(corpora.FormatError, match=f"^{path}:{line}: {message}$"):
            run_system(EncoderSimilarity(encode, cache=False), test, tmp_path / "out")


@pytest.mark.parametrize("bad_side, encode", [("bad", nan_for_bad), ("", refuse_empty)])
def test_an_encoder_feature_of_the_regression_names_the_file_and_line_too(tmp_path, bad_side, encode):
    from semsts.baselines.run import predict_group
    from semsts.features.encoder_features import EncoderFeatures

    class Model:  # what the regression's featurizer does with an encoder family
        def predict(self, pairs):
            return EncoderFeatures(encode).fit(pairs).transform(pairs)[:, 0]

    for path, line in pair_files(tmp_path, bad_side):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            test = corpora.resolve(path)
        with pytest.raises(corpora.FormatError, match=f"^{path}:{line}: encoder "):
            predict_group(Model(), list(test.subsets))


@pytest.mark.parametrize("bad_side, encode", [("bad", nan_for_bad), ("", refuse_empty)])
def test_an_encoder_feature_failing_on_a_training_pair_names_its_file_and_line(tmp_path, bad_side, encode):
    from sklearn.base import BaseEstimator

    from semsts.features.encoder_features import EncoderFeatures

    class Learner(BaseEstimator):  # learns from gold, featurizing with an encoder family as the regression does
        def fit(self, X, y=None):
            EncoderFeatures(encode).fit(X).transform(X)
            return self

        def predict(self, X):
            return np.zeros(len(X))

    test = corpora.load("demo-test")
    for path, line in pair_files(tmp_path, bad_side):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            train = corpora.resolve(path)
        with pytest.raises(corpora.FormatError, match=f"^{path}:{line}: encoder "):
            run_system(Learner(), test, tmp_path / "out", [train])

# --- Issue 44, kind 5: an encoder is handed a copy of its texts, and one that changes it is one clear error


def _appends(texts):
    texts.append("extra")
    return letters(texts)


def _pops(texts):
    texts.pop(0)
    return letters(texts)


def _reverses(texts):
    texts.reverse()
    return letters(texts)


class _FitsAndPops:
    def for_sentences(self, texts):
        texts.pop()
        return letters

    def __call__(self, texts):
        return letters(texts)


@pytest.mark.parametrize("encoder, how, doing", [(_appends, "it left 5", "encoder"), (_pops, "it left 3", "encoder"),
                                                 (_reverses, "it reordered or replaced some", "encoder"),
                                                 (_FitsAndPops(), "it left 3", "fitting")])
def test_an_encoder_that_changes_the_texts_it_is_handed_is_one_clear_error_never_misplaced_vectors(encoder, how, doing):
    pairs = [("ab", "cd"), ("abc", "abd")]
    held = list(pairs)
    expected = (f"changed the list of 4 texts it was handed ({how}): what it returned cannot be matched to them; "
                "it must leave the list as handed (copy it to change it)")
    with pytest.raises(ValueError) as info:
        EncoderSimilarity(encoder, cache=False).fit([]).predict(pairs)
    assert str(info.value).startswith("encoder ") and str(info.value).endswith(expected) and pairs == held


# --- Issue 44, kind 6: values beyond a float and masked entries: one error at the text's first pair


@pytest.mark.parametrize("value, what", [
    (10**400, "a value beyond a float's range in the embedding"),
    (Fraction(10**400, 3), "a value beyond a float's range in the embedding"),
    (np.ma.masked, "an embedding with a masked entry"),
], ids=["int", "fraction", "masked"])
def test_an_embedding_no_float_holds_is_an_error_at_its_texts_first_pair(value, what):
    def enc(texts):
        rows = [[1, 2] if t != "bad" else [9 if value is np.ma.masked else value, 2] for t in texts]
        return np.ma.array(rows, mask=[[t == "bad", False] for t in texts]) if value is np.ma.masked else rows
    with pytest.raises(PairError) as info:
        EncoderSimilarity(enc, cache=False).fit([]).predict([("a", "b"), ("c", "bad"), ("bad", "a")])
    assert info.value.index == 1 and str(info.value).endswith(f"gave {what} for 'bad'"), str(info.value)
    # a masked array with nothing masked is its values
    unmasked = embed(lambda texts: np.ma.array(np.ones((len(texts), 2)), mask=False), ["a", "b"], 8)
    assert unmasked.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_an_endless_iterable_from_an_encoder_is_refused_unread():
    def endless():
        while True:
            yield [1.0, 2.0]
    with pytest.raises(ValueError, match=r"returned generator, not a numeric \(n, d\) array"):
        embed(lambda texts: endless(), ["a", "b"], 8)


@pytest.mark.parametrize("bad_side, encode", [("bad", nan_for_bad), ("", refuse_empty)])
def test_a_regimes_training_pair_an_encoder_feature_fails_on_names_its_file_and_line(tmp_path, bad_side, encode):
    """`sts train --train FILE` (a custom regime) fits as `sts run --train` does: within run.at_lines."""
    from semsts.baselines.regimes import custom_regime, train_regime
    for path, line in pair_files(tmp_path, bad_side):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(corpora.FormatError, match=f"^{path}:{line}: encoder "):
                train_regime(custom_regime([str(path)]), encoder=encode, **SMALL_PARAMS)
