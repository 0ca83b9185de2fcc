"""WordNet 3.0 through NLTK's own reader, found on NLTK's data path, in Debian's packages or $WORDNET_DIR.

Debian's ``wordnet-base`` + ``wordnet-sense-index`` ship no ``lexnames`` file and live outside
NLTK's data sandbox, so their files are copied once into a per-user cache folder that gets
the fixed list of lexicographer files and is registered on ``nltk.data.path``; NLTK's checks
stay as they are. One reader is loaded per process. Every WordNet lookup of the suite is here:
sense keys and glosses, and what the features need (base forms and ancestor maps, cached per word,
so that a word-pair similarity is one dict intersection).
"""
from __future__ import annotations

import functools
import hashlib
import json
import mmap
import os
import shutil
import tempfile
import warnings
from array import array
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from semsts.core.errors import STSError

from .errors import FormatError
from .paths import cache_root

ENV_VAR = "WORDNET_DIR"
DEBIAN_DIR = Path("/usr/share/wordnet")

#: Files the NLTK reader opens; a WordNet "dict" folder must have all of them but lexnames.
REQUIRED = ("index.sense", "index.adj", "index.adv", "index.noun", "index.verb",
            "data.adj", "data.adv", "data.noun", "data.verb",
            "adj.exc", "adv.exc", "noun.exc", "verb.exc")
OPTIONAL = ("cntlist.rev", "lexnames")

#: WordNet's 45 lexicographer files (lexnames(5WN)): number, name, syntactic category (1 n, 2 v, 3 a, 4 r).
LEXNAMES = (
    ("adj.all", 3), ("adj.pert", 3), ("adv.all", 4), ("noun.Tops", 1), ("noun.act", 1),
    ("noun.animal", 1), ("noun.artifact", 1), ("noun.attribute", 1), ("noun.body", 1),
    ("noun.cognition", 1), ("noun.communication", 1), ("noun.event", 1), ("noun.feeling", 1),
    ("noun.food", 1), ("noun.group", 1), ("noun.location", 1), ("noun.motive", 1),
    ("noun.object", 1), ("noun.person", 1), ("noun.phenomenon", 1), ("noun.plant", 1),
    ("noun.possession", 1), ("noun.process", 1), ("noun.quantity", 1), ("noun.relation", 1),
    ("noun.shape", 1), ("noun.state", 1), ("noun.substance", 1), ("noun.time", 1),
    ("verb.body", 2), ("verb.change", 2), ("verb.cognition", 2), ("verb.communication", 2),
    ("verb.competition", 2), ("verb.consumption", 2), ("verb.contact", 2), ("verb.creation", 2),
    ("verb.emotion", 2), ("verb.motion", 2), ("verb.perception", 2), ("verb.possession", 2),
    ("verb.social", 2), ("verb.stative", 2), ("verb.weather", 2), ("adj.ppl", 3),
)

HOW_TO_INSTALL = (
    "WordNet 3.0 was not found. Get it in one of these ways, then run `sts data wordnet` to check:\n"
    "  - Debian/Ubuntu: sudo apt-get install wordnet-base wordnet-sense-index\n"
    "  - with internet access: python -m nltk.downloader wordnet\n"
    f"  - or set {ENV_VAR} to a WordNet 3.0 dict folder holding {', '.join(REQUIRED)}")


class WordNetNotFound(FileNotFoundError, STSError):
    """No usable WordNet: the message says how to install one."""


@dataclass(frozen=True)
class Source:
    """Where the WordNet in use comes from: ``kind`` (nltk, debian, WORDNET_DIR), origin and reader root."""

    kind: str
    origin: str
    root: str


def lexnames_text() -> str:
    """The ``lexnames`` file as WordNet ships it: ``NN<TAB>name<TAB>category`` per line."""
    return "".join(f"{i:02d}\t{name}\t{cat}\n" for i, (name, cat) in enumerate(LEXNAMES))


def missing_files(folder) -> list[str]:
    """The required dict files absent from ``folder`` (all of them if it is no folder)."""
    folder = Path(folder)
    return [name for name in REQUIRED if not (folder / name).is_file()]


def _nltk_root() -> str | None:
    """WordNet on NLTK's own data path (folder or zip), as ``nltk.download('wordnet')`` leaves it."""
    import nltk.data
    ours = str(cache_folder())
    paths = [p for p in nltk.data.path if str(p) != ours]
    for resource in ("corpora/wordnet", "corpora/wordnet.zip/wordnet/"):
        try:
            return nltk.data.find(resource, paths=paths)
        except LookupError:
            continue
    return None


