"""Issue 12: hostile or damaged archives are refused by ``sts data fetch`` and nothing leaves the data root."""
import os
import tarfile
import zipfile

import pytest
from test_fetch import data_main, leftovers, make_tar, make_zip, stsb_members

from semsts.corpora import fetch

DEEP = "a/b/c/d/e/f/g/h"


@pytest.mark.parametrize("links", [
    [(f"{DEEP}/stsbenchmark/passwd", "../../../../../../../../etc/passwd", tarfile.SYMTYPE)],
    [(f"{DEEP}/stsbenchmark/up", "..", tarfile.SYMTYPE)],
    [(f"{DEEP}/stsbenchmark/sub/l2", "..", tarfile.SYMTYPE), (f"{DEEP}/stsbenchmark/l1", "sub/l2/..", tarfile.SYMTYPE)],
])
def test_links_leaving_the_installed_folder_are_refused(tmp_path, no_manifest, links):
    """Defect 1: a link that stays inside the extraction folder but leaves the dataset's folder once installed."""
    members = {f"{DEEP}/{name}": text for name, text in stsb_members().items()}
    archive = make_tar(tmp_path / "a.tar.gz", members, links)
    root = tmp_path / "root"
    with pytest.raises(fetch.FetchError, match=r"stsbenchmark: link '.+' -> '.+' leads outside stsbenchmark/ once installed; refused"):
        fetch.fetch("stsbenchmark", root, archives=[archive])
    assert not (root / "stsbenchmark").exists() and leftovers(root) == []


def test_a_second_archive_never_writes_through_the_first_ones_link(tmp_path, capsys, no_manifest):
    """Defect 1b: B writes under the path of A's link whose target leaves the data root."""
    outside = tmp_path / "outside"
    outside.mkdir()
    deep = "p/q/r/s/t/u/v/w/T"
    a = make_tar(tmp_path / "A.tgz", {f"{deep}/data/test/phrase2word.test.input.tsv": "a phrase\tword\tid1\n",
                                      f"{deep}/keys/test/phrase2word.test.gs.tsv": "2.5\n"},
                 [(f"{deep}/data/test/evil", "../../../../../../outside", tarfile.SYMTYPE)])
    b = make_zip(tmp_path / "B.zip", {"T2/data/test/evil/pwned.txt": "owned\n", "T2/keys/readme.txt": "r\n"})
    root = tmp_path / "root"
    assert data_main("--data-dir", root, "fetch", "clss2014-test", "--archive", a, "--archive", b, "--quiet") == 1
    err = capsys.readouterr().err
    assert "clss2014/data/test/evil: a link another archive made; refusing to write through or over it" in err
    assert list(outside.iterdir()) == [] and not (root / "clss2014").exists() and leftovers(root) == []


def test_a_zip_bomb_member_is_refused_before_extraction(tmp_path):
    """Defect 2: a member that expands a thousandfold (10 MiB of zeros in 10 KB)."""
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in stsb_members().items():
            zf.writestr(name, text)
        zf.writestr("stsbenchmark/zeros.txt", bytes(10 << 20))
    root = tmp_path / "root"
    with pytest.raises(fetch.FetchError, match=r"bomb.zip: member 'stsbenchmark/zeros.txt' expands \d+-fold "
                                               r"\(10.0 MiB\), more than 200-fold; a zip bomb\? refused"):
        fetch.fetch("stsbenchmark", root, archives=[archive])
    assert not (root / "stsbenchmark").exists() and leftovers(root) == []


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_the_extracted_total_is_capped(tmp_path, monkeypatch, kind):
    """Defect 2: more bytes in all than the release may need (the cap lowered to 1 MiB to keep the test small)."""
    monkeypatch.setattr(fetch, "BUDGET_FLOOR", 1 << 20, raising=False)
    monkeypatch.setattr(fetch, "BUDGET_FACTOR", 0, raising=False)
    members = {**stsb_members(), **{f"stsbenchmark/extra{i}.txt": os.urandom(300_000).hex()[:300_000] for i in range(4)}}
    archive = (make_zip if kind == "zip" else make_tar)(tmp_path / f"a.{kind}", members)
    root = tmp_path / "root"
    with pytest.raises(fetch.FetchError, match=r"expands to more than 1.0 MiB \(at 'stsbenchmark/extra3.txt'\), "
                                               "far more than the release needs; refused"):
        fetch.fetch("stsbenchmark", root, archives=[archive])
    assert not (root / "stsbenchmark").exists()


@pytest.fixture()
def endless(tmp_path):
    """A server on 127.0.0.1 that streams 32 MiB of zeros with no Content-Length (or with one, under /announced/)."""
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def do_GET(self):
            self.send_response(200)
            if self.path.startswith("/announced/"):
                self.send_header("Content-Length", str(32 << 20))
            self.end_headers()
            try:
                for _ in range(32 * 16):
                    self.wfile.write(bytes(1 << 16))
            except OSError:
                pass

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize("where, message", [
    ("plain", r"/plain/Stsbenchmark.tar.gz: more than 1.0 MiB, far more than the release needs; refused"),
    ("announced", r"/announced/Stsbenchmark.tar.gz: announces 32.0 MiB, far more than the release needs "
                  r"\(at most 1.0 MiB\); refused"),
])
def test_the_download_is_capped(endless, tmp_path, monkeypatch, where, message):
    """Defect 2: a mirror streaming far more than the release needs is cut off, not read whole."""
    monkeypatch.setattr(fetch, "BUDGET_FLOOR", 1 << 20, raising=False)
    monkeypatch.setattr(fetch, "BUDGET_FACTOR", 0, raising=False)
    seen = []
    root = tmp_path / "root"
    with pytest.raises(fetch.FetchError, match=message):
        fetch.fetch("stsbenchmark", root, mirror=f"{endless}/{where}", progress=lambda name, done, total: seen.append(done))
    assert max(seen, default=0) <= (1 << 20) + (1 << 16) and leftovers(root) == []


