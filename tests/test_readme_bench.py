"""The bench tables reproduce: rerun their command and find each of our rows, verbatim, where they are shown: the
SimCSE-convention table in README.md (its headline results, with four published rows, each checked too), the
official-convention table in docs/figures.md. (The glove-mean gap tables live in benchmarks/RESULTS.md, checked by
tests/test_results_file.py.)"""
from pathlib import Path

import pytest

from semsts import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FIGURES = (ROOT / "docs" / "figures.md").read_text(encoding="utf-8")
COMMAND = ("bench token-cosine lcs gst glove-mean sif wordllama --model stsb --published --convention simcse "
           "--convention official --format markdown --all")


@pytest.mark.slow  # about 32 s: reruns the bench of the README's results
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
    missing = [line for line in ours if line not in README.splitlines() + FIGURES.splitlines()]
    assert not missing, f"rows that the command no longer gives: {missing}"
    headline = README.split("[start:headline]", 1)[1].split("[end:headline]", 1)[0]
    shown = [line for line in headline.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(shown) == 1 + 4 + 7  # the header, four published rows, ours
    assert not [line for line in shown if line not in out.splitlines()], "README headline rows the command does not print"

