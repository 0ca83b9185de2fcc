"""The README's bench tables reproduce: rerun their command and find each of our rows, verbatim, in the README."""
from pathlib import Path

import pytest

from semsts import cli

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
COMMAND = ("bench token-cosine lcs gst glove-mean sif wordllama --model models/stsb.skops --published --convention simcse "
           "--convention official --format markdown")


@pytest.mark.slow  # about 32 s: reruns the README's bench
def test_the_readme_bench_tables_come_from_their_command(data_dir, capsys, monkeypatch, tmp_path):
    """The README's tables were made on ../shared/data, which has no STS 2017: a root that holds it (after
    `sts data fetch all`) is read without it, so that the same columns come out."""
    import shutil
    assert " ".join(f"sts {COMMAND}".split()) in " ".join(README.split()), "the README no longer names this command"
    root = tmp_path / "root"
    shutil.copytree(data_dir, root, ignore=lambda folder, names: ["sts2017"] if Path(folder) == data_dir else [])
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    assert cli.main([*COMMAND.split(), "--quiet", "--data-dir", str(root)]) == 0
    out = capsys.readouterr().out
    ours = [line for line in out.splitlines() if line.startswith("| ") and line.split(" | ")[0][2:] in
            ("token-cosine", "lcs", "gst", "glove-mean", "sif", "wordllama", "regression (stsb.skops) †")]
    assert len(ours) == 14  # seven systems in each of the two tables
    missing = [line for line in ours if line not in README.splitlines()]
    assert not missing, f"README rows that the command no longer gives: {missing}"


def test_the_readme_glove_gap_tables_come_from_their_script(data_dir, capsys):
    """`python benchmarks/glove_mean_gap.py`: the vocabulary table and the variants' table, every row in the README."""
    import importlib.util
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "glove_mean_gap.py"
    assert "`python benchmarks/glove_mean_gap.py`" in README, "the README no longer names this script"
    spec = importlib.util.spec_from_file_location("glove_mean_gap", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--data-dir", str(data_dir)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 2 + 7 + 6  # two headers, seven datasets, five variants and the published row
    missing = [line for line in rows if line not in README.splitlines()]
    assert not missing, f"README rows that the script no longer gives: {missing}"
