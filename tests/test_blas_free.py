"""Tests of semsts.features.blas_free: its arithmetic, and features that do not depend on the BLAS kernel (the same
bits whichever kernel OpenBLAS picks)."""
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from semsts.features import blas_free

ROOT = Path(__file__).resolve().parents[1]
FEATURIZE = """
import hashlib, sys
import numpy as np
from semsts import corpora
from semsts.baselines.model_file import load_model
models, _ = load_model("models/stsb.skops")
pairs = corpora.load("demo-test").pairs[:200] + corpora.load("demo-dev").pairs[:200]
features = models.models["all"].pipeline_.steps[0][1].transform(pairs)
print(hashlib.sha256(np.ascontiguousarray(features).tobytes()).hexdigest())
"""


def test_blas_free_arithmetic_matches_the_plain_maths():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(5, 50)).astype(np.float32), rng.normal(size=(7, 50)).astype(np.float32)
    dots = blas_free.row_dots(a, b[:5])
    assert dots.dtype == np.float64 and np.allclose(dots, np.diag(a.astype(float) @ b[:5].astype(float).T), rtol=1e-13)
    # float32 products are exact in float64, so only the sum rounds: within a few ulps of the exact sum
    assert abs(dots[2] - math.fsum(float(x) * float(y) for x, y in zip(a[2], b[2]))) < 1e-13
    units = blas_free.unit_rows(np.vstack([a[:2], np.zeros((1, 50))]))
    assert np.allclose(np.linalg.norm(units[:2], axis=1), 1) and not units[2].any()


@pytest.mark.slow  # about 19 s: featurizes under two BLAS kernels
def test_the_same_features_under_two_blas_kernels(data_dir):
    """Before ``features.blas_free`` 21 columns of this model differed (by up to 2.7e-6) between these two."""
    digests = set()
    for kernel in ("Haswell", "Sandybridge"):
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel, "STS_DATA": str(data_dir)}
        done = subprocess.run([sys.executable, "-c", FEATURIZE], cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        digests.add(done.stdout.strip().splitlines()[-1])
    assert len(digests) == 1
    assert all(len(d) == 64 for d in digests)