def _fingerprint(folder: Path) -> dict:
    files = {}
    for name in REQUIRED + OPTIONAL:
        path = folder / name
        if path.is_file():
            st = path.stat()
            files[name] = [st.st_size, int(st.st_mtime)]
    return {"origin": str(folder.resolve()), "files": files}


def cache_folder() -> Path:
    """The per-user NLTK data folder (registered on ``nltk.data.path``) holding ``corpora/wordnet``.

    The name matters: NLTK's reader reopens ``corpora/wordnet`` from its data path while loading.
    """
    return cache_root() / "nltk_data"


def build_nltk_folder(dict_dir, dest) -> Path:
    """Copy a WordNet dict folder to ``dest`` with a lexnames file; reuse ``dest`` if it is current."""
    dict_dir, dest = Path(dict_dir), Path(dest)
    stamp = _fingerprint(dict_dir)
    manifest = dest / "SOURCE.json"
    if manifest.is_file() and json.loads(manifest.read_text(encoding="utf-8")) == stamp:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        for name in REQUIRED + OPTIONAL:
            if (dict_dir / name).is_file():
                shutil.copyfile(dict_dir / name, tmp / name)
        if not (tmp / "lexnames").is_file():
            (tmp / "lexnames").write_text(lexnames_text(), encoding="utf-8")
        (tmp / "SOURCE.json").write_text(json.dumps(stamp, sort_keys=True), encoding="utf-8")
        if dest.exists():
            shutil.rmtree(dest)
        os.replace(tmp, dest)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if manifest.is_file() and json.loads(manifest.read_text(encoding="utf-8")) == stamp:
            return dest  # another process built it at the same time
        raise
    return dest


def _register(folder: Path) -> None:
    """Authorize ``folder`` the way NLTK documents it: put it on ``nltk.data.path``."""
    import nltk.data
    if str(folder) not in nltk.data.path:
        nltk.data.path.append(str(folder))


def find_source(*, debian_dir=DEBIAN_DIR, env=None) -> Source:
    """Resolve WordNet: NLTK's data path, then Debian's packages, then ``$WORDNET_DIR``."""
    env = os.environ if env is None else env
    root = _nltk_root()
    if root is not None:
        return Source("nltk", str(root), str(root))
    candidates = [("debian", Path(debian_dir))]
    if env.get(ENV_VAR):
        candidates.append((ENV_VAR, Path(env[ENV_VAR]).expanduser()))
    problems = []
    for kind, folder in candidates:
        lacking = missing_files(folder)
        if lacking:
            problems.append(f"{kind} {folder}: lacks {', '.join(lacking)}")
            continue
        target = build_nltk_folder(folder, cache_folder() / "corpora" / "wordnet")
        _register(cache_folder())
        return Source(kind, str(folder), str(target))
    raise WordNetNotFound(HOW_TO_INSTALL + "\nLooked in: NLTK's data path; " + "; ".join(problems))


class LemmaIndex(MutableMapping):
    """NLTK's ``lemma -> {part of speech: synset offsets}`` (a ``defaultdict(dict)`` there), with each lemma's
    index lines parsed when it is first looked up; in NLTK's order, satellites under ``s`` as NLTK puts them.

    ``files``: ``(name, lines, lemma -> line index)`` of each index file; a malformed line is a FormatError
    at its line when its lemma is read."""

    def __init__(self, files: list, satellites: set):
        self._files, self._satellites, self._parsed = files, satellites, {}

    def __getitem__(self, lemma: str) -> dict:
        entry = self._parsed.get(lemma)
        if entry is None:  # an unknown lemma gets an empty entry, as from NLTK's defaultdict
            entry = self._parsed[lemma] = self._parse(lemma)
        return entry

    def _parse(self, lemma: str) -> dict:
        entry: dict = {}
        for name, lines, at in self._files:
            i = at.get(lemma)
            if i is None:
                continue
            fields = lines[i].split()
            try:
                pos, n_synsets, n_pointers = fields[1], int(fields[2]), int(fields[3])
                offsets = [int(x) for x in fields[6 + n_pointers:6 + n_pointers + n_synsets]]
                if n_synsets <= 0 or len(offsets) != n_synsets or int(fields[4 + n_pointers]) != n_synsets:
                    raise ValueError("synset count")
            except (IndexError, ValueError) as exc:
                raise FormatError(name, i + 1, f"not a WordNet index line ({exc})") from None
            entry[pos] = offsets
            if pos == "a":  # as NLTK: the satellites among them, in index order, also under "s"
                entry["s"] = [o for o in offsets if o in self._satellites]
        return entry

    def __contains__(self, lemma) -> bool:
        return lemma in self._parsed or any(lemma in at for _, _, at in self._files)

    def __iter__(self):
        seen = set()
        for _, _, at in self._files:
            for lemma in at:
                if lemma not in seen:
                    seen.add(lemma)
                    yield lemma
        yield from (lemma for lemma in list(self._parsed) if lemma not in seen)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __setitem__(self, lemma, entry) -> None:
        self._parsed[lemma] = entry

    def __delitem__(self, lemma) -> None:
        raise TypeError("WordNet's lemma index is read-only")


