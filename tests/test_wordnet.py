"""WordNet 3.0 access: resolution order, the NLTK-readable cache folder, lexnames, sense keys."""
from pathlib import Path

import pytest

from semsts import corpora
from semsts import data_cli as cli
from semsts.corpora import wordnet
from semsts.corpora.errors import FormatError

POS_OF_CATEGORY = {1: "n", 2: "v", 3: "as", 4: "r"}


@pytest.fixture
def no_nltk_data(monkeypatch, tmp_path):
    """No WordNet on NLTK's data path and a fresh per-user cache; nltk.data.path restored afterwards."""
    import nltk.data
    monkeypatch.setattr(nltk.data, "path", list(nltk.data.path))
    monkeypatch.setattr(wordnet, "_nltk_root", lambda: None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_lexnames_file_has_wordnets_45_files_in_order():
    lines = wordnet.lexnames_text().splitlines()
    assert len(lines) == 45
    number, name, category = lines[44].split("\t")
    assert (number, name, category) == ("44", "adj.ppl", "3")
    for i, line in enumerate(lines):
        number, name, category = line.split("\t")
        assert int(number) == i
        assert name.split(".")[0] == {"1": "noun", "2": "verb", "3": "adj", "4": "adv"}[category]


def test_nothing_found_says_what_to_do(no_nltk_data, tmp_path):
    with pytest.raises(wordnet.WordNetNotFound) as err:
        wordnet.find_source(debian_dir=tmp_path / "none", env={})
    text = str(err.value)
    assert "apt-get install wordnet-base wordnet-sense-index" in text
    assert "python -m nltk.downloader wordnet" in text
    assert "WORDNET_DIR" in text and "lacks" in text


def test_nltk_data_path_comes_first(monkeypatch):
    monkeypatch.setattr(wordnet, "_nltk_root", lambda: "/somewhere/nltk_data/corpora/wordnet")
    src = wordnet.find_source(debian_dir="/usr/share/wordnet", env={})
    assert src.kind == "nltk" and src.root == "/somewhere/nltk_data/corpora/wordnet"


def test_debian_before_wordnet_dir_and_cache_folder_is_built(no_nltk_data, tmp_path):
    src = wordnet.find_source(debian_dir=wordnet.DEBIAN_DIR, env={"WORDNET_DIR": str(tmp_path)})
    assert src.kind == "debian"
    root = Path(src.root)
    assert root == wordnet.cache_folder() / "corpora" / "wordnet"
    assert root.is_relative_to(tmp_path / "cache")
    assert (root / "lexnames").read_text() == wordnet.lexnames_text()
    assert not wordnet.missing_files(root)
    assert (root / "data.noun").stat().st_size == (wordnet.DEBIAN_DIR / "data.noun").stat().st_size


def test_wordnet_dir_is_used_when_debian_lacks_files(no_nltk_data, tmp_path):
    src = wordnet.find_source(debian_dir=tmp_path / "none", env={"WORDNET_DIR": str(wordnet.DEBIAN_DIR)})
    assert src.kind == "WORDNET_DIR" and src.origin == str(wordnet.DEBIAN_DIR)


def test_cache_folder_is_reused_and_rebuilt_when_the_source_changes(no_nltk_data, tmp_path):
    dict_dir = tmp_path / "dict"
    dict_dir.mkdir()
    for name in wordnet.REQUIRED:
        (dict_dir / name).write_text(f"{name}\n")
    dest = wordnet.build_nltk_folder(dict_dir, tmp_path / "out" / "wordnet")
    marker = dest / "marker"
    marker.write_text("x")
    wordnet.build_nltk_folder(dict_dir, dest)
    assert marker.exists()  # current: reused as it is
    (dict_dir / "noun.exc").write_text("changed and longer\n")
    wordnet.build_nltk_folder(dict_dir, dest)
    assert not marker.exists()
    assert (dest / "noun.exc").read_text() == "changed and longer\n"


def test_reader_is_wordnet_30_and_loaded_once():
    assert wordnet.wordnet() is wordnet.wordnet()
    assert wordnet.version() == "3.0"
    assert wordnet.wordnet().synset("dog.n.01").lexname() == "noun.animal"


def test_every_lexname_number_names_the_right_file():
    """One sense key per lexicographer file: its synset's part of speech fits the file, and keys round-trip."""
    first = {}
    with wordnet.wordnet().open("index.sense") as stream:
        lines = stream.read().splitlines()
    for line in lines:
        key = line.split()[0]
        number = int(key.split("%")[1].split(":")[1])
        first.setdefault(number, key)
    assert sorted(first) == list(range(45))
    for number, key in first.items():
        lemma = wordnet.sense_from_key(key)
        name, category = wordnet.LEXNAMES[number]
        assert lemma.synset().lexname() == name
        assert lemma.synset().pos() in POS_OF_CATEGORY[category], key
        assert lemma.key() == key


def test_known_senses():
    wn = wordnet.wordnet()
    assert wordnet.sense_from_key("bewitch%2:37:00::").synset().lexname() == "verb.emotion"
    assert wn.synset("run.v.01").lexname() == "verb.motion"
    assert wn.synset("rain.v.01").lexname() == "verb.weather"


def test_unresolvable_sense_key_names_file_and_line(tmp_path):
    with pytest.raises(corpora.FormatError) as err:
        wordnet.sense_from_key("no_such_word%1:18:00::", path=tmp_path / "w2s.tsv", line=7)
    assert f"{tmp_path / 'w2s.tsv'}:7:" in str(err.value)
    assert "no_such_word%1:18:00::" in str(err.value)


def test_sts_data_wordnet_reports_source_and_version(capsys):
    assert cli.main(["wordnet"]) == 0
    out = capsys.readouterr().out
    assert "WordNet 3.0 from" in out and wordnet.source().kind in out


def test_sts_data_wordnet_without_wordnet_fails_with_instructions(no_nltk_data, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(wordnet, "source", lambda: wordnet.find_source(debian_dir=tmp_path / "none", env={}))
    assert cli.main(["wordnet"]) == 1
    err = capsys.readouterr().err
    assert "apt-get install wordnet-base wordnet-sense-index" in err and "nltk.downloader wordnet" in err


def _nltk_ancestors(lemma: str) -> dict:
    """The ancestor map as NLTK's Synset objects give it (the reference the fast reader is checked against)."""
    found: dict = {}
    frontier = [(s, 0) for s in wordnet.wordnet().synsets(lemma)]
    while frontier:
        synset, depth = frontier.pop()
        key = ("a" if synset.pos() == "s" else synset.pos(), synset.offset())
        if found.get(key, depth + 1) <= depth:
            continue
        found[key] = depth
        nexts = synset.hypernyms() + synset.instance_hypernyms()
        if depth == 0 and synset.pos() in "as":
            nexts += synset.similar_tos()
        frontier.extend((s, depth + 1) for s in nexts)
    return found


def test_ancestors_read_from_the_data_lines_are_nltks():
    """Issue 22: the hypernym closure is read from the data files' lines, not built from NLTK's Synset objects
    (ten times slower); nouns, verbs, adjectives with satellites, adverbs, instances, inflected and unknown words."""
    from semsts.features.text import analyse
    words = {lemma for pair in corpora.load("demo-train").pairs for text in pair for lemma in analyse(text).content}
    words |= {"paris", "einstein", "glad", "happy", "quickly", "ran", "geese", "be", "dogs", "zzyzx", "new_york"}
    assert len(words) > 1000
    for word in sorted(words):
        assert wordnet.ancestors(word) == _nltk_ancestors(word), word
    # dog.n.01: canine.n.02 and domestic_animal.n.01 (WordNet 3.0)
    assert wordnet.synset_links("n", 2084071) == ("n", (("n", 2083346), ("n", 1317541)), ())


def test_the_reader_indexes_wordnet_as_nltk_does():
    """Issue 22: the lemma index and the satellite offsets are read as bytes (NLTK's reader took 3 s to open);
    they equal NLTK's own, and NLTK's map to other WordNet versions is not built."""
    import warnings

    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    ours = wordnet.wordnet()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nltk = WordNetCorpusReader(wordnet.source().root, None)
    assert {k: dict(v) for k, v in ours._lemma_pos_offset_map.items()} == \
        {k: dict(v) for k, v in nltk._lemma_pos_offset_map.items()}
    assert ours.satellite_offsets == nltk.satellite_offsets and len(ours.satellite_offsets) == 10693
    assert ours.map30 is None and ours._exception_map == nltk._exception_map


def test_the_lemma_index_parses_a_lemma_when_first_read_as_nltks_defaultdict_would():
    """Issue 22: each lemma's index lines are parsed on first lookup; an unknown lemma gets an empty entry
    (as from NLTK's ``defaultdict``), a malformed line is a FormatError at its line when its lemma is read."""
    lines_adj = ["  licence line", "glad a 2 1 & 2 0 00001 00002"]
    lines_noun = ["dog n 1 1 @ 1 0 02084071", "bad n x"]
    files = [("index.adj", lines_adj, {"glad": 1}), ("index.noun", lines_noun, {"dog": 0, "bad": 1})]
    index = wordnet.LemmaIndex(files, {2})
    assert "glad" in index and "cat" not in index
    assert index["glad"] == {"a": [1, 2], "s": [2]} and list(index["glad"]) == ["a", "s"]
    assert index["cat"] == {} and "cat" in index
    assert list(index) == ["glad", "dog", "bad", "cat"]
    with pytest.raises(FormatError, match="not a WordNet index line") as info:
        index["bad"]
    assert info.value.line == 2 and str(info.value.path) == "index.noun"


@pytest.mark.parametrize("data", [b"", b"a", b"a\n", b"dog n 1\ncat n 2", b"dog n 1\ncat n 2\n", b"\n\n", b"  licence\r\nx y\r\n"])
def test_an_index_files_lines_are_its_bytes_split_at_newlines(data):
    """Issue 46: an index file is held as its bytes and the starts of its lines (not 150,000 strings): the lines
    and their first fields are those of the text split at its newlines."""
    lines = wordnet.FileLines(data)
    expected = data.decode().split("\n")[:-1] if data.endswith(b"\n") else data.decode().split("\n") if data else []
    assert list(lines) == expected and len(lines) == len(expected)
    assert lines.keys() == [line.partition(" ")[0] for line in expected]
    if expected:
        assert lines[-1] == expected[-1]
    with pytest.raises(IndexError):
        lines[len(expected)]


def test_wordnets_files_on_disk_are_memory_mapped_and_zipped_ones_read(tmp_path, monkeypatch):
    """Issue 46: a WordNet file on disk is memory-mapped, read-only: its pages are the page cache's, shared by a
    command's workers (each had held the 31 MB of data and index files), and only those read are resident. A file in
    NLTK's zip, one NLTK decompresses, or an empty one, is read."""
    import gzip
    import mmap
    import zipfile

    import nltk.data
    from nltk.data import FileSystemPathPointer, GzipFileSystemPathPointer, ZipFilePathPointer
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path), *nltk.data.path])  # inside NLTK's sandbox
    (tmp_path / "data.noun").write_bytes(b"00001740 03 n 01 entity 0 | that which is\n")
    (tmp_path / "empty").write_bytes(b"")
    mapped = wordnet.file_bytes(FileSystemPathPointer(str(tmp_path / "data.noun")))
    assert isinstance(mapped, mmap.mmap) and wordnet._line_at(mapped, 0) == b"00001740 03 n 01 entity 0 | that which is"
    with pytest.raises(TypeError):
        mapped[0:1] = b"x"  # read-only
    assert wordnet.file_bytes(FileSystemPathPointer(str(tmp_path / "empty"))) == b""
    with zipfile.ZipFile(tmp_path / "wordnet.zip", "w") as archive:
        archive.writestr("wordnet/data.noun", b"x y\n")
    assert wordnet.file_bytes(ZipFilePathPointer(str(tmp_path / "wordnet.zip"), "wordnet/data.noun")) == b"x y\n"
    with gzip.open(tmp_path / "data.verb.gz", "wb") as packed:
        packed.write(b"x y\n")
    assert wordnet.file_bytes(GzipFileSystemPathPointer(str(tmp_path / "data.verb.gz"))) == b"x y\n"  # decompressed
    on_disk = type(wordnet.wordnet().abspath("data.noun")) is FileSystemPathPointer  # Debian's folder, as CI has it
    assert isinstance(wordnet._data_file("n"), mmap.mmap) == on_disk  # NLTK's own zip: read
