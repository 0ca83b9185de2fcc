"""A package's names imported from their modules on first use (PEP 562), so that importing the package stays cheap:
``semsts``, ``semsts.baselines`` and ``semsts.scoring`` give their API this way."""
from __future__ import annotations

import importlib
import sys


def lazy_names(package: str, names: dict) -> tuple:
    """The ``__getattr__`` and ``__dir__`` of package ``package`` whose ``names`` map each name of its API to the
    module of the package that holds it; a name is imported on first use, then kept in the package's namespace."""
    namespace = vars(sys.modules[package])

    def __getattr__(name: str):
        if name in names:
            value = getattr(importlib.import_module(f"{package}.{names[name]}"), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*namespace, *names})

    return __getattr__, __dir__
