"""The Python API page runs as written (issue 14): the ```python blocks of docs/api.md, in order, in one
namespace, in a temporary folder holding the two TSV files the text describes."""
from __future__ import annotations

from pathlib import Path

from tests.conftest import pairs_tsv, python_api_blocks

PAGE = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def test_the_python_api_page_runs(tmp_path, monkeypatch, capsys):
    blocks = python_api_blocks()
    assert len(blocks) >= 2
    pairs_tsv(tmp_path / "my-train.tsv", 59, 1)
    pairs_tsv(tmp_path / "my-test.tsv", 40, 2)
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), namespace)
    out = capsys.readouterr().out
    assert "<Dataset my-test.tsv (table): 40 pairs, 40 scored" in out
    assert "signature: dataset:file=my-test.tsv,sha256=" in out
    assert (tmp_path / "out" / "mine" / "STS.output.my-test.txt").is_file()
    assert (tmp_path / "my.skops").is_file() and (tmp_path / "my.json").is_file()
    assert namespace["report"]["all"] > 0.8
