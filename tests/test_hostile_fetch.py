"""Issue 12: hostile or damaged archives are refused by ``sts data fetch`` and nothing leaves the data root."""
import io
import os
import tarfile
import zipfile

import pytest

from corpora import fetch
from test_fetch import data_main, leftovers, make_tar, make_zip, no_manifest, server, stsb_members  # noqa: F401

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