def test_an_incomplete_archive_is_not_installed(data_dir, tmp_path, capsys):
    """Defect 3: an archive holding only the FNWN files of sts2013-test (they match the manifest)."""
    folder = data_dir / "sts2013" / "test"
    members = {f"test-gs/{p.name}": p.read_text(encoding="utf-8") for p in folder.iterdir() if "FNWN" in p.name}
    root = tmp_path / "root"
    assert data_main("--data-dir", root, "fetch", "sts2013-test", "--archive", make_zip(tmp_path / "a.zip", members)) == 1
    err = capsys.readouterr().err
    assert ("error: sts2013-test: the archive lacks 4 input or gold file(s) of the official release: "
            "sts2013/test/STS.gs.OnWN.txt, sts2013/test/STS.gs.headlines.txt, sts2013/test/STS.input.OnWN.txt, "
            "sts2013/test/STS.input.headlines.txt; an incomplete archive? refused") in err
    assert not (root / "sts2013").exists() and leftovers(root) == []


def test_a_clss_package_must_hold_its_parts_whole(data_dir, tmp_path):
    """Defect 3: CLSS comes in packages; a part present (here the test split) must be whole."""
    clss = data_dir / "clss2014"
    members = {f"task3-test/{p.relative_to(clss)}": p.read_text(encoding="utf-8")
               for p in sorted(clss.rglob("*.tsv")) if "/test/" in p.as_posix() and "word2sense" not in p.name}
    with pytest.raises(fetch.FetchError, match=r"clss2014: the archive lacks 2 input or gold file\(s\) of the "
                       r"official release: clss2014/data/test/word2sense.test.input.tsv, clss2014/keys/test/word2sense"):
        fetch.fetch("clss2014-test", tmp_path / "root", archives=[make_zip(tmp_path / "t.zip", members)])
    whole = {f"task3-test/{p.relative_to(clss)}": p.read_text(encoding="utf-8")
             for p in sorted(clss.rglob("*.tsv")) if "/test/" in p.as_posix()}
    assert fetch.fetch("clss2014-test", tmp_path / "root", archives=[make_zip(tmp_path / "w.zip", whole)])


def test_an_empty_target_folder_does_not_block_the_fetch(tmp_path, capsys, no_manifest):
    """Defect 9: `list` says absent, so `fetch` installs; a file in the way is an error, not 'already in'."""
    root = tmp_path / "root"
    (root / "stsbenchmark").mkdir(parents=True)
    archive = make_tar(tmp_path / "a.tar.gz", stsb_members())
    assert data_main("--data-dir", root, "list") == 0
    assert "stsb-dev         absent" in capsys.readouterr().out
    assert data_main("--data-dir", root, "fetch", "stsb-dev", "--archive", archive, "--quiet") == 0
    assert f"stsbenchmark: installed in {root}/stsbenchmark" in capsys.readouterr().out
    other = tmp_path / "other"
    other.mkdir()
    (other / "stsbenchmark").write_text("not a folder\n")
    assert data_main("--data-dir", other, "fetch", "stsb-dev", "--archive", archive, "--quiet") == 1
    assert (f"error: stsbenchmark: {other}/stsbenchmark is a file (`sts data list` shows the datasets absent); "
            "move it aside, or use --force to replace it") in capsys.readouterr().err
    assert data_main("--data-dir", other, "fetch", "stsb-dev", "--archive", archive, "--quiet", "--force") == 0
    assert (other / "stsbenchmark" / "sts-dev.csv").is_file()


def test_a_tar_gz_without_its_gzip_trailer_is_refused(tmp_path, no_manifest):
    """Defect 18: the content is whole, but a cut download must not pass."""
    whole = make_tar(tmp_path / "a.tar.gz", stsb_members()).read_bytes()
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(whole[:-8])  # the CRC-32 and size that end every gzip stream
    with pytest.raises(fetch.FetchError, match=r"cut.tar.gz: not a readable zip or tar archive \(Compressed file ended "
                                               r"before the end-of-stream marker was reached\); an HTML page or a cut download\?"):
        fetch.fetch("stsbenchmark", tmp_path / "root", archives=[cut])
    bad_crc = tmp_path / "crc.tar.gz"
    bad_crc.write_bytes(whole[:-8] + bytes([whole[-8] ^ 1]) + whole[-7:])
    with pytest.raises(fetch.FetchError, match=r"crc.tar.gz: not a readable zip or tar archive \(CRC check failed"):
        fetch.fetch("stsbenchmark", tmp_path / "root", archives=[bad_crc])
    assert not (tmp_path / "root" / "stsbenchmark").exists()
    assert fetch.fetch("stsbenchmark", tmp_path / "root", archives=[tmp_path / "a.tar.gz"])
