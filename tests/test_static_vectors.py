"""The families on WordLlama's static vectors (features.static_vectors): BERTScore-style alignment and SIF."""
import numpy as np
import pytest

from semsts.features.static_vectors import StaticAlignment, StaticSIF

TEXTS = ["A man is playing a flute.", "A man plays the flute!", "The economy grew by 3.2% in 2019.", "",
         "Un café, s'il vous plaît", "don't stop"]


def test_alignment_is_bertscore_with_static_vectors():
    f = StaticAlignment()
    names = [n.split("__")[-1] for n in f.get_feature_names_out()]
    same = dict(zip(names, f.transform([("A cat sat on the mat.", "A cat sat on the mat.")])[0]))
    assert all(v == 1.0 for v in same.values())
    near, far = f.transform([("A cat sleeps.", "A dog sleeps."), ("A cat sleeps.", "The economy grows.")])
    assert (near > far).all()
    a, b = f.transform([("A man plays a flute.", "A man plays a flute loudly in the park."),
                        ("A man plays a flute loudly in the park.", "A man plays a flute.")])
    assert a.tolist() == b.tolist()  # a pair has no first side
    row = dict(zip(names, a))
    assert row["words_max"] == 1.0 > row["words_min"] and row["words_f"] == pytest.approx(
        2 * row["words_min"] / (1 + row["words_min"]))


def test_sif_removes_the_training_texts_common_component():
    train = [(a, b) for a, b in zip(TEXTS, TEXTS[1:])]
    f = StaticSIF().fit(train)
    assert f.components_.shape == (2, 256)
    np.testing.assert_allclose(np.linalg.norm(f.components_, axis=1), 1.0)
    same, other = f.transform([("A man is playing a flute.", "A man is playing a flute."),
                               ("A man is playing a flute.", "The economy grew.")])
    assert same == pytest.approx([1.0, 1.0], abs=1e-15) and (other < 0.9).all()
    again = StaticSIF().fit(list(reversed(train)))  # fitted on the distinct texts, whatever their order
    assert again.components_.tobytes() == f.components_.tobytes()
