"""Tests of semsts.baselines.run: a system writes its outputs in its training gold units."""
import numpy as np
import pytest

from semsts import corpora
from semsts.baselines.regression import FeatureRegression
from semsts.baselines.run import run_system
from semsts.baselines.token_cosine import TokenCosine
from tests.conftest import SMALL_PARAMS, pairs_tsv

# --- A system fitted on gold predicts on its training gold's scale: on a test set of that scale its outputs are only
# clipped, never mapped from [0, 5] (issue 23, case 1). Systems with units of their own (cosines) are still mapped,
# and so is a model applied to a task of another scale (an STS-B model on SICK: [0, 5] onto [1, 5]).


def scaled_table(path, n, seed, scale, shift=0.0):
    pairs_tsv(path, n, seed)
    lines = path.read_text().splitlines()
    rows = [line.split("\t") for line in lines[1:]]
    out = [lines[0]] + [f"{a}\t{b}\t{shift + scale * float(score):.2f}" for a, b, score in rows]
    path.write_text("\n".join(out) + "\n")
    return path


@pytest.mark.parametrize("scale, shift, score_range", [(2.0, 0.0, (0.0, 10.0)), (0.8, 1.0, (1.0, 5.0))])
def test_the_regression_writes_the_gold_units(tmp_path, scale, shift, score_range):
    train = corpora.load_path(scaled_table(tmp_path / "train.tsv", 120, 1, scale, shift), score_range=score_range)
    test = corpora.load_path(scaled_table(tmp_path / "test.tsv", 40, 2, scale, shift), score_range=score_range)
    system = FeatureRegression(param_grid={"C": [8.0]}, **SMALL_PARAMS)
    (path,) = run_system(system, test, tmp_path / "out", train=[train])
    written, _ = corpora.read_output(path, len(test.pairs), score_range=score_range)
    expected = system.predict(test.pairs)
    assert np.allclose(written, expected, atol=1e-6)  # the estimator's own predictions, in the gold's units
    assert expected.min() >= score_range[0] and expected.max() <= score_range[1]
    if score_range == (0.0, 10.0):
        assert expected.max() > 6  # not clipped at 5
    assert np.corrcoef(written, [g for sub in test for g in sub.gold])[0, 1] > 0.8


def test_a_cosine_system_is_still_mapped_onto_the_task_range(tmp_path):
    test = corpora.load_path(scaled_table(tmp_path / "test.tsv", 40, 2, 2.0), score_range=(0.0, 10.0))
    system = TokenCosine()
    (path,) = run_system(system, test, tmp_path / "out")
    written, _ = corpora.read_output(path, len(test.pairs), score_range=(0.0, 10.0))
    assert np.allclose(written, np.clip(2 * system.predict(test.pairs), 0, 10), atol=1e-6)


def test_a_cosine_system_takes_its_score_range(tmp_path):
    """TokenCosine's ``score_range`` (once a ``scale`` multiplier): (0, 5) is cosine x 5 to the bit, and a run reads
    the system's own range from it, so a cosine on (0, 10) written for a (0, 10) task is not mapped again."""
    from semsts.baselines.token_cosine import token_cosine_many
    test = corpora.load_path(scaled_table(tmp_path / "test.tsv", 40, 2, 2.0), score_range=(0.0, 10.0))
    cosines = token_cosine_many(test.pairs)
    assert np.array_equal(TokenCosine().fit(test.pairs).predict(test.pairs), cosines * 5.0)
    wide = TokenCosine(score_range=(0.0, 10.0))
    (path,) = run_system(wide, test, tmp_path / "out")
    written, _ = corpora.read_output(path, len(test.pairs), score_range=(0.0, 10.0))
    assert np.allclose(written, cosines * 10.0, atol=1e-6)
    with pytest.raises(ValueError, match="score_range must be two finite numbers, low < high"):
        TokenCosine(score_range=(5.0, 0.0)).fit(test.pairs)


def test_training_data_of_two_scales_is_refused(tmp_path):
    a = corpora.load_path(scaled_table(tmp_path / "a.tsv", 30, 1, 2.0), score_range=(0.0, 10.0))
    b = corpora.load_path(scaled_table(tmp_path / "b.tsv", 30, 2, 1.0))
    with pytest.raises(ValueError, match=r"mixes score scales \(\[0, 5\], \[0, 10\]\)"):
        run_system(FeatureRegression(**SMALL_PARAMS), b, tmp_path / "out", train=[a, b])


