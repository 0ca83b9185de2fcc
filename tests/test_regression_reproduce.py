"""The committed reference models reproduce the test-set scores written in their cards."""
from pathlib import Path

import pytest

from semsts import corpora, evaluate
from semsts.baselines.model_file import load_model
from semsts.baselines.subset_models import predict_subsets

MODELS = Path(__file__).resolve().parents[1] / "models"
# The features are computed without BLAS (features.exact): the same bits on every CPU. What is left (the SVR's
# kernel sums, library releases) moves a prediction by ~1e-12; the contract is the card's figures to 1e-6, on
# every supported Python with what pip resolves (under other versions the canaries decide, baselines.model_file).
TOLERANCE = 1e-6


@pytest.mark.parametrize("regime", ["sts2012", "sts2013", "stsb"])
def test_committed_model_reproduces_its_card(regime, data_dir):
    models, card = load_model(MODELS / f"{regime}.skops")
    test = card["scores"]["test"]
    dataset = corpora.load(test["dataset"], data_dir)
    result = evaluate.score_subsets([(sub.name, scores, sub.gold) for sub, scores in predict_subsets(models, dataset)])
    for key in ("all", "allnorm", "mean"):
        assert result[key] == pytest.approx(test[key], abs=TOLERANCE), key
    for name, entry in test["subsets"].items():
        assert result["subsets"][name]["pearson"] == pytest.approx(entry["pearson"], abs=TOLERANCE), name


def test_sts2012_regime_maps_the_surprise_subsets():
    models, card = load_model(MODELS / "sts2012.skops")
    assert models.model_name("surprise.SMTnews") == "SMTeuroparl"
    assert models.model_name("surprise.OnWN") == "all" and models.model_name("headlines") == "all"
    assert card["training_data"]["sub_models"]["MSRpar"]["pairs"] == 750
