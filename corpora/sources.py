"""The official releases a fetch installs: their published addresses, what to take from their archives and
where it goes in the data root, the datasets each provides; and the error a fetch refuses with."""
from __future__ import annotations

from typing import NamedTuple

from semsts.core.errors import STSError

from .datasets import STS17_PAIRS, STS22_LANGUAGES, STSB_MULTI_LANGUAGES
from .errors import DatasetNotFound
from .kinds import STS2017_TRACKS

STSWIKI = "http://ixa2.si.ehu.es/stswiki/images"
SEMEVAL2017 = "http://alt.qcri.org/semeval2017/task1/data/uploads"
SEMEVAL2014_TASK1 = "http://alt.qcri.org/semeval2014/task1/data/uploads"  # SICK as the task released it
CLSS_PAGE = "http://alt.qcri.org/semeval2014/task3/index.php?id=data-and-tools"
# MTEB's Hugging Face datasets, at pinned revisions: BIOSSES at the revision mteb's BIOSSES task pins; STS22 at the
# revision that inverted the scores to 1-4 (4 most similar), the last whose file layout (en/test.jsonl) we could check
HF_BIOSSES = "https://huggingface.co/datasets/mteb/biosses-sts/resolve/d3fb88f8f02e40887cd149695127462bbcf29b4a"
HF_STS22 = "https://huggingface.co/datasets/mteb/sts22-crosslingual-sts/resolve/6d1ba47164174a496b7fa5d3569dae26a6813b80"

# MTEB's multilingual STS tasks: STS17 at the revision mteb's STS17 pins (its "fast loading" layout, one gzipped JSONL
# file a pair under test/); STS22's 18 languages at the revision of HF_STS22 (one folder a language, as for
# sts2022-test); stsb_multi_mt at the revision mteb's STSBenchmarkMultilingualSTS pins (one Parquet file a split and
# language). Each file keeps its path in the repository (a mirror serves it there too); pinned by content_pins.json.
HF_STS17 = "https://huggingface.co/datasets/mteb/sts17-crosslingual-sts/resolve/faeb762787bd10488a50c8b5be4a3b82e411949c"
HF_STSB_MULTI = "https://huggingface.co/datasets/mteb/stsb_multi_mt/resolve/29afa2569dcedaaa2fe6a3dcfebab33d28b82e8c"
STSB_MULTI_FILES = tuple(f"{split}/{lang}.parquet" for split in ("test", "dev") for lang in STSB_MULTI_LANGUAGES)


class FetchError(RuntimeError, STSError):
    """A download, an archive or its contents are not what the dataset needs."""


class Source(NamedTuple):
    """One official release: its archives, what to take from them and where it goes in the data root."""

    name: str
    target: str  # folder under the data root
    urls: tuple  # the organizers' published addresses; empty when none is known
    folder: str = ""  # a folder of this name inside the archive becomes ``target``
    files: tuple = ()  # else: these files, found anywhere in the archives, go into ``target``
    holds: tuple = ()  # else: the folder holding these sub-folders becomes ``target``
    datasets: tuple = ()
    page: str = ""  # where to download by hand when ``urls`` is empty
    derived: tuple = ()  # datasets derived from the release's files (not checked against the archive)
    plain: bool = False  # each address is one of ``files`` itself, not an archive holding it


