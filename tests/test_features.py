"""Each feature family on hand-made pairs with values worked out by hand."""
import math

import numpy as np
import pytest
from sklearn.base import clone

from semsts.corpora.wordnet import morphy, word_similarity
from semsts.features.distributional import Distributional
from semsts.features.edit import EditSimilarity
from semsts.features.lengths import Lengths
from semsts.features.ngrams import NgramOverlap
from semsts.features.sets import FAMILIES, SETS, make_union
from semsts.features.shallow import CapitalOverlap, NegationOverlap, NumberOverlap
from semsts.features.text import analyse
from semsts.features.weighted import WeightedOverlap, information_content
from semsts.features.wordnet_features import WordNetOverlap


def row(family, a, b):
    return dict(zip(family.get_feature_names_out(), family.fit([(a, b)]).transform([(a, b)])[0]))


def test_analysis_tokens_lemmas_content_numbers():
    an = analyse("The men were riding 2,000 bikes in Paris, didn't they?")
    assert an.words == ("the", "men", "were", "riding", "2,000", "bikes", "in", "paris", "didn't", "they")
    assert an.lemmas[1:4] == ("man", "were", "ride") and an.lemmas[5] == "bike"
    assert an.content == ("man", "ride", "bike", "paris", "didn't")
    assert an.numbers == {"2000"} and an.capitalized == {"paris"} and an.negations == 1


def test_morphy_prefers_exceptions_then_verbs():
    assert [morphy(w) for w in ("was", "men", "dancing", "onions", "gas", "news")] == \
        ["be", "man", "dance", "onion", "gas", "news"]


def test_word_ngram_overlap_known_values():
    # words a b c d / a b c e: unigrams share 3 of 4 each side; bigrams share 2 of 3; trigrams 1 of 2
    values = row(NgramOverlap("word", (1, 2, 3)), "a b c d", "a b c e")
    nm = "ngramoverlap__word"
    assert values[f"{nm}1_contain_ab"] == pytest.approx(3 / 4)
    assert values[f"{nm}1_jaccard"] == pytest.approx(3 / 5)
    assert values[f"{nm}1_dice"] == pytest.approx(6 / 8)
    assert values[f"{nm}2_jaccard"] == pytest.approx(2 / 4)
    assert values[f"{nm}3_contain_ba"] == pytest.approx(1 / 2)


def test_containment_is_directional():
    values = row(NgramOverlap("word", (1,)), "a b", "a b c d")
    assert values["ngramoverlap__word1_contain_ab"] == 1.0
    assert values["ngramoverlap__word1_contain_ba"] == 0.5


def test_char_and_lemma_levels():
    values = row(NgramOverlap("char", (2,)), "abc", "abd")  # {ab, bc} vs {ab, bd}
    assert values["ngramoverlap__char2_jaccard"] == pytest.approx(1 / 3)
    values = row(NgramOverlap("lemma", (1,)), "The men ride", "the man rode")
    assert values["ngramoverlap__lemma1_jaccard"] == 1.0
    values = row(NgramOverlap("content", (1,)), "the cat sat", "a cat sat on it")
    assert values["ngramoverlap__content1_jaccard"] == 1.0


def test_bad_level_is_refused():
    with pytest.raises(ValueError, match="level must be one of"):
        NgramOverlap("sentence").transform([("a", "b")])


def test_edit_similarity_known_values():
    values = row(EditSimilarity(), "kitten", "sitting")
    assert values["editsimilarity__levenshtein"] == pytest.approx(1 - 3 / 7)
    values = row(EditSimilarity(), "a man rides", "a man rode")  # lemmas: a man ride / a man ride
    assert values["editsimilarity__word_levenshtein"] == 1.0


def test_weighted_overlap_weighs_rare_words_more():
    assert information_content("xylophone") > information_content("the")
    rare = row(WeightedOverlap(), "the xylophone", "the drum")["weightedoverlap__word_harmonic"]
    common = row(WeightedOverlap(), "the xylophone", "a xylophone")["weightedoverlap__word_harmonic"]
    assert common > 0.8 > 0.2 > rare
    values = row(WeightedOverlap(), "a b", "a c")
    expected = information_content("a") / (information_content("a") + information_content("b"))
    assert values["weightedoverlap__word_ab"] == pytest.approx(expected)


def test_wordnet_similarity_and_overlap():
    assert word_similarity("bike", "bicycle") == 1.0  # same synset
    assert word_similarity("dog", "cat") == pytest.approx(0.2)  # NLTK's path_similarity(dog.n.01, cat.n.01)
    assert word_similarity("dog", "quickly") == 0.0
    values = row(WordNetOverlap(), "A man rides a bicycle.", "A man rides a bike.")
    assert values["wordnetoverlap__augmented_harmonic"] == 1.0
    values = row(WordNetOverlap(), "dog", "cat")
    assert values["wordnetoverlap__augmented_ab"] == pytest.approx(0.2)
    assert values["wordnetoverlap__synonym_share"] == 0.0


def test_numbers_capitals_negation():
    values = row(NumberOverlap(), "sold 5 of 10", "sold 5 of 12")
    assert values["numberoverlap__jaccard"] == pytest.approx(1 / 3)
    assert values["numberoverlap__subset"] == 0.0
    assert values["numberoverlap__log_count"] == pytest.approx(math.log(5))
    values = row(CapitalOverlap(), "He met Obama in Paris", "She met Obama in Rome")
    assert values["capitaloverlap__jaccard"] == pytest.approx(1 / 3)
    values = row(NegationOverlap(), "He did not go", "He went")
    assert values["negationoverlap__mismatch"] == 1.0
    assert row(NegationOverlap(), "He didn't go", "He never went")["negationoverlap__mismatch"] == 0.0


