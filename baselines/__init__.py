"""Systems as scikit-learn regressors over text pairs, and the runner that writes official outputs.

Each name is imported from its module on first use, so that importing a light module of this package
(``semsts.baselines.registry``) does not import scikit-learn: ``sts bench`` and
``sts run`` start their workers before that second of imports.
"""
from __future__ import annotations

from semsts.core.lazy import lazy_names

_API = {  # name -> the module of this package that holds it
    **dict.fromkeys(["PairRegressor", "check_pairs"], "base"),
    **dict.fromkeys(["load_model", "save_model"], "model_file"),
    **dict.fromkeys(["RandomBaseline"], "random_baseline"),
    **dict.fromkeys(["make_system", "system_names"], "registry"),
    **dict.fromkeys(["run_system"], "run"),
    **dict.fromkeys(["SubsetModels"], "subset_models"),
    **dict.fromkeys(["TokenCosine", "token_cosine", "token_cosine_many"], "token_cosine"),
}
__all__ = sorted(_API)
__getattr__, __dir__ = lazy_names(__name__, _API)
