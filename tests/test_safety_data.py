"""Issue 32, datasets and fetching: hostile data roots, mirrors and files get one clear line, never a hang,
a traceback or a silently wrong dataset. Every hostile root, file and server is built here, in tmp_path."""
from __future__ import annotations

import contextlib
import gzip
import http.server
import json
import os
import re
import shutil
import signal
import threading
import time
import zipfile
from pathlib import Path

import pytest

from conftest import write
from semsts import cli, corpora
from semsts.corpora import content_pins, download, fetch, manifest, sources

ROW = '{{"sentence1": "Cells divide.", "sentence2": "A cell divides.", "score": {score}}}\n'


def sts(*argv, capsys):
    """``sts ARGV`` in process: (exit code, stdout, stderr lines)."""
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err.splitlines()


class Hung(BaseException):
    """Raised by the alarm of :func:`within`: a BaseException, so that no ``except OSError`` swallows it."""


@contextlib.contextmanager
def within(seconds: float):
    """Fail instead of hanging: a FIFO opened for reading would block for ever (the alarm interrupts the open)."""
    def ring(signum, frame):
        raise Hung(f"still running after {seconds} s: a file was opened that should not have been")
    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def leftovers(root: Path) -> list:
    return [p.name for p in root.iterdir() if p.name.startswith(".fetch-")] if root.exists() else []


