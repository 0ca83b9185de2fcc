"""Feature families by name and the named feature sets (`takelab`, `dkpro`, `all`) built from them."""
from __future__ import annotations

from sklearn.pipeline import FeatureUnion

from semsts.core.errors import InvalidValue

from .alignment import Alignment
from .distributional import Distributional
from .edit import EditSimilarity
from .embedding import EmbeddingSimilarity
from .encoder_features import EncoderFeatures
from .gloss_features import GlossSimilarity
from .lengths import Lengths
from .ngrams import NgramOverlap
from .scorer_features import ScorerFeatures
from .shallow import CapitalOverlap, NegationOverlap, NumberOverlap
from .static_vectors import StaticAlignment, StaticSIF
from .substrings import CommonSubstrings
from .weighted import WeightedOverlap
from .wordnet_features import WordNetOverlap

# family name -> list of (step name, factory); one family is what the ablation removes at once
FAMILIES = {
    "word_ngrams": [("word", lambda: NgramOverlap("word", (1, 2, 3)))],
    "lemma_ngrams": [("lemma", lambda: NgramOverlap("lemma", (1, 2, 3)))],
    "content_ngrams": [("content", lambda: NgramOverlap("content", (1, 2)))],
    "char_ngrams": [("char", lambda: NgramOverlap("char", (2, 3, 4, 5)))],
    "edit": [("edit", EditSimilarity)],
    "substrings": [("substrings", CommonSubstrings)],
    "weighted": [("weighted", WeightedOverlap)],
    "wordnet": [("wordnet", WordNetOverlap)],
    "shallow": [("numbers", NumberOverlap), ("capitals", CapitalOverlap), ("negation", NegationOverlap)],
    "lengths": [("lengths", Lengths)],
    "distributional": [("distributional", Distributional)],
    "gloss": [("gloss", GlossSimilarity)],
    "embedding": [("embedding", EmbeddingSimilarity)],
    "alignment": [("alignment", Alignment)],
    # word meaning from WordLlama's static vectors (semsts.corpora.wordllama)
    "wordllama_alignment": [("wordllama_alignment", StaticAlignment)],
    "wordllama_sif": [("wordllama_sif", StaticSIF)],
    "wordllama_encoder": [("wordllama_encoder", lambda: EncoderFeatures("wordllama"))],
}

# What each system is known for, as far as our resources reach (TakeLab: n-grams, WordNet,
# weighted overlap, LSA, numbers/NEs, lengths; DKPro: string similarity, char/word n-grams,
# WordNet-based and distributional similarity; both used LSA/ESA on large corpora, here GloVe vectors
# and an LSA of WordNet's glosses).
SETS = {
    "takelab": ("word_ngrams", "lemma_ngrams", "weighted", "wordnet", "shallow", "lengths", "distributional",
                "gloss", "embedding"),
    "dkpro": ("word_ngrams", "char_ngrams", "content_ngrams", "substrings", "edit", "wordnet", "weighted", "distributional",
              "gloss", "embedding"),
    "all": tuple(FAMILIES),
}
# The reference system (the regression's default): every family but `substrings`. Left out alone in the ablation
# (benchmarks/RESULTS.md#regression-ablation), it did not move stsb-dev's Pearson beyond the noise (the choice looked
# at no test set), and it cost a quarter of the featurizing time at STS lengths (GST tiled three times a pair, in
# Python). Its longest common substring and GST remain the CLSS baselines `lcs` and `gst`, and a family of the
# `dkpro` and `all` sets.
SETS["reference"] = tuple(family for family in FAMILIES if family != "substrings")
DEFAULT_SET = "reference"


def set_names() -> list[str]:
    return list(SETS)


def families_of(feature_set: str, *, exclude=()) -> list[str]:
    """The families of a named set, less ``exclude``; unknown names are refused."""
    if feature_set not in SETS:
        raise InvalidValue(f"unknown feature set {feature_set!r}; known: {', '.join(SETS)}")
    unknown = [f for f in exclude if f not in FAMILIES]
    if unknown:
        raise InvalidValue(f"unknown feature families {unknown}; known: {', '.join(FAMILIES)}")
    families = [f for f in SETS[feature_set] if f not in exclude]
    if not families:
        raise InvalidValue(f"excluding {list(exclude)} leaves no family in {feature_set!r}")
    return families


def make_union(feature_set: str = DEFAULT_SET, *, exclude=(), encoder=None, scorer=None) -> FeatureUnion:
    """A fresh FeatureUnion of the set's families (``exclude`` removes families, for ablations);
    ``encoder`` (a callable or spec, see :mod:`semsts.features.encoders`) adds its family, then ``scorer`` (a pair
    scorer, :mod:`semsts.features.scorers`) its score, last.

    Its families are fitted one after another in this process whatever joblib's ``parallel_config``
    (featurization is parallel by chunks instead): a family fitted in a worker comes back as a copy
    that pickles to other bytes, and a model file must not depend on how its training ran.
    """
    steps = [(name, factory()) for family in families_of(feature_set, exclude=exclude)
             for name, factory in FAMILIES[family]]
    if encoder is not None:
        steps.append(("encoder", EncoderFeatures(encoder)))
    if scorer is not None:
        steps.append(("scorer", ScorerFeatures(scorer)))
    return FeatureUnion(steps, n_jobs=1)
