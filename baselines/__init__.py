"""Systems as scikit-learn regressors over text pairs, and the runner that writes official outputs.

Each name is imported from its module on first use, so that importing a light module of this package
(``semsts.baselines.parallel``, ``semsts.baselines.registry``) does not import scikit-learn: ``sts bench`` and
``sts run`` start their workers before that second of imports.
"""
from __future__ import annotations

import importlib

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


def __getattr__(name: str):
    if name in _API:
        value = getattr(importlib.import_module(f"{__name__}.{_API[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})