def test_lengths():
    values = row(Lengths(), "one two three four", "one two")
    assert values["lengths__log_words_min"] == pytest.approx(math.log(3))
    assert values["lengths__words_absdiff_rel"] == pytest.approx(0.5)


def test_distributional_is_fitted_on_training_text():
    train = [("a cat sat on the mat", "a dog sat on the log"), ("the cat ate fish", "a dog ate meat")]
    family = Distributional(n_components=2).fit(train)
    values = family.transform([("a cat sat", "a cat sat"), ("cat", "meat")])
    assert values[0] == pytest.approx([1.0, 1.0, 1.0])
    assert values[1][0] == 0.0  # no shared lemma: tf-idf cosine 0


def test_distributional_counts_a_word_at_a_time_as_scikit_learn_counts_every_ngram(monkeypatch):
    """Issue 46: the family's TF-IDF matrices (public API: our counts, scikit-learn's TfidfTransformer) are
    scikit-learn's `transform`'s to the bit (indices, their order, values), the per-word n-gram columns kept within
    their bound; odd whitespace, accents, a word shorter than the n-grams, an empty text, a word no vocabulary holds."""
    from semsts import corpora
    from semsts.features import distributional
    train = [tuple(p) for p in corpora.load("demo-train").pairs]
    family = Distributional(n_components=5).fit(train)
    texts = [t for p in corpora.load("demo-test").pairs for t in p] + [
        "", "  ", "a", "I", "x" * 60, "Hello   world\t\nnew", "naïve café, São Paulo", "it's 3.5 km—far", "A a A a",
        "non\u00a0breaking\u2003spaces", "zzqxv qqzx"]
    monkeypatch.setattr(distributional, "GRAM_WORDS", 50)
    for vectorizer in (family.words_, family.chars_):
        expected = vectorizer.transform(texts)
        for _ in range(2):  # with the words' columns found, then kept
            got = distributional.tfidf(vectorizer, texts)
            assert got.shape == expected.shape and got.indptr.tolist() == expected.indptr.tolist()
            assert got.indices.tolist() == expected.indices.tolist() and got.data.tobytes() == expected.data.tobytes()
            assert got.indices.dtype == expected.indices.dtype and got.dtype == expected.dtype
        assert len(distributional._grams.get(vectorizer, {})) <= 50


@pytest.mark.parametrize("family", list(FAMILIES))
def test_identical_texts_score_at_the_top(family):
    pairs = [("A man is slicing 3 onions in New York.", "A woman isn't cutting a tomato.")] * 2
    union = make_union("all", exclude=[f for f in FAMILIES if f != family]).fit(pairs)
    same = union.transform([(pairs[0][0], pairs[0][0])])[0]
    names = union.get_feature_names_out()
    similarity = [i for i, n in enumerate(names) if not any(k in n for k in (
        "log_", "absdiff", "mismatch", "any", "both_none", "subset", "ic_gap", "unmatched_count", "unit_l1",
        "euclidean"))]
    assert similarity, family
    assert np.allclose(same[similarity], 1.0), dict(zip(names[similarity], same[similarity]))


def test_named_sets_and_clone():
    for name in SETS:
        union = make_union(name)
        assert len(union.transformer_list) >= 5
    union = make_union("takelab")
    assert clone(union).get_params()["transformer_list"][0][0] == union.transformer_list[0][0]
    with pytest.raises(ValueError, match="unknown feature set"):
        make_union("ukp")


def test_alignment_counts_what_stays_unmatched():
    from semsts.features.alignment import Alignment
    from semsts.features.weighted import information_content
    values = row(Alignment(), "A man plays the guitar", "A man plays the guitar")
    assert values["alignment__aligned_harmonic"] == 1.0 and values["alignment__matched_share"] == 1.0
    values = row(Alignment(), "A man plays the guitar", "A man plays the guitar in Zanzibar")
    # content lemmas: man play guitar / man play guitar zanzibar; only 'zanzibar' has no counterpart
    assert values["alignment__matched_share"] == pytest.approx(1 - 1 / 7)
    assert values["alignment__unmatched_count"] == 1.0
    assert values["alignment__log_unmatched_ic_max"] == pytest.approx(math.log1p(information_content("zanzibar")))


def test_a_pairs_wordnet_table_is_shared_between_families_only_for_sentences():
    """Issue 22: the WordNet table of a sentence pair is computed once for the families that read it in turn
    (read-only, so no family changes another's); a longer pair's is not kept."""
    from semsts.features import wordnet_features
    from semsts.features.wordnet_features import SHARED_CELLS
    la, lb = ["car", "dog", "run"], ["automobile", "cat", "walk", "house"]
    table = wordnet_features.similarity_table(la, lb)
    assert table is wordnet_features.similarity_table(list(la), list(lb))
    assert table == wordnet_features._table(la, lb) and len(table) == 3 and len(table[0]) == 4
    big = [f"w{i}" for i in range(40)]
    assert len(big) * len(big) > SHARED_CELLS
    before = wordnet_features._shared_table.cache_info().currsize
    wordnet_features.similarity_table(big, big)
    assert before == wordnet_features._shared_table.cache_info().currsize
