"""token-cosine and random reproduce the STS 2012 and 2013 papers' baseline rows."""
import numpy as np
import pytest

import corpora
import evaluate
from baselines import RandomBaseline, TokenCosine

TABLE1 = {"MSRpar": .4334, "MSRvid": .2996, "SMTeuroparl": .4542, "surprise.OnWN": .5864, "surprise.SMTnews": .3908}
TABLE2 = {"headlines": .5399, "OnWN": .2828, "FNWN": .2146}


def _score(dataset, system):
    return evaluate.score_subsets([(s.name, system.fit(s.pairs).predict(s.pairs), s.gold) for s in dataset])


def test_token_cosine_sts2012(data_dir):
    result = _score(corpora.load("sts2012-test", data_dir), TokenCosine())
    for name, published in TABLE1.items():
        assert round(result["subsets"][name]["pearson"], 4) == published, name
    assert result["all"] == pytest.approx(.3110, abs=5e-4)
    assert result["allnorm"] == pytest.approx(.6732, abs=5e-4)
    assert result["mean"] == pytest.approx(.4356, abs=5e-4)


def test_token_cosine_sts2013(data_dir):
    ds = corpora.load("sts2013-test", data_dir)
    result = _score(ds, TokenCosine())
    assert set(result["subsets"]) == set(TABLE2)
    for name, published in TABLE2.items():
        assert result["subsets"][name]["pearson"] == pytest.approx(published, abs=5e-4), name
    assert any("SMT" in note for note in ds.notes)


def test_whitespace_tokens_follow_perl_split():
    from baselines.token_cosine import whitespace_tokens
    assert whitespace_tokens(" have sex with") == ["", "have", "sex", "with"]
    assert whitespace_tokens("a  b\t c  ") == ["a", "b", "c"]
    assert whitespace_tokens("") == []


def test_random_allnorm_over_ten_seeds(data_dir):
    ds = corpora.load("sts2012-test", data_dir)
    allnorm = [_score(ds, RandomBaseline(seed=seed))["allnorm"] for seed in range(10)]
    assert np.mean(allnorm) == pytest.approx(.58914, abs=0.01)


def test_fisher_interval_of_the_2012_winner():
    lo, hi = evaluate.fisher_ci(.8239, 3108)
    assert (round(lo, 4), round(hi, 4)) == (.8123, .8349)
