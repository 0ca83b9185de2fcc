"""Rebuild the TYPED pilot's ``text/`` records from Europeana's record API with a personal key.

The records may not be redistributed, so ``sts data fetch typed2013 --api-key KEY`` asks
``GET {base}/record/v2/COLLECTION/ID.json?wskey=KEY`` for every record of the input file, with
retries and backoff, a rate limit and a cache of raw answers (a rerun only asks for what is
missing), then writes ``text/NNNa_COLLECTION_ID.txt`` files and ``text/MISSING.txt``, the
records Europeana no longer serves (HTTP 404).
"""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from semsts.core.files import atomic_open, write_text_atomic

from .paths import data_root
from .sources import FetchError
from .typed2013 import FIELDS, INPUT_NAME, MISSING_NAME, TEXT_DIR, format_record, read_typed_input, record_filename

API_BASE = "https://api.europeana.eu"
KEY_VAR = "EUROPEANA_API_KEY"
CACHE_DIR = ".europeana-cache"
LANGUAGES = ("def", "en")  # values in these language slots are kept; other languages only if neither is there
FETCH_NAMES = ("typed2013", "typed2013-train", "typed2013-test")
RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})


class EuropeanaError(FetchError):
    """The API refused the key, kept failing, or answered with something that is no record."""


@dataclass
class FetchReport:
    """What one fetch did: records asked for, taken from the cache, gone (404), files written."""

    folder: Path
    requested: int = 0
    cached: int = 0
    missing: list = field(default_factory=list)
    written: int = 0


def _pick(values, labels: dict) -> list[str]:
    """The values of one field slot: a list, a string, or a language map ``{"def": [...], "en": [...]}``."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    if isinstance(values, dict):
        langs = [k for k in LANGUAGES if k in values] or list(values)
        values = [v for k in langs for v in (values[k] if isinstance(values[k], list) else [values[k]])]
    return [labels.get(v, v) for v in values if isinstance(v, str)]


def _entity_labels(obj: dict) -> dict:
    """``{entity URI: English (else default, else first) prefLabel}`` for the record's contextual entities."""
    labels = {}
    for group in ("agents", "concepts", "places", "timespans"):
        for entity in obj.get(group) or []:
            pref = entity.get("prefLabel") or {}
            chosen = next((pref[k] for k in ("en", "def") if pref.get(k)), next(iter(pref.values()), None))
            if entity.get("about") and chosen:
                labels[entity["about"]] = chosen[0] if isinstance(chosen, list) else chosen
    return labels


def record_from_json(data: dict) -> dict[str, list[str]]:
    """The six dc fields of a record API answer, from the provider's proxies (not Europeana's own
    enrichment proxy), in the documented field order, repeated values dropped."""
    obj = data.get("object")
    if not isinstance(obj, dict):
        raise EuropeanaError("the answer has no 'object': not a record")
    labels = _entity_labels(obj)
    proxies = [p for p in obj.get("proxies") or [] if not p.get("europeanaProxy")]
    record = {}
    for name in FIELDS:
        values = [v for proxy in proxies for v in _pick(proxy.get(name), labels)]
        record[name] = list(dict.fromkeys(v for v in values if v.strip()))
    return record


