"""semsts: the official SemEval/*SEM STS baselines, one shared scorer and a feature-regression reference system.

The layers, each a subpackage (data flows down this list): :mod:`semsts.corpora` (datasets, formats,
fetching, WordNet), :mod:`semsts.features` (pair → numbers), :mod:`semsts.baselines` (the systems,
official output files), :mod:`semsts.scoring` (the scorer behind ``evaluate.py``), :mod:`semsts.cli`
(the ``sts`` command). The names below are the public API; each is imported on first use, so that
``import semsts`` stays cheap.
"""
from __future__ import annotations

from semsts.core.lazy import lazy_names

_API = {
    # datasets
    "resolve": "corpora", "resolve_all": "corpora", "load": "corpora", "dataset_names": "corpora",
    "Dataset": "corpora", "Subset": "corpora", "FormatError": "corpora", "DatasetNotFound": "corpora",
    # systems
    "make_system": "baselines", "system_names": "baselines", "run_system": "baselines",
    "save_model": "baselines", "load_model": "baselines", "SubsetModels": "baselines",
    # scoring
    "score": "scoring", "score_run": "scoring", "score_files": "scoring", "compare_runs": "scoring",
    "Report": "scoring", "Signature": "scoring", "InvalidRun": "scoring",
}
__all__ = sorted(_API)
__getattr__, __dir__ = lazy_names(__name__, _API)