def file_bytes(pointer):
    """The bytes of a WordNet file (an NLTK path pointer): memory-mapped, read-only, when it is a plain file on disk,
    else read whole through the pointer (a file inside NLTK's zip, or one NLTK decompresses). Mapped, its pages are
    the page cache's, shared by every process of a command (its workers each held the 25 MB of data files and 6 MB of
    index files), and only the pages read are resident."""
    from nltk.data import FileSystemPathPointer
    if type(pointer) is FileSystemPathPointer:  # not a subclass that opens the file otherwise (gzip)
        with open(pointer.path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size:  # an empty file cannot be mapped
                return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    with pointer.open() as handle:
        return handle.read()


class FileLines(Sequence):
    """The lines of a file's bytes (split at ``\\n``), each decoded from UTF-8 when read: an index file's 150,000
    lines held as its bytes and where each line starts, not as 150,000 strings."""

    def __init__(self, data):
        self._data, self._starts, start = data, array("q"), 0
        for line in data[:].split(b"\n"):  # after a last newline, a "" whose start ends the last line
            self._starts.append(start)
            start += len(line) + 1
        if data[-1:] not in (b"", b"\n"):
            self._starts.append(start)  # where a newline would end the last line

    def __len__(self) -> int:
        return len(self._starts) - 1

    def __getitem__(self, i):
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        i %= len(self)
        return self._data[self._starts[i]:self._starts[i + 1] - 1].decode("utf-8")

    def keys(self) -> list:
        """Each line's first space-delimited field (a lemma in an index file; "" for a line that starts with a space)."""
        return [self._data[a:b - 1].partition(b" ")[0].decode("utf-8") for a, b in zip(self._starts, self._starts[1:])]


def open_reader(source: Source):
    """NLTK's WordNetCorpusReader over ``source`` (no multilingual data, so no warning about it)."""
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    if source.kind != "nltk":
        _register(cache_folder())

    class Reader(WordNetCorpusReader):
        def _load_lemma_pos_offset_map(self):
            """NLTK's index, each lemma's lines parsed on its first lookup (parsing all 155,000 took 0.7 s an open)."""
            files = []
            for suffix in self._FILEMAP.values():
                lines = FileLines(file_bytes(self.abspath(f"index.{suffix}")))
                at = dict(zip(lines.keys(), range(len(lines))))
                at.pop("", None)  # the licence's lines start with a space
                files.append((f"index.{suffix}", lines, at))
            self._lemma_pos_offset_map = LemmaIndex(files, self.satellite_offsets)

        def _scan_satellites(self):
            with self.abspath("data.adj").open() as handle:
                self.satellite_offsets = {int(line.split(b" ", 1)[0]) for line in handle.read().splitlines()
                                          if line[:1].isdigit() and line.split(b" ", 3)[2:3] == [b"s"]}

        def map_wn(self, version="wordnet"):
            """No map to other WordNet versions: it serves only the multilingual data this reader never loads
            (NLTK builds it on every open, reading the sense index twice: 2 of its 3 seconds)."""
            return None

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The multilingual functions")
        return Reader(source.root, None)


@functools.lru_cache(maxsize=1)
def source() -> Source:
    """The WordNet source this process uses (resolved once)."""
    return find_source()


@functools.lru_cache(maxsize=1)
def content_sha256() -> str:
    """One SHA-256 over the dict files the reader reads, from whichever source (folder or NLTK's zip):
    what a model card records, and what keys the caches derived from WordNet."""
    from nltk.corpus.reader.api import CorpusReader
    files = CorpusReader(source().root, list(REQUIRED), encoding=None)
    digest = hashlib.sha256()
    for name in REQUIRED:
        digest.update(name.encode() + b"\0")
        with files.open(name) as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def wordnet():
    """The process-wide WordNet 3.0 reader (loaded once, a few seconds)."""
    return open_reader(source())


def version() -> str:
    return wordnet().get_version() or "unknown"


def sense_from_key(sense_key: str, *, path=None, line: int | None = None):
    """The lemma for a WordNet sense key; an unresolvable key is a FormatError at ``path:line``."""
    try:
        return wordnet().lemma_from_key(sense_key)
    except Exception as exc:  # NLTK raises WordNetError, ValueError or KeyError for bad keys
        raise FormatError(path or "<sense key>", line,
                          f"sense key {sense_key!r} does not resolve in WordNet {version()}: {exc}") from None


def gloss(synset) -> str:
    """The synset's whole gloss as WordNet stores it: definition, then any quoted examples."""
    line = _line_at(_data_file("a" if synset.pos() == "s" else synset.pos()), synset.offset()).decode("utf-8")
    return line.split(" | ", 1)[1].strip() if " | " in line else ""


# --------------------------------------------------------------------------- what the features look up

@functools.lru_cache(maxsize=1 << 17)  # per word, bounded: a user's data may hold any number of distinct words
def morphy(word: str) -> str:
    """Base form: WordNet's exception lists first, then a verb reading, then a noun reading."""
    wn = wordnet()
    for pos in ("v", "n", "a"):
        bases = wn._exception_map[pos].get(word)
        if bases:
            return bases[0]
    for pos in ("v", "n"):
        forms = wn._morphy(word, pos, check_exceptions=False)
        if forms and word not in forms:
            return forms[0]
    return word


@functools.lru_cache(maxsize=1 << 16)  # per lemma, bounded (each holds the lemma's ancestor map)
def ancestors(lemma: str) -> dict:
    """Every synset of ``lemma`` (any part of speech) and their hypernyms, with the fewest edges
    from one of the lemma's senses; adjectives reach their similar-to satellites in one edge.

    Synsets are keyed ``(data file, offset)`` and read straight from the data files' lines (NLTK's
    ``Synset`` objects cost ten times more to build); ``tests/test_wordnet.py`` checks them against NLTK's.
    """
    wn = wordnet()
    index = wn._lemma_pos_offset_map
    found: dict = {}
    frontier = [((pos, offset), 0) for pos in "nvar" for form in wn._morphy(lemma.lower(), pos)
                for offset in index[form].get(pos, [])]
    while frontier:
        key, depth = frontier.pop()
        if found.get(key, depth + 1) <= depth:
            continue
        found[key] = depth
        kind, up, similar = synset_links(*key)
        frontier.extend((k, depth + 1) for k in (up + similar if depth == 0 and kind in "as" else up))
    return found


@functools.lru_cache(maxsize=4)
def _data_file(pos: str):
    """A whole ``data.*`` file (the four are 25 MB; :func:`file_bytes`): a synset's line is then a slice at its offset."""
    return file_bytes(wordnet().abspath(f"data.{wordnet()._FILEMAP[pos]}"))


def _line_at(data, offset: int) -> bytes:
    """The line of ``data`` that starts at ``offset``, without its newline."""
    end = data.find(b"\n", offset)
    return data[offset:end if end >= 0 else len(data)]


@functools.lru_cache(maxsize=1 << 17)  # per synset: bounded by WordNet itself (117,659 synsets)
def synset_links(pos: str, offset: int) -> tuple[str, tuple, tuple]:
    """The synset type (``n``, ``v``, ``a``, ``s``, ``r``) of the synset at ``offset`` of data file ``pos``, its
    hypernyms and instance hypernyms, and its similar-to synsets, each as ``(data file, offset)``: the semantic
    pointers ``@``, ``@i`` and ``&`` of its line (lexical pointers, between words, are not the synset's)."""
    line = _line_at(_data_file(pos), offset).split(b" | ", 1)[0].decode("ascii", "replace")
    fields = line.split()
    start = 4 + 2 * int(fields[3], 16)
    up, similar = [], []
    for k in range(start + 1, start + 1 + 4 * int(fields[start]), 4):
        symbol = fields[k]
        if symbol in ("@", "@i", "&") and fields[k + 3] == "0000":
            (similar if symbol == "&" else up).append(("a" if fields[k + 2] == "s" else fields[k + 2], int(fields[k + 1])))
    return fields[2], tuple(up), tuple(similar)


def word_similarity(a: str, b: str) -> float:
    """WordNet path similarity of two lemmas, maximized over their senses: ``1 / (1 + edges)``.

    1.0 for the same lemma or a shared synset, 0.0 when the words share no ancestor.
    """
    if a == b:
        return 1.0
    return _similarity(a, b) if a < b else _similarity(b, a)


@functools.lru_cache(maxsize=1 << 18)  # bounded: a pair memo grows with the square of the vocabulary
def _similarity(a: str, b: str) -> float:
    da, db = ancestors(a), ancestors(b)
    shared = da.keys() & db.keys()
    return 1.0 / (1.0 + min([da[s] + db[s] for s in shared])) if shared else 0.0
