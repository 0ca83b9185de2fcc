"""Datasets, file formats and the data root: the layer everything else reads through."""
from semsts.core.files import atomic_open, write_text_atomic

from . import reports, runrecord  # noqa: F401  (corpora.reports: what each task reports; corpora.runrecord: run directories)
from .datasets import CLSS_LEVELS, Dataset, Subset, dataset_names, load, locate, spec
from .errors import DatasetNotFound, FormatError
from .formats import CLSS_RANGE, STS_RANGE, check_output, read_gold, read_output, write_output
from .kinds import KINDS, Kind
from .paths import data_root
from .typed2013 import TYPE_LABELS, TYPES, check_typed_output, read_typed_gold, read_typed_output, write_typed_output
from .user_data import load_path, resolve, resolve_all

__all__ = [
    "CLSS_LEVELS", "CLSS_RANGE", "KINDS", "Kind", "STS_RANGE", "Dataset", "DatasetNotFound", "FormatError", "Subset",
    "atomic_open", "check_output", "data_root", "dataset_names", "load", "locate", "read_gold",
    "load_path", "read_output", "resolve", "resolve_all", "spec", "write_output", "write_text_atomic",
    "TYPES", "TYPE_LABELS", "check_typed_output", "read_typed_gold", "read_typed_output", "write_typed_output",
]