def serve(handler_class):
    """Run ``handler_class`` on 127.0.0.1 in a thread; returns (base URL, stop)."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler_class)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()

    def stop():
        httpd.shutdown()
        httpd.server_close()
    return f"http://127.0.0.1:{httpd.server_address[1]}", stop


class Quiet(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass


# --- 1. BIOSSES and STS22 en are pinned by mteb's published descriptive statistics (no SHA-256 of them is published
# where we can read it); STS 2017 stays unpinned: what a mirror sends is never installed silently.

HAND = [("Cells divide.", "A cell divides.", 4.0), ("Héllo wörld", "Cells divide.", 1.8),
        ("Cells divide.", "Héllo wörld", 0.0)]
# mteb's figures of HAND, counted by hand: lengths in characters (Héllo wörld: 11, though 13 bytes), unique texts per
# side, unique pairs whichever side a text is on (rows 2 and 3 are one pair), the raw scores
HAND_FIGURES = {"num_samples": 3, "number_of_characters": 76, "unique_pairs": 2,
                "text1_statistics": {"total_text_length": 37, "min_text_length": 11,
                                     "average_text_length": 12.333333333333334, "max_text_length": 13,
                                     "unique_texts": 2},
                "text2_statistics": {"total_text_length": 39, "min_text_length": 11, "average_text_length": 13.0,
                                     "max_text_length": 15, "unique_texts": 3},
                "label_statistics": {"min_score": 0.0, "avg_score": 1.9333333333333333, "max_score": 4.0}}


def hand_jsonl(invert: bool = False) -> bytes:
    """HAND as mteb/biosses-sts publishes it (gzip JSONL); ``invert``: scores 4 - s, as a hostile mirror might."""
    rows = [{"sentence1": a, "sentence2": b, "score": 4.0 - s if invert else s} for a, b, s in HAND]
    return gzip.compress("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode(), mtime=0)


def biosses_bytes(*scores) -> bytes:
    return gzip.compress("".join(ROW.format(score=s) for s in scores).encode(), mtime=0)


@pytest.fixture
def hand_pin(tmp_path, monkeypatch):
    """The BIOSSES pin holding HAND's figures instead of mteb's (we cannot have mteb's real file here)."""
    pins = content_pins.load_pins()
    pins["biosses"] = dict(pins["biosses"], figures=HAND_FIGURES)
    path = tmp_path / "pins.json"
    path.write_text(json.dumps({"releases": pins}), encoding="utf-8")
    monkeypatch.setattr(content_pins, "PINS_PATH", path)


def test_every_release_is_pinned_by_checksums_or_by_mteb_figures():
    """What a fetch installs is checked: each release's files by the manifest's checksums or by mteb's figures
    (the STS-B companion's, of which no checksum could be confirmed, by its pairs per source file)."""
    known, pins = manifest.load_manifest(), content_pins.load_pins()
    for source in sources.SOURCES.values():
        by_kind = all(corpora.spec(d).kind.pins for d in source.datasets)
        assert manifest.entries_under(source.target, known) or source.name in pins or by_kind, source.name
    assert sorted(pins) == ["biosses", "mteb-sts17", "mteb-sts22", "mteb-stsb-multi", "sts2017-test", "sts2017-tracks",
                            "sts2022"]
    for name, pin in pins.items():  # the pinned file is one the release installs, read by the pin's dataset
        source = sources.SOURCES[name]
        assert pin["dataset"] in (*source.datasets, *source.derived) or name == "sts2017-tracks"
        assert pin["file"].startswith(f"{source.target}/")
        assert pin["file"][len(source.target) + 1:] in source.files or pin["file"].split("/")[-1] in source.files
        for more in pin.get("more", ()):  # a multilingual release's other datasets, pinned per subset too
            assert more["dataset"] in (*source.datasets, *source.derived) and more["subsets"]
        assert pin["source"].startswith("mteb 2.26.24 (PyPI wheel), mteb/descriptive_stats/STS/")
    assert pins["biosses"]["figures"]["num_samples"] == 100 and pins["sts2022"]["figures"]["num_samples"] == 197
    assert pins["biosses"]["figures"]["label_statistics"]["avg_score"] == 2.1959999999999997


def test_figures_are_mteb_statistics_counted_by_hand():
    figures = content_pins.figures([(a, b) for a, b, _ in HAND], [s for *_, s in HAND])
    assert figures == HAND_FIGURES
    assert content_pins.compare(HAND_FIGURES, figures) == []


def test_figures_reproduce_mteb_published_sts17_figures_on_real_pairs(data_dir):
    """mteb 2.26.24's STS17.json (en-en) describes the 250 track5.en-en pairs the STS Benchmark took into its dev and
    test files: computed here on those real pairs, every figure agrees (the average score to its last bits only:
    mteb sums in another row order)."""
    rows = [line.rstrip("\n").split("\t") for name in ("sts-dev.csv", "sts-test.csv")
            for line in (data_dir / "stsbenchmark" / name).read_text(encoding="utf-8").splitlines()]
    track5 = [r for r in rows if r[1] == "track5.en-en"]
    mteb_sts17_en_en = {"num_samples": 250, "number_of_characters": 21669, "unique_pairs": 250,
                        "text1_statistics": {"total_text_length": 10988, "min_text_length": 12,
                                             "average_text_length": 43.952, "max_text_length": 94, "unique_texts": 250},
                        "text2_statistics": {"total_text_length": 10681, "min_text_length": 15,
                                             "average_text_length": 42.724, "max_text_length": 101, "unique_texts": 250},
                        "label_statistics": {"min_score": 0.0, "avg_score": 2.2776000000000014, "max_score": 5.0}}
    assert content_pins.pin_of("sts2017-test")["figures"] == mteb_sts17_en_en
    assert content_pins.pin_of("sts2017-tracks")["figures"] == mteb_sts17_en_en  # every track's archives: by track 5
    figures = content_pins.figures([(r[5], r[6]) for r in track5], [float(r[4]) for r in track5])
    assert content_pins.compare(mteb_sts17_en_en, figures) == []
    assert figures["label_statistics"]["avg_score"] != 2.2776000000000014  # summed in another order: not bit-equal
    inverted = content_pins.figures([(r[5], r[6]) for r in track5], [5 - float(r[4]) for r in track5])
    assert [d.figure for d in content_pins.compare(mteb_sts17_en_en, inverted)] == ["label_statistics.avg_score"]


def test_a_file_with_the_pinned_figures_installs_without_the_flag(server, tmp_path, capsys, hand_pin):
    served, url = server
    (served / "test.jsonl.gz").write_bytes(hand_jsonl())
    root = tmp_path / "root"
    code, out, err = sts("data", "--data-dir", root, "fetch", "biosses-test", "--mirror", url, "--quiet", capsys=capsys)
    assert code == 0 and err == [] and "note" not in out
    assert out.splitlines() == [f"biosses: installed in {root / 'biosses'}", "  biosses-test: biosses (3)"]
    assert corpora.load("biosses-test", root).gold.tolist() == [4.0, 1.8, 0.0] and leftovers(root) == []
    code, out, err = sts("data", "--data-dir", root, "verify", "biosses-test", capsys=capsys)
    assert code == 0 and out.splitlines()[0] == "OK       biosses/test.jsonl.gz  (mteb's figures for BIOSSES)"


def test_a_mirror_serving_inverted_scores_is_refused(server, tmp_path, capsys, hand_pin):
    """Inverted scores (4 - s) keep the texts and, as in BIOSSES, the min and max: the average score tells them."""
    served, url = server
    (served / "test.jsonl.gz").write_bytes(hand_jsonl(invert=True))
    root = tmp_path / "root"
    code, out, err = sts("data", "--data-dir", root, "fetch", "biosses-test", "--mirror", url, "--quiet", capsys=capsys)
    assert code == 1 and out == ""
    assert err == ["error: biosses: test.jsonl.gz is not the file mteb describes for BIOSSES (label_statistics.avg_score "
                   "expected 1.9333333333333333, got 2.066666666666667); refused (--unverified installs it anyway)"]
    assert not (root / "biosses").exists() and leftovers(root) == []


def test_unverified_installs_other_content_with_a_note_and_verify_flags_it(server, tmp_path, capsys, hand_pin):
    served, url = server
    (served / "test.jsonl.gz").write_bytes(hand_jsonl(invert=True))
    root = tmp_path / "root"
    code, out, err = sts("data", "--data-dir", root, "fetch", "biosses-test", "--mirror", url, "--quiet",
                         "--unverified", capsys=capsys)
    assert code == 0 and err == []
    assert out.splitlines() == [f"biosses: installed in {root / 'biosses'}",
                                "  note: installed unverified: test.jsonl.gz is not the file mteb describes for BIOSSES "
                                "(label_statistics.avg_score expected 1.9333333333333333, got 2.066666666666667)",
                                "  biosses-test: biosses (3)"]
    assert corpora.load("biosses-test", root).gold.tolist() == [0.0, 2.2, 4.0]
    code, out, err = sts("data", "--data-dir", root, "verify", capsys=capsys)
    assert code == 1 and out.splitlines()[0] == (
        "MISMATCH biosses/test.jsonl.gz  (not what mteb describes for BIOSSES: label_statistics.avg_score expected "
        "1.9333333333333333, got 2.066666666666667)")
    code, out, err = sts("data", "--data-dir", root, "list", capsys=capsys)  # flagged as the companion's are
    listing = " ".join(out.split())
    assert code == 0 and ("biosses-test present 3 pairs: biosses (3) note: biosses-test: installed unverified: "
                          "test.jsonl.gz is not the file mteb describes for BIOSSES (label_statistics.avg_score "
                          "expected 1.9333333333333333, got 2.066666666666667)") in listing
    assert listing.count("installed unverified") == 1


def test_verify_reads_no_fifo_in_place_of_a_pinned_file(tmp_path, capsys):
    (tmp_path / "biosses").mkdir()
    os.mkfifo(tmp_path / "biosses" / "test.jsonl.gz")
    with within(5):
        code, out, err = sts("data", "--data-dir", tmp_path, "verify", "biosses-test", capsys=capsys)
    assert code == 1 and err == []
    assert out.splitlines()[0] == (f"MISMATCH biosses/test.jsonl.gz  (does not parse: "
                                   f"{tmp_path / 'biosses' / 'test.jsonl.gz'}: is a FIFO (named pipe), not a regular file)")


def test_the_real_pins_refuse_a_file_that_is_not_mteb_s(tmp_path):
    """Without the test's pin: mteb's own figures (197 STS22 en pairs) refuse a two-pair file given by hand."""
    two = write(tmp_path / "test.jsonl", ROW.format(score=1) + ROW.format(score=3.5))
    root = tmp_path / "root"
    with pytest.raises(sources.FetchError) as caught:
        fetch.fetch("sts2022-test", root, archives=[two])
    assert str(caught.value) == (
        "sts2022: test.jsonl is not the file mteb describes for STS22 en (num_samples expected 197, got 2; "
        "number_of_characters expected 1107336, got 56; unique_pairs expected 197, got 1; and 12 more); "
        "refused (--unverified installs it anyway)")
    assert not (root / "sts2022").exists() and leftovers(root) == []
    assert fetch.fetch("sts2022-test", root, archives=[two], unverified=True) == root / "sts2022" / "en"


def test_sts2017_other_than_mteb_describes_is_refused_unless_unverified(tmp_path):
    archive = tmp_path / "sts2017.eval.v1.1.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("STS2017.eval.v1.1/STS.input.track5.en-en.txt", "A man sings.\tA man is singing.\n")
        zf.writestr("STS2017.gs/STS.gs.track5.en-en.txt", "4.8\n")
    root = tmp_path / "root"
    with pytest.raises(sources.FetchError, match=r"^sts2017-test: STS\.input\.track5\.en-en\.txt is not the file mteb "
                                               r"describes for STS17 en-en \(num_samples expected 250, got 1; "):
        fetch.fetch("sts2017-test", root, archives=[archive])
    assert not (root / "sts2017").exists() and leftovers(root) == []
    assert fetch.fetch("sts2017-test", root, archives=[archive], unverified=True) == root / "sts2017" / "test"


def test_fetch_all_fetches_every_release(tmp_path, monkeypatch, capsys):
    asked = []
    monkeypatch.setattr(fetch, "fetch", lambda name, *args: asked.append(name))
    code, out, err = sts("data", "--data-dir", tmp_path, "fetch", "all", capsys=capsys)
    assert code == 0 and asked == ["sts2012-train", "sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test",
                                   "sts2016-test", "sts2017-tracks", "stsbenchmark", "stscompanion", "sick2014",
                                   "biosses", "sts2022", "mteb-sts17", "mteb-sts22", "mteb-stsb-multi"]
    assert err == []


# --- 2. STS-B v2 is derived from its siblings read as their own datasets read them.


@pytest.fixture
def stsb_root(data_dir, tmp_path):
    root = tmp_path / "root"
    shutil.copytree(data_dir / "stsbenchmark", root / "stsbenchmark")
    return root


def v2(root):
    return {n: corpora.load(n, root) for n in ("stsb-v2-dev", "stsb-v2-test")}


def test_official_stsb_derives_v2_without_a_note(stsb_root):
    derived = v2(stsb_root)
    assert [len(d.pairs) for d in derived.values()] == [1485, 1362] and all(d.notes == () for d in derived.values())


def test_an_empty_sibling_refuses_the_derived_split_naming_it(stsb_root, capsys):
    test = stsb_root / "stsbenchmark" / "sts-test.csv"
    test.write_bytes(b"")
    with pytest.raises(corpora.FormatError) as caught:
        corpora.load("stsb-v2-dev", stsb_root)
    assert str(caught.value) == (f"{test}: holds no pairs; expected one pair per line (stsb-v2-dev is derived from "
                                 "all three STS Benchmark splits)")
    code, out, err = sts("data", "--data-dir", stsb_root, "list", capsys=capsys)
    rows = {line.split()[0]: line for line in out.splitlines()[1:] if line and not line.startswith(" ")}
    assert code == 0 and rows["stsb-v2-dev"] == f"stsb-v2-dev      INVALID  {caught.value}"
    code, out, err = sts("run", "token-cosine", "--test", "stsb-v2-dev", "--out", stsb_root / "out", "--data-dir",
                         stsb_root, "--quiet", capsys=capsys)
    assert code == 1 and err == [f"error: {caught.value}"] and not (stsb_root / "out").exists()


def test_a_cut_sibling_is_noted_with_its_pair_count(stsb_root):
    train = stsb_root / "stsbenchmark" / "sts-train.csv"
    train.write_bytes(b"".join(train.read_bytes().splitlines(keepends=True)[:2000]))
    test = corpora.load("stsb-v2-test", stsb_root)
    assert test.notes == (f"stsb-v2-test: {train} holds 2,000 pairs, the official file 5,749: the split derived from "
                          "it is not MTEB's STSBenchmark.v2",)


@pytest.mark.parametrize("damage", ["crlf", "bom"])
def test_crlf_or_bom_siblings_read_as_the_plain_reader_reads_them(stsb_root, data_dir, damage):
    test = stsb_root / "stsbenchmark" / "sts-test.csv"
    data = test.read_bytes()
    test.write_bytes(data.replace(b"\n", b"\r\n") if damage == "crlf" else b"\xef\xbb\xbf" + data)
    official = v2(data_dir)
    for name, derived in v2(stsb_root).items():
        assert derived.pairs == official[name].pairs and derived.gold.tolist() == official[name].gold.tolist()
        assert derived.subsets[0].ids == official[name].subsets[0].ids and derived.notes == ()
    assert corpora.load("stsb-test", stsb_root).pairs == corpora.load("stsb-test", data_dir).pairs


# --- 3. A data root holding the whole STS 2017 test archive: sts2017-test reads its one registered track.

TRACKS = ["track1.ar-ar", "track2.ar-en", "track3.es-es", "track4a.es-en", "track4b.es-en", "track5.en-en",
          "track6.tr-en"]


@pytest.fixture
def sts2017_root(tmp_path):
    """sts2017/test as the organizers ship it (sts2017.eval.v1.1.zip + sts2017.gs.zip): every track's input and
    gold, the demo pairs standing in for the texts; track6's gold has 250 lines for its 500 pairs."""
    demo = corpora.load("demo-test")
    folder = tmp_path / "root" / "sts2017" / "test"
    for track in TRACKS:
        n = 500 if track == "track6.tr-en" else 250
        pairs = (demo.pairs * 2)[:n]
        gold = list(demo.subsets[0].gold[:250])
        write(folder / f"STS.input.{track}.txt", "".join(f"{a}\t{b}\n" for a, b in pairs))
        write(folder / f"STS.gs.{track}.txt", "".join(f"{g:g}\n" for g in gold))
    return tmp_path / "root"


def test_sts2017_reads_only_track5_of_the_official_archive(sts2017_root, tmp_path, capsys):
    ds = corpora.load("sts2017-test", sts2017_root)
    assert [(s.name, len(s)) for s in ds] == [("track5.en-en", 250)]
    assert ds.notes == ()  # the other tracks' files are read by their own datasets: no note on them
    write(sts2017_root / "sts2017" / "test" / "STS.input.track7.xx-xx.txt", "a\tb\n")
    write(sts2017_root / "sts2017" / "test" / "STS.gs.track7.xx-xx.txt", "1\n")
    assert corpora.load("sts2017-test", sts2017_root).notes == (
        f"sts2017-test: files of subsets no registered dataset reads, not read: track7.xx-xx "
        f"(in {sts2017_root / 'sts2017' / 'test'})",)
    for track in ("track7.xx-xx",):
        for kind in ("input", "gs"):
            (sts2017_root / "sts2017" / "test" / f"STS.{kind}.{track}.txt").unlink()
    out = tmp_path / "out"
    code, stdout, err = sts("run", "token-cosine", "--test", "sts2017-test", "--out", out, "--data-dir", sts2017_root,
                            "--quiet", capsys=capsys)
    assert code == 0, err
    assert [p.name for p in out.iterdir() if p.name.startswith("STS.")] == ["STS.output.track5.en-en.txt"]
    code, stdout, err = sts("eval", "--dataset", "sts2017-test", "--run", out, "--data-dir", sts2017_root,
                            capsys=capsys)
    assert code == 0 and "|subsets:track5.en-en=250|missing:none|" in stdout


# --- 4. A mirror trickling bytes: an overall deadline per download.


def trickle(headers_first: bool):
    """A server sending one byte every 50 ms: the body (after prompt headers), or its headers themselves."""

    class Handler(Quiet):
        def do_GET(self):
            try:
                if headers_first:
                    self.send_response(200)
                    self.end_headers()
                    self.wfile.flush()
                    for _ in range(400):
                        self.wfile.write(b"x")
                        self.wfile.flush()
                        time.sleep(0.05)
                else:
                    for byte in b"HTTP/1.0 200 OK\r\nX-Slow: " + b"y" * 400:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(0.05)
            except OSError:
                pass

    return Handler


@pytest.mark.parametrize("where, limits, said", [
    ("body", {"DEADLINE": 1.0}, r"not finished after 1 s \(\d+ bytes received\); the server stalls\? refused"),
    ("headers", {"DEADLINE": 1.0}, r"not finished after 1 s \(0 bytes received\); the server stalls\? refused"),
])
def test_a_trickling_mirror_meets_the_deadline(tmp_path, monkeypatch, capsys, where, limits, said):
    for name, value in limits.items():
        monkeypatch.setattr(download, name, value)
    url, stop = serve(trickle(headers_first=where == "body"))
    root = tmp_path / "root"
    started = time.monotonic()
    try:
        code, out, err = sts("data", "--data-dir", root, "fetch", "stsbenchmark", "--mirror", url, "--quiet",
                             capsys=capsys)
    finally:
        stop()
    assert time.monotonic() - started < 8
    assert code == 1 and len(err) == 1, err
    assert err[0].startswith(f"error: {url}/Stsbenchmark.tar.gz: ") and re.search(said, err[0]), err
    assert leftovers(root) == [] and not (root / "stsbenchmark").exists()


# --- 5. JSON nested thousands deep: a FormatError naming the file and line, in every command.


def test_a_deeply_nested_sts22_field_is_one_error_line(tmp_path, capsys):
    root = tmp_path / "root"
    path = write(root / "sts2022" / "en" / "test.jsonl",
                 ROW.format(score=2) + '{"sentence1": ' + "[" * 100_000 + "]" * 100_000 + ', "sentence2": "b", '
                 '"score": 2}\n')
    said = f"{path}:2: expected one JSON object per line, got values nested too deeply to read"
    code, out, err = sts("data", "--data-dir", root, "list", capsys=capsys)
    rows = {line.split()[0]: line for line in out.splitlines()[1:] if line and not line.startswith(" ")}
    assert code == 0 and rows["sts2022-test"].endswith(f"INVALID  {said}") and err == []
    code, out, err = sts("run", "token-cosine", "--test", "sts2022-v2-test", "--out", tmp_path / "out", "--data-dir",
                         root, "--quiet", capsys=capsys)
    assert code == 1 and err == [f"error: {said}"]


def test_a_europeana_answer_nested_too_deeply_is_a_clear_error():
    from semsts.corpora import europeana
    with pytest.raises(europeana.EuropeanaError, match=r"record /1/a: the answer is not a record \(JSON nested too "
                                                       r"deeply\)"):
        europeana._check_record(b"[" * 100_000 + b"]" * 100_000, "/1/a")


# --- 6. Credentials in a mirror URL: sent as HTTP basic auth, never shown.


def basic_auth_server(served: Path, user: str, password: str):
    import base64
    expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    class Handler(Quiet):
        def do_GET(self):
            if self.headers.get("Authorization") != expected:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="mirror"')
                self.end_headers()
                return
            data = (served / self.path.rsplit("/", 1)[-1]).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return serve(Handler)


def test_mirror_credentials_work_and_are_never_printed(tmp_path, capsys):
    served = tmp_path / "served"
    served.mkdir()
    (served / "test.jsonl.gz").write_bytes(biosses_bytes(0, 2.2, 4))
    url, stop = basic_auth_server(served, "reader", "s3cr@t")  # the password s3cr@t, percent-encoded in the URL
    base = url.replace("http://", "http://reader:s3cr%40t@") + "/files"
    root = tmp_path / "root"
    try:
        code, out, err = sts("data", "--data-dir", root, "fetch", "biosses-test", "--mirror", base, "--unverified",
                             capsys=capsys)
        assert code == 0, err
        assert corpora.load("biosses-test", root).gold.tolist() == [0.0, 2.2, 4.0]
        assert "s3cr" not in out + "\n".join(err)
        wrong = url.replace("http://", "http://reader:wr0ng@") + "/files"
        code, out, err = sts("data", "--data-dir", tmp_path / "other", "fetch", "biosses-test", "--mirror", wrong,
                             "--quiet", capsys=capsys)
    finally:
        stop()
    shown = url.replace("http://", "http://reader:***@")
    assert code == 1 and err == [f"error: cannot download {shown}/files/test.jsonl.gz: HTTP Error 401: Unauthorized; "
                                 "download test.jsonl.gz by hand and use --archive FILE (or --mirror URL)"]
    assert "wr0ng" not in out


@pytest.mark.parametrize("mirror, said", [
    ("http://u:pa55@[::1/x", "error: mirror 'http://u:***@[::1/x' is not a URL (Invalid IPv6 URL)"),
    ("ftp://u:pa55@host/x", "error: mirror 'ftp://u:***@host/x' is not an http(s):// or file: URL"),
    ("http://u:pa55@host:port/x", "error: mirror 'http://u:***@host:port/x' is not a URL (Port could not be cast to "
                                  "integer value as 'port')"),
])
def test_a_bad_mirror_with_credentials_hides_the_password(tmp_path, capsys, mirror, said):
    code, out, err = sts("data", "--data-dir", tmp_path, "fetch", "stsbenchmark", "--mirror", mirror, capsys=capsys)
    assert code == 1 and err == [said] and "pa55" not in out


def test_redact():
    assert download.redact("https://user:p%40ss@host:8080/a/b") == "https://user:***@host:8080/a/b"
    assert download.redact("http://user@host/a") == "http://user@host/a"
    assert download.redact("http://host/a@b") == "http://host/a@b"
    assert download.redact("http://u:p@ss@host/a") == "http://u:***@host/a"


# --- 7. A FIFO, folder or device link where a dataset file goes: there, but not a regular file; never opened.


def _special(path: Path, what: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if what == "fifo":
        os.mkfifo(path)
    elif what == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")


SAYS = {"fifo": "is a FIFO (named pipe), not a regular file", "folder": "is a folder, not a regular file",
        "dev-zero": "is a device or socket, not a regular file"}


def listed(root, capsys) -> dict:
    """``sts data list``'s row of each dataset."""
    with within(10):
        code, out, err = sts("data", "--data-dir", root, "list", capsys=capsys)
    assert code == 0 and err == []
    return {line.split()[0]: line for line in out.splitlines()[1:] if line and not line.startswith(" ")}


@pytest.mark.parametrize("what", sorted(SAYS))
def test_a_special_file_at_sts22s_place_is_there_but_refused(tmp_path, capsys, what):
    root = tmp_path / "root"
    path = root / "sts2022" / "en" / "test.jsonl"
    _special(path, what)
    rows = listed(root, capsys)
    for name in ("sts2022-test", "sts2022-v2-test"):
        assert rows[name] == f"{name:16} INVALID  {path}: {SAYS[what]}"
    with within(10):
        code, out, err = sts("run", "token-cosine", "--test", "sts2022-test", "--out", tmp_path / "out", "--data-dir",
                             root, "--quiet", capsys=capsys)
    assert code == 1 and err == [f"error: {path}: {SAYS[what]}"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name, rel", [
    ("biosses-test", "biosses/test.jsonl.gz"),
    ("stsb-dev", "stsbenchmark/sts-dev.csv"),
    ("sick2014-trial", "sick2014/SICK_trial.txt"),
    ("clss2014-trial", "clss2014/keys/trial/word2sense.trial.gs.tsv"),
    ("typed2013-test", "typed2013/test/STS.input.europeana.txt"),
    ("sts2014-test", "sts2014/test/STS.gs.images.txt"),
])
def test_every_kind_says_a_fifo_is_there_but_not_regular(tmp_path, capsys, name, rel):
    """The same check for every file a kind reads: a FIFO is not 'absent', and it is never opened."""
    from semsts.corpora import datasets
    root = tmp_path / "root"
    spec = datasets.spec(name)
    if spec.kind.name == "clss":
        write(root / "clss2014/data/trial/word2sense.trial.input.tsv", "w\tk\t1\tid1\n")
    if spec.kind.name == "typed":
        write(root / "typed2013/test/STS.gs.europeana.txt", "1\t1\t1\t1\t1\t1\t1\t1\n")
    if spec.kind.name == "sts":
        write(root / "sts2014/test/STS.input.images.txt", "a\tb\n")
    _special(root / rel, "fifo")
    assert listed(root, capsys)[name] == f"{name:16} INVALID  {root / rel}: {SAYS['fifo']}"
