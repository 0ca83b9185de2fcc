"""Tests of semsts.features.text's long-text bound (issue 23, case 7): the families whose work grows
faster than the text read each side's head, the featurizer says so, and nothing global grows with the data."""
import functools
import random
import sys
import warnings

import numpy as np
import pytest

from semsts.core.errors import Note
from semsts.features.featurizer import PairFeaturizer
from semsts.features.sets import FAMILIES, make_union
from semsts.features.text import MAX_CHARS, cut_pairs, head

# The families whose work grows faster than the text: edit distances and substring tilings are quadratic in
# the characters, the aligning families in the words. Every other family reads each side whole, in linear work.
SUPERLINEAR = {"edit", "substrings", "wordnet", "gloss", "embedding", "alignment", "wordllama_alignment"}

TRAIN = [("A man is playing a guitar.", "A man plays the guitar."),
         ("Two dogs run on the beach.", "A cat sleeps on a sofa."),
         ("The stock market fell sharply today.", "Shares dropped steeply on Monday.")]


def _long_side(seed: int, chars: int) -> str:
    """Sentences of a few common words, then (from half of the head on) of words of the side's own."""
    common = "man woman dog cat guitar beach market share drop rise sofa sleep run play eat bread".split()
    own = ("zebra giraffe unicorn violin trumpet harbour lighthouse" if seed % 2 else
           "tractor bicycle submarine piano cello desert volcano").split()
    rng = random.Random(seed)
    text = ""
    while len(text) < chars:
        words = common if len(text) < MAX_CHARS // 2 else common + own
        text += " ".join(rng.choice(words) for _ in range(8)) + ". "
    return text


def test_head_cuts_only_long_sides():
    assert head("short text") == "short text"
    long = "x" * (MAX_CHARS + 10)
    assert head(long) == "x" * MAX_CHARS
    assert cut_pairs([("a", "b"), ("a", long), (long, "b"), ("x" * MAX_CHARS, "b")]) == [1, 2]


def test_exactly_the_superlinear_families_read_the_head():
    """A new family must decide: listed here as superlinear (and reading the head) or linear (reading all)."""
    reads_head = {family for family, steps in FAMILIES.items() if any(getattr(f(), "reads_head", False) for _, f in steps)}
    assert reads_head == SUPERLINEAR


@pytest.mark.parametrize("family", sorted(SUPERLINEAR))
def test_a_superlinear_family_sees_only_the_head_of_a_long_pair(family):
    a, b = _long_side(1, 3 * MAX_CHARS), _long_side(2, 3 * MAX_CHARS)
    union = make_union("all", exclude=tuple(f for f in FAMILIES if f != family)).fit(TRAIN)
    whole = union.transform([(a, b)])
    heads = union.transform([(a[:MAX_CHARS], b[:MAX_CHARS])])
    np.testing.assert_array_equal(whole, heads)
    assert not np.array_equal(whole, union.transform([(a[:MAX_CHARS // 2], b[:MAX_CHARS // 2])]))  # the head is read


def test_a_linear_family_reads_the_whole_side():
    a, b = _long_side(1, 3 * MAX_CHARS), _long_side(2, 3 * MAX_CHARS) + " unicorn" * 50
    union = make_union("all", exclude=tuple(f for f in FAMILIES if f != "lengths")).fit(TRAIN)
    assert not np.array_equal(union.transform([(a, b)]), union.transform([(a[:MAX_CHARS], b[:MAX_CHARS])]))


def test_the_featurizer_notes_which_families_read_a_head():
    featurizer = PairFeaturizer("all").fit(TRAIN)
    long = _long_side(3, MAX_CHARS + 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        featurizer.transform(TRAIN)
    assert not [w for w in caught if issubclass(w.category, Note)]
    with pytest.warns(Note, match=r"1 of 4 pairs \(the first: pair 3\) have a side over 5,000 characters: the families "
                                  r"edit, substrings, wordnet, gloss, embedding, alignment, wordllama_alignment read its first 5,000"):
        featurizer.transform(TRAIN[:2] + [(long, "b")] + TRAIN[2:])


def test_in_a_run_the_long_side_note_names_the_file_and_line_of_the_first_such_pair(tmp_path):
    from semsts import corpora
    from semsts.baselines.run import predict_group
    featurizer = PairFeaturizer("all").fit(TRAIN)

    class Model:  # what the regression does with its featurizer
        def predict(self, pairs):
            return featurizer.transform(pairs)[:, 0]

    long = _long_side(3, MAX_CHARS + 1)
    path = tmp_path / "pairs.csv"  # a header, then a record over three lines: the long pair's row starts on line 5
    path.write_text(f'sentence1,sentence2\n"a b\nover\nlines",a c\n{long},b\n', encoding="utf-8")
    assert path.read_text(encoding="utf-8").split("\n")[4].startswith(long[:50])
    with pytest.warns(Note, match=rf"1 of 2 pairs \(the first: {path}:5\) have a side over 5,000 characters"):
        predict_group(Model(), list(corpora.resolve(path).subsets))


def _module_containers() -> dict:
    """The size of every dict, list, set and bytearray held at module level by the suite's modules."""
    sizes = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("semsts") and module is not None:
            for attr, value in vars(module).items():
                if isinstance(value, (dict, list, set, bytearray)) and not attr.startswith("__"):
                    sizes[f"{name}.{attr}"] = len(value)
    return sizes


def test_every_cache_of_the_features_has_a_size_limit():
    make_union("all").fit(TRAIN).transform(TRAIN)
    unbounded = [f"{name}.{attr}" for name, module in list(sys.modules.items())
                 if name.startswith("semsts") and module is not None
                 for attr, value in vars(module).items()
                 if isinstance(value, functools._lru_cache_wrapper) and value.cache_parameters()["maxsize"] is None]
    assert not unbounded


def test_nothing_global_grows_with_the_data():
    """Featurizing pairs of words never seen before leaves every module-level table of the suite its size."""
    union = make_union("all").fit(TRAIN)
    union.transform(TRAIN)
    before = _module_containers()
    rng = random.Random(7)
    fresh = [(" ".join(f"zq{rng.randrange(10**9)}" for _ in range(12)),
              " ".join(f"zq{rng.randrange(10**9)}" for _ in range(12))) for _ in range(50)]
    union.transform(fresh)
    after = _module_containers()
    grown = {k: (before.get(k), v) for k, v in after.items() if k in before and v != before[k]}
    assert not grown


def test_the_analyses_kept_are_bounded_by_their_texts_characters(monkeypatch):
    """Issue 46: the analyses kept for the families of a chunk hold at most ANALYSED_CHARS characters of text, then
    the cache starts again (16,384 texts of 5,000 characters had held 1.6 GB a worker), and a text analysed again
    gives the same analysis."""
    from semsts.features import text
    monkeypatch.setattr(text, "ANALYSED_CHARS", 100)
    cache = text.Analyses()
    texts = [f"Text number {i} holds a few words." for i in range(10)]  # 32 characters each: 3 fit in 100
    first = [cache(t) for t in texts]
    assert list(cache.texts) == texts[9:] and cache.chars == 32  # started again after texts 2, 5 and 8
    assert cache(texts[-1]) is first[-1]  # kept
    assert [cache(t) for t in texts] == first == [text.analysis(t) for t in texts]
    monkeypatch.setattr(text, "ANALYSED_TEXTS", 2)
    for t in texts:
        cache(t)
        assert len(cache.texts) <= 2 and cache.chars <= 100
    assert text.analyse(texts[0]) == first[0]