class RecordClient:
    """GET records one at a time: at most one request per ``min_interval`` seconds, retrying
    timeouts, 429 and 5xx answers ``retries`` times with exponential backoff (``Retry-After`` honoured)."""

    def __init__(self, api_key: str, base_url: str = API_BASE, retries: int = 4, backoff: float = 1.0,
                 min_interval: float = 0.1, timeout: float = 30.0, sleep: Callable = time.sleep):
        if not api_key:
            raise EuropeanaError(f"no Europeana API key: pass --api-key KEY or set {KEY_VAR}")
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.retries = retries
        self.backoff = backoff
        self.min_interval = min_interval
        self.timeout = timeout
        self.sleep = sleep
        self._last = -float("inf")

    def url(self, rid: str) -> str:
        return f"{self.base_url}/record/v2/{urllib.parse.quote(rid)}.json?wskey={urllib.parse.quote(self.api_key)}"

    def get(self, rid: str) -> bytes | None:
        """The raw JSON of record ``COLLECTION/ID``, or None when Europeana answers 404."""
        problem = ""
        for attempt in range(self.retries + 1):
            wait = self._last + self.min_interval - time.monotonic()
            if wait > 0:
                self.sleep(wait)
            self._last = time.monotonic()
            retry_after = None
            try:
                with urllib.request.urlopen(self.url(rid), timeout=self.timeout) as response:
                    return response.read()
            except urllib.error.HTTPError as exc:
                if exc.code == 404:
                    return None
                if exc.code in (401, 403):
                    raise EuropeanaError(f"Europeana refused the API key (HTTP {exc.code}) for record {rid}") from None
                if exc.code not in RETRY_STATUS:
                    raise EuropeanaError(f"record {rid}: HTTP {exc.code} {exc.reason}") from None
                problem, retry_after = f"HTTP {exc.code}", exc.headers.get("Retry-After")
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                problem = f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
            if attempt < self.retries:
                delay = self.backoff * 2 ** attempt
                if retry_after and retry_after.isdigit():
                    delay = max(delay, min(float(retry_after), 60.0))
                self.sleep(delay)
        raise EuropeanaError(f"record {rid}: gave up after {self.retries + 1} attempts ({problem}); "
                             "rerun the fetch to resume where it stopped")


def _cached(cache: Path, rid: str, suffix: str) -> Path:
    """The cache file of a record's answer (``.json``) or of its absence (``.404``)."""
    return cache / (rid.replace("/", "_") + suffix)


def fetch_records(folder, client: RecordClient, *, progress: Callable | None = None) -> FetchReport:
    """Fetch every record of ``folder/STS.input.europeana.txt`` into the cache, then write ``text/``.

    Cached answers (``.json``) and known 404s (``.404``) are not asked for again, so an interrupted
    fetch resumes. ``progress(done, total)`` is called after each record.
    """
    folder = Path(folder)
    pairs = read_typed_input(folder / INPUT_NAME)
    cache = folder / CACHE_DIR
    cache.mkdir(parents=True, exist_ok=True)
    report = FetchReport(folder)
    unique = list(dict.fromkeys(rid for pair in pairs for rid in pair))
    for done, rid in enumerate(unique, 1):
        if _cached(cache, rid, ".json").is_file() or _cached(cache, rid, ".404").is_file():
            report.cached += 1
        else:
            report.requested += 1
            raw = client.get(rid)
            if raw is None:
                write_text_atomic(_cached(cache, rid, ".404"), "")
            else:
                _check_record(raw, rid)
                with atomic_open(_cached(cache, rid, ".json"), "wb") as handle:
                    handle.write(raw)
        if progress:
            progress(done, len(unique))
    _write_text(folder, pairs, report)
    return report


def _check_record(raw: bytes, rid: str) -> None:
    try:
        format_record(record_from_json(json.loads(raw))).encode("utf-8")  # a lone surrogate ("\ud800") is no text
    except (ValueError, TypeError, AttributeError, EuropeanaError) as exc:  # JSON of another shape: a list for a map
        raise EuropeanaError(f"record {rid}: the answer is not a record ({exc})") from None
    except RecursionError:
        raise EuropeanaError(f"record {rid}: the answer is not a record (JSON nested too deeply)") from None


def _write_text(folder: Path, pairs, report: FetchReport) -> None:
    text, cache = folder / TEXT_DIR, folder / CACHE_DIR
    gone = []
    for number, pair in enumerate(pairs, 1):
        for side, rid in zip("ab", pair):
            cached = _cached(cache, rid, ".json")
            if not cached.is_file():
                gone.append(rid)
                continue
            record = record_from_json(json.loads(cached.read_bytes()))
            write_text_atomic(text / record_filename(number, side, rid), format_record(record))
            report.written += 1
    report.missing = list(dict.fromkeys(gone))
    write_text_atomic(text / MISSING_NAME, "".join(f"{rid}\tnot found (HTTP 404)\n" for rid in report.missing))


def typed_folders(name: str, data_dir=None) -> list[Path]:
    """The split folders a fetch name stands for: ``typed2013`` both, ``typed2013-test`` one."""
    root = data_root(data_dir) / "typed2013"
    splits = {"typed2013": ("train", "test"), "typed2013-train": ("train",), "typed2013-test": ("test",)}[name]
    return [root / split for split in splits if (root / split / INPUT_NAME).is_file()]
