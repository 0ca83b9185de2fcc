"""Issue 12, defect 6: a line, not a traceback: odd zips, negative --seed/--resamples, Ctrl-C during ``sts run``."""
import io
import struct
import sys
import zipfile

import pytest
from test_fetch import data_main, stsb_members

from semsts import cli
from semsts.corpora import formats


def _patched_zip(path, method=None, encrypted=False):
    """A zip of the STS Benchmark files whose first member claims ``method`` or the encryption flag."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, text in stsb_members().items():
            zf.writestr(name, text)
    data = bytearray(buffer.getvalue())
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    if method is not None:
        struct.pack_into("<H", data, local + 8, method)
        struct.pack_into("<H", data, central + 10, method)
    if encrypted:
        struct.pack_into("<H", data, local + 6, 1)
        struct.pack_into("<H", data, central + 8, 1)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("kwargs, message", [
    ({"method": 99}, "a.zip: member 'stsbenchmark/sts-train.csv' uses compression method 99, which this reader "
                     "does not support (stored, deflate, bzip2, lzma)"),
    ({"encrypted": True}, "a.zip: member 'stsbenchmark/sts-train.csv' is encrypted; the official releases are not"),
])
def test_an_unreadable_zip_member_is_one_line(tmp_path, capsys, kwargs, message):
    archive = _patched_zip(tmp_path / "a.zip", **kwargs)
    assert data_main("--data-dir", tmp_path / "root", "fetch", "stsb-dev", "--archive", archive) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("option, message", [("--seed", "argument --seed: expected a whole number of at least 0, got -1"),
                                             ("--resamples", "argument --resamples: expected a whole number of at least 1, got -1")])
def test_compare_refuses_a_negative_seed_or_resamples(data_dir, tmp_path, capsys, option, message):
    with pytest.raises(SystemExit) as exit:
        cli.main(["compare", "--dataset", "sts2013-test", "--data-dir", str(data_dir), "--run", f"a={tmp_path}", option, "-1"])
    assert exit.value.code == 2 and message in capsys.readouterr().err


def test_ctrl_c_during_sts_run_is_one_line_and_exit_130(data_dir, tmp_path, monkeypatch, capsys):
    def interrupted(value):
        raise KeyboardInterrupt

    monkeypatch.setattr(formats, "format_score", interrupted)
    monkeypatch.setattr(sys, "argv", ["sts", "run", "random", "--test", "sts2012-test", "--out", str(tmp_path / "o"),
                                      "--data-dir", str(data_dir), "--quiet"])
    try:
        code = cli.main()
    except KeyboardInterrupt:
        pytest.fail("KeyboardInterrupt escaped sts.main: a traceback for the user")
    assert code == 130
    assert capsys.readouterr().err == "sts: interrupted\n"


def test_run_refuses_an_empty_out(data_dir, tmp_path, monkeypatch, capsys):
    """Defect 11: ``--out ""`` would write into the current directory."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit:
        cli.main(["run", "random", "--test", "sts2012-test", "--out", "", "--data-dir", str(data_dir), "--quiet"])
    assert exit.value.code == 2
    assert "sts run: error: argument --out: is empty; name a directory (use . for the current one)" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
