"""In-memory scoring (issue 14): ``evaluate.score`` gives the report the files path gives, and
refuses predictions an output file could not hold, naming the subset and the pair index."""
from __future__ import annotations

import numpy as np
import pytest

from semsts import baselines, corpora, evaluate


def test_in_memory_scores_give_the_files_report(tmp_path):
    test = corpora.load("demo-test")
    baselines.run_system("token-cosine", test, tmp_path / "out")
    from_files = evaluate.score_run(test, tmp_path / "out")
    (sub,) = test.subsets
    scores, _ = corpora.read_output(tmp_path / "out" / sub.output_name, len(sub))
    for given in (test, "demo-test"):
        for predictions in (scores, {sub.name: scores}, list(scores)):
            in_memory = evaluate.score(given, predictions)
            assert isinstance(in_memory, evaluate.Report)
            assert in_memory.signature == from_files.signature
            for form in evaluate.RENDERERS:
                assert in_memory.render(form) == from_files.render(form)
    assert evaluate.render_text(in_memory) == from_files.render("text")


def test_a_users_file_is_signed_by_name_and_hash(tmp_path):
    path = tmp_path / "mine.tsv"
    path.write_text("s1\ts2\tscore\n" + "".join(f"a {i}\tb {i}\t{i % 6}\n" for i in range(12)))
    report = evaluate.score(path, np.arange(12) % 6 * 0.9)
    assert report.signature.get("dataset") == f"file=mine.tsv,sha256={corpora.resolve(path).sha256}"


@pytest.mark.parametrize("change, message", [
    (lambda s: np.r_[s[:5], np.nan, s[6:]], "subset 'sts-test', pair index 5: prediction nan is not a finite number"),
    (lambda s: np.r_[s[:2], np.inf, s[3:]], "subset 'sts-test', pair index 2: prediction inf is not a finite number"),
    (lambda s: np.r_[s[:7], 9.0, s[8:]], "subset 'sts-test', pair index 7: prediction 9 is outside the task range [0, 5]"),
    (lambda s: np.r_[s[:7], -0.5, s[8:]], "subset 'sts-test', pair index 7: prediction -0.5 is outside"),
    (lambda s: s[:-1], "subset 'sts-test': 374 predictions for 375 pairs (pair index 374 has no prediction)"),
    (lambda s: np.r_[s, 1.0], "subset 'sts-test': 376 predictions for 375 pairs"),
])
def test_bad_predictions_are_refused_like_bad_output_files(change, message):
    test = corpora.load("demo-test")
    gold = test.subsets[0].gold
    with pytest.raises(ValueError) as info:
        evaluate.score(test, change(gold.copy()))
    assert message in str(info.value)


def test_subsets_must_match_and_a_multi_subset_dataset_needs_a_dict():
    test = corpora.load("sts2012-test")
    with pytest.raises(ValueError, match="give predictions as a dict"):
        evaluate.score(test, np.zeros(10))
    with pytest.raises(ValueError, match="missing: .*MSRvid"):
        evaluate.score(test, {"MSRpar": np.zeros(len(test.subset("MSRpar")))})


def test_rendering_figures_without_a_report_says_what_is_needed():
    with pytest.raises(TypeError, match="expected a Report"):
        evaluate.render_text(evaluate.score_subsets([("a", [1.0, 2.0, 3.0], [1.0, 2.5, 2.0])]))


def test_load_model_is_public():
    assert baselines.load_model is baselines.model_file.load_model
