"""Run-folder files are opened only if they are regular files (issue 23, case 5): no file made through a link,
no hang on a FIFO, nothing read from a device; a deeply nested record is one error line."""
import os
import threading

import pytest

from semsts import cli
from tests.test_own_data import pairs_tsv


def run(tmp_path, out, *extra):
    data = pairs_tsv(tmp_path / "mine.tsv", 20, 3)
    return cli.main(["run", "token-cosine", "--test", str(data), "--out", str(out), "--quiet", *extra])


def within(seconds, fn):
    """``fn()``'s result, failing the test (not hanging it) if it takes longer than ``seconds``."""
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "hung"
    return result["value"]


def test_a_lock_that_links_to_a_missing_path_creates_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "elsewhere" / "made-by-us"
    (tmp_path / "elsewhere").mkdir()
    os.symlink(target, out / ".sts-run.lock")
    assert run(tmp_path, out) == 1
    err = capsys.readouterr().err
    assert not target.exists() and err.startswith("error: ") and "not a regular file" in err and err.count("\n") == 1


def test_a_fifo_lock_does_not_hang(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / ".sts-run.lock")
    assert within(20, lambda: run(tmp_path, out)) == 1
    assert "not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "nested"])
def test_a_record_that_is_no_regular_file_or_too_deep_is_one_error_line(tmp_path, capsys, kind):
    out = tmp_path / "out"
    assert run(tmp_path, out) == 0
    record = out / "sts-run.json"
    record.unlink()
    if kind == "fifo":
        os.mkfifo(record)
    elif kind == "dev-zero":
        os.symlink("/dev/zero", record)
    else:
        record.write_text('{"complete": true, "files": {}, "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code = within(20, lambda: cli.main(["eval", "--dataset", str(tmp_path / "mine.tsv"), "--run", str(out)]))
    err = capsys.readouterr().err
    assert code == 1 and "sts-run.json" in err and "Traceback" not in err


@pytest.mark.parametrize("change", [{"dataset": None}, {"system": ["a", "b"]}, {"files": {"x": 5}}, {"drop": "dataset"}])
def test_bench_runs_with_a_malformed_record_is_one_error_line(tmp_path, capsys, change):
    import json
    out = tmp_path / "out"
    assert run(tmp_path, out) == 0
    record = json.loads((out / "sts-run.json").read_text())
    if "drop" in change:
        del record[change["drop"]]
    else:
        record.update(change)
    (out / "sts-run.json").write_text(json.dumps(record))
    assert cli.main(["bench", "--runs", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "not a run record" in err[0], err
