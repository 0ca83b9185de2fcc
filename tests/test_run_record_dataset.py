"""A run record names what its dataset held: a user's file changed since the run is refused when scored, the same
file named by another path is accepted, and only a record that is complete (true, not "false") counts."""
import json
import os

from semsts import cli
from tests.test_own_data import pairs_tsv


def run_then_eval(tmp_path, capsys, change=None, name=None):
    data = pairs_tsv(tmp_path / "mine.tsv", 40, 3)
    out = tmp_path / "out"
    assert cli.main(["run", "token-cosine", "--test", str(data), "--out", str(out), "--quiet"]) == 0
    if change:
        change(data, out)
    code = cli.main(["eval", "--dataset", name or str(data), "--run", str(out)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_dataset_changed_since_the_run_is_refused(tmp_path, capsys):
    def reverse(data, out):
        lines = data.read_text().splitlines()
        data.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n")
    code, out, err = run_then_eval(tmp_path, capsys, reverse)
    assert code == 1 and "Pearson" not in out
    assert "the dataset changed since the run" in err and "sts-run.json" in err


def test_the_same_file_by_another_path_is_the_same_dataset(tmp_path, capsys, monkeypatch):
    os.makedirs(tmp_path / "sub")
    monkeypatch.chdir(tmp_path / "sub")
    code, out, err = run_then_eval(tmp_path, capsys, name="../mine.tsv")
    assert code == 0 and "Pearson" in out, err


def test_a_record_whose_complete_is_the_string_false_is_incomplete(tmp_path, capsys):
    def stringly(data, out):
        record = json.loads((out / "sts-run.json").read_text())
        record["complete"] = "false"
        (out / "sts-run.json").write_text(json.dumps(record))
    code, out, err = run_then_eval(tmp_path, capsys, stringly)
    assert code == 1 and "did not complete" in err