SOURCES = {s.name: s for s in [
    Source("sts2012-train", "sts2012/train", (f"{STSWIKI}/e/e4/STS2012-en-train.zip",), "train",
           datasets=("sts2012-train",)),
    Source("sts2012-test", "sts2012/test", (f"{STSWIKI}/4/40/STS2012-en-test.zip",), "test-gold",
           datasets=("sts2012-test",)),
    Source("sts2013-test", "sts2013/test", (f"{STSWIKI}/2/2f/STS2013-en-test.zip",), "test-gs",
           datasets=("sts2013-test",)),
    Source("sts2014-test", "sts2014/test", (f"{STSWIKI}/8/8c/STS2014-en-test.zip",), "sts-en-test-gs-2014",
           datasets=("sts2014-test",)),
    Source("sts2015-test", "sts2015/test", (f"{STSWIKI}/d/da/STS2015-en-test.zip",), "test_evaluation_task2a",
           datasets=("sts2015-test",)),
    Source("sts2016-test", "sts2016/test", (f"{STSWIKI}/9/98/STS2016-en-test.zip",),
           "sts2016-english-with-gs-v1.0", datasets=("sts2016-test",)),
    Source("sts2017-test", "sts2017/test", (f"{SEMEVAL2017}/sts2017.eval.v1.1.zip", f"{SEMEVAL2017}/sts2017.gs.zip"),
           files=("STS.input.track5.en-en.txt", "STS.gs.track5.en-en.txt"), datasets=("sts2017-test",)),  # pinned by mteb's figures
    Source("sts2017-tracks", "sts2017/test", (f"{SEMEVAL2017}/sts2017.eval.v1.1.zip", f"{SEMEVAL2017}/sts2017.gs.zip"),
           files=tuple(f"STS.{part}.{track}.txt" for track in STS2017_TRACKS for part in ("input", "gs")),
           datasets=("sts2017-ar-ar-test", "sts2017-ar-en-test", "sts2017-es-es-test", "sts2017-es-en-test",
                     "sts2017-es-en-wmt-test", "sts2017-tr-en-test"),
           derived=("sts2017-all-test",)),  # the same archives, every track; pinned by track 5 (mteb's figures)
    Source("stsbenchmark", "stsbenchmark", (f"{STSWIKI}/4/48/Stsbenchmark.tar.gz",), "stsbenchmark",
           datasets=("stsb-train", "stsb-dev", "stsb-test"), derived=("stsb-v2-dev", "stsb-v2-test")),
    Source("stscompanion", "stscompanion", (f"{STSWIKI}/e/ee/Stscompanion.tar.gz",), "stscompanion",
           datasets=("stscompanion-mt", "stscompanion-other")),  # pinned by pairs per source file (kinds.STSCompanion)
    Source("sick2014", "sick2014", tuple(f"{SEMEVAL2014_TASK1}/{n}" for n in (
               "sick_train.zip", "sick_trial.zip", "sick_test_annotated.zip")),
           files=("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt"),
           datasets=("sick2014-train", "sick2014-trial", "sick2014-test")),
    Source("clss2014", "clss2014", (), holds=("data", "keys"),
           datasets=("clss2014-trial", "clss2014-train", "clss2014-test"), page=CLSS_PAGE),
    Source("biosses", "biosses", (f"{HF_BIOSSES}/test.jsonl.gz",), files=("test.jsonl.gz",),
           datasets=("biosses-test",), plain=True),  # pinned by mteb's figures (content_pins.json)
    Source("sts2022", "sts2022/en", (f"{HF_STS22}/en/test.jsonl",), files=("test.jsonl",),
           datasets=("sts2022-test",), derived=("sts2022-v2-test",), plain=True),  # as BIOSSES
]}

# Releases of several files, each at its path in the repository (``files``, one per address in ``urls``).
SOURCES.update({s.name: s for s in [
    Source("mteb-sts17", "mteb/sts17-crosslingual-sts", tuple(f"{HF_STS17}/test/{p}.jsonl.gz" for p in STS17_PAIRS),
           files=tuple(f"test/{p}.jsonl.gz" for p in STS17_PAIRS), datasets=("sts17-ml-test",), plain=True),
    Source("mteb-sts22", "mteb/sts22-crosslingual-sts", tuple(f"{HF_STS22}/{lang}/test.jsonl" for lang in STS22_LANGUAGES),
           files=tuple(f"{lang}/test.jsonl" for lang in STS22_LANGUAGES), datasets=("sts22-ml-test",),
           derived=("sts22-v2-ml-test",), plain=True),
    Source("mteb-stsb-multi", "mteb/stsb_multi_mt", tuple(f"{HF_STSB_MULTI}/{f}" for f in STSB_MULTI_FILES),
           files=STSB_MULTI_FILES, datasets=("stsbmt-test", "stsbmt-dev"), plain=True),
]})


def source_of(name: str) -> Source:
    """The release that provides a dataset (``stsb-dev`` → ``stsbenchmark``) or a release by its name."""
    if name in SOURCES:
        return SOURCES[name]
    for source in SOURCES.values():
        if name in source.datasets or name in source.derived:
            return source
    fetchable = sorted({*SOURCES, *(d for s in SOURCES.values() for d in (*s.datasets, *s.derived))})
    raise DatasetNotFound(f"nothing to fetch for {name!r}; known: {', '.join(fetchable)}")


def subsumed(source: Source) -> bool:
    """Whether another release installs the same folder with every file of ``source`` and more (STS 2017's track 5
    within all its tracks): ``sts data fetch all`` takes the larger one only."""
    return any(other is not source and other.target == source.target and set(source.files) < set(other.files)
               for other in SOURCES.values())


def mib(n: int) -> str:
    """A size as the fetch's messages show it."""
    return f"{n / (1 << 20):.1f} MiB"
