"""typed-regression: per-type regressors over typed similarities, trained on TYPED gold."""
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import LinearRegression

from semsts import cli, corpora
from semsts.baselines import make_system
from semsts.baselines.typed2013_regression import TypedRegression, jaccard
from semsts.corpora import typed2013
from tests.conftest import GOLD


def test_features_and_training_on_typed_gold(typed_root):
    (sub,) = corpora.load("typed2013-test", typed_root).subsets
    model = make_system("typed-regression").fit(sub.pairs, sub.gold)
    X = model.features(sub.pairs)
    assert X.shape == (12, 16) and np.allclose(X[:, :8] * 5, make_system("typed-tfidf").fit(sub.pairs).predict(sub.pairs))
    assert X[11, 8] == 1.0 and np.all(X[4] == 0)  # a record with itself; an empty record
    predicted = model.predict(sub.pairs)
    assert predicted.shape == (12, 8) and predicted.min() >= 0 and predicted.max() <= 5
    linear = TypedRegression(estimator=LinearRegression()).fit(sub.pairs, sub.gold)
    # 16 features for 12 pairs: least squares interpolates, so each column must come back as its own type's gold
    assert np.allclose(linear.predict(sub.pairs), GOLD, atol=1e-6)
    assert clone(linear).get_params()["estimator"].__class__ is LinearRegression
    assert jaccard(["a", "b"], ["b", "c"]) == pytest.approx(1 / 3) and jaccard([], []) == 0


def test_without_gold_it_says_what_to_train_on(typed_root, tmp_path, capsys):
    pairs = corpora.load("typed2013-test", typed_root).subsets[0].pairs
    with pytest.raises(ValueError, match=r"learns from TYPED gold, y of shape \(n, 8\)"):
        TypedRegression().fit(pairs)
    assert cli.main(["run", "typed-regression", "--test", "typed2013-test", "--out", str(tmp_path / "o"),
                     "--data-dir", str(typed_root)]) == 1
    assert "typed-regression learns from scored pairs: give --train DATASET" in capsys.readouterr().err
    train = typed_root / "typed2013" / "train"
    train.parent.joinpath("test").rename(train)  # the same dozen pairs as a training split
    assert cli.main(["run", "typed-regression", "--test", "typed2013-train", "--train", "typed2013-train",
                     "--out", str(tmp_path / "o"), "--data-dir", str(typed_root), "--quiet"]) == 0
    assert corpora.read_typed_output(tmp_path / "o" / typed2013.OUTPUT_NAME, 12).shape == (12, 8)