def sick_table(path, n, seed):
    """``n`` pairs in SICK's format, scored on its [1, 5] scale (1 + 0.8 x the words they share)."""
    from semsts.corpora import sick
    rows = [line.split("\t") for line in pairs_tsv(path, n, seed).read_text().splitlines()[1:]]
    lines = ["\t".join(sick.HEADER)] + [f"{i}\t{a}\t{b}\t{1 + 0.8 * float(k):.2f}\tNEUTRAL"
                                         for i, (a, b, k) in enumerate(rows, 1)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_sts_train_records_the_scale_and_sts_run_writes_it(tmp_path, capsys):
    """``sts train`` on gold of a scale other than [0, 5] (SICK's [1, 5]) records it in the card, and ``sts run
    --model`` on a test set of that scale writes the model's own scores, clipped to it, never mapped from [0, 5]."""
    import json

    from semsts import cli
    sick_table(tmp_path / "train.txt", 120, 1)
    sick_table(tmp_path / "test.txt", 40, 2)
    small = ["--feature-set", "takelab", "--exclude", "wordnet", "--exclude", "gloss", "--exclude", "distributional",
             "--exclude", "embedding"]
    assert cli.main(["train", "--train", str(tmp_path / "train.txt"), *small,
                     "--save", str(tmp_path / "m.skops"), "--quiet"]) == 0
    assert json.loads((tmp_path / "m.json").read_text())["params"]["score_range"] == [1.0, 5.0]
    assert cli.main(["run", "regression", "--model", str(tmp_path / "m.skops"), "--test", str(tmp_path / "test.txt"),
                     "--out", str(tmp_path / "out"), "--quiet"]) == 0
    (written,) = (tmp_path / "out").glob("*.txt")
    test = corpora.load_path(tmp_path / "test.txt")
    scores, _ = corpora.read_output(written, len(test.pairs), score_range=(1.0, 5.0))
    from semsts.baselines.model_file import load_model
    models, _ = load_model(tmp_path / "m.skops")
    expected = np.clip(models.models["all"].predict(test.pairs), 1.0, 5.0)
    assert np.allclose(scores, expected, atol=1e-6)  # the model's own scores, on the recorded [1, 5], not remapped
    assert not np.allclose(scores, 1 + 0.8 * np.clip(expected, 0.0, 5.0), atol=1e-3)  # what mapping would write
    assert np.corrcoef(scores, test.subsets[0].gold)[0, 1] > 0.8


def test_no_cv_figure_from_folds_of_two_pairs(tmp_path, capsys):
    """Issue 23, case 3: ten training pairs in five folds printed 'CV Pearson 1.0000'."""
    from semsts import cli
    pairs_tsv(tmp_path / "train.tsv", 10, 1)
    small = ["--feature-set", "takelab", "--exclude", "wordnet", "--exclude", "gloss", "--exclude", "distributional",
             "--exclude", "embedding"]
    assert cli.main(["train", "--train", str(tmp_path / "train.tsv"), *small,
                     "--save", str(tmp_path / "m.skops")]) == 0
    out = capsys.readouterr().out
    assert "CV Pearson" not in out and "no CV figure: held-out folds of 2 pairs: too few for a CV figure" in out


def test_rescale_is_exact_for_ranges_near_the_floats_limits():
    """From or onto a range whose width or product overflows a float, each score is where the exact rational map
    puts it (computed with Fractions); an ordinary range keeps the bit-exact ``s * 5``."""
    from fractions import Fraction

    from semsts.baselines.base import rescale

    def exact(s, source, target):
        (a, b), (c, d) = [tuple(map(Fraction, r)) for r in (source, target)]
        return float(c + (Fraction(s) - a) * (d - c) / (b - a))
    cases = [((-1e308, 1e308), (0.0, 5.0), [-1e308, -9e307, 0.5, 3e307, 1e308]),
             ((0.0, 1e308), (0.0, 5.0), [0.0, 4e307, 1e308]), ((0.0, 5.0), (-1e308, 1e308), [0.0, 1.0, 2.5, 5.0]),
             ((0.0, 1.0), (0.0, 1e308), [0.25, 1.0])]
    for source, target, scores in cases:
        got = rescale(scores, source, target)
        assert np.isfinite(got).all()
        assert got.tolist() == pytest.approx([exact(s, source, target) for s in scores], rel=1e-15, abs=1e-300)
    scores = np.random.default_rng(0).uniform(0, 1, 50)
    assert np.array_equal(rescale(scores, (0.0, 1.0), (0.0, 5.0)), scores * 5.0)


def test_a_scorer_whose_range_overflows_is_one_error_or_right_scores(tmp_path, monkeypatch, capsys):
    """Issue 44's instance: a declared score_range of (-1e308, 1e308) is refused in one line (mapped onto [0, 5],
    every score below 1e292 would land on 2.5 exactly: no correlation left); a scorer declaring none whose scores
    span (-1e308, 1e308) is mapped from there exactly, where it gave "score 1 is nan"."""
    from semsts import cli
    (tmp_path / "wide.py").write_text("def declared(pairs):\n    return [0.0] * len(pairs)\n"
                                      "declared.score_range = (-1e308, 1e308)\n"
                                      "def learned(pairs):\n    return [[1e308, -1e308][i] if i < 2 else i / 100 "
                                      "for i in range(len(pairs))]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    test = pairs_tsv(tmp_path / "test.tsv", 20, 2)
    assert cli.main(["run", "--scorer", "wide:declared", "--test", str(test), "--out", str(tmp_path / "o")]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "error: scorer wide:declared: score_range must be two finite numbers, low < high, whose difference is a "
        "finite float; got (-1e+308, 1e+308)")
    assert cli.main(["run", "--scorer", "wide:learned", "--test", str(test), "--out", str(tmp_path / "o2"),
                     "--quiet"]) == 0
    written, _ = corpora.read_output(tmp_path / "o2" / "STS.output.test.txt", 20)
    by_hand = [5.0, 0.0] + [2.5 + 2.5 * (i / 100) / 1e308 for i in range(2, 20)]  # 2.5 to six decimals and beyond
    assert written.tolist() == pytest.approx(by_hand, abs=1e-12)


def test_an_input_whose_name_makes_too_long_an_output_name_is_named_before_anything_is_written(tmp_path, capsys):
    """Issue 44, kind 7: a user's file of a 240-character name gives the output STS.output.NAME.txt, too long once
    its temporary is beside it: the input is named, and the output folder is not even made."""
    from semsts import cli
    test = pairs_tsv(tmp_path / ("x" * 240 + ".tsv"), 10, 2)
    assert cli.main(["run", "token-cosine", "--test", str(test), "--out", str(tmp_path / "o"), "--quiet"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"error: {test}: its name makes an output file name of 255 bytes ('STS.output.{'x' * 49}'… (255 "
        "characters)); a file written here has at most 241: give the input a shorter name"]
    assert not (tmp_path / "o").exists()


def test_a_system_of_ones_own_is_held_to_the_one_range_check_when_its_scores_are_mapped(tmp_path):
    """Issue 44, kind 7: the runner maps any system's scores from its score_range: one of (-1e308, 1e308) on a
    system of one's own is the same one error as a scorer's, not scores squeezed to 2.5."""
    from semsts.baselines.base import PairRegressor

    class Wide(PairRegressor):
        score_range = (-1e308, 1e308)

        def _predict(self, pairs):
            return np.zeros(len(pairs))
    test = corpora.load_path(pairs_tsv(tmp_path / "test.tsv", 10, 2))
    with pytest.raises(ValueError, match=r"^Wide's score_range must be two finite numbers, low < high, whose "
                                         r"difference is a finite float; got \(-1e\+308, 1e\+308\)$"):
        run_system(Wide(), test, tmp_path / "out")
    assert not (tmp_path / "out" / "STS.output.test.txt").exists()


@pytest.mark.parametrize("scores, confidences, message", [
    ([1.0, np.nan, 2.0], None, "the system's score nan is not a finite number"),
    ([1.0, 2.0, 3.0], [5.0, 101.0, 5.0], "the system's confidence 101.0 is not a finite number within [0, 100]")])
def test_a_systems_bad_score_or_confidence_names_the_file_and_line_of_its_pair(tmp_path, scores, confidences, message):
    """Was `score 2 is nan` (the pair's index + 1, no file) from the output writer, the file having a header."""
    from sklearn.base import BaseEstimator

    class System(BaseEstimator):
        def fit(self, X, y=None):
            return self

        def predict(self, X):
            return np.asarray(scores)

        def predict_confidence(self, X):
            return None if confidences is None else np.asarray(confidences)

    path = tmp_path / "mine.tsv"
    path.write_text("s1\ts2\tscore\na\tb\t1\nc\td\t2\ne\tf\t3\n", encoding="utf-8")
    with pytest.raises(corpora.FormatError) as caught:
        run_system(System(), corpora.resolve(path), tmp_path / "out")
    assert str(caught.value) == f"{path}:3: {message}"
    assert not (tmp_path / "out").exists()
