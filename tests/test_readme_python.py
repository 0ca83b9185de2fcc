"""The Python API page runs as written (issue 14): the ```python blocks of docs/api.md, in order, in one
namespace, in a temporary folder holding the two TSV files the text describes."""
from __future__ import annotations

import warnings
from pathlib import Path

from semsts.core.errors import Note
from tests.conftest import pairs_tsv, python_api_blocks

PAGE = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def test_the_python_api_page_runs(tmp_path, monkeypatch, capsys):
    blocks = python_api_blocks()
    assert len(blocks) >= 2
    pairs_tsv(tmp_path / "my-train.tsv", 59, 1)
    pairs_tsv(tmp_path / "my-test.tsv", 40, 2)
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Note)
        for block in blocks:
            exec(compile(block, str(PAGE), "exec"), namespace)
    out, err = capsys.readouterr()
    assert not [w for w in caught if issubclass(w.category, Note)] and not err  # as the page says
    assert out.startswith("<Dataset my-test.tsv (table): 40 pairs, 40 scored")
    assert "signature: dataset:file=my-test.tsv,sha256=" in out
    report = namespace["report"]  # the three prints, nothing else
    assert out == f"{namespace['test']}\n{report.render('text')}\n{report['all']} {report.signature.get('dataset')}\n"
    assert (tmp_path / "out" / "api-example" / "STS.output.my-test.txt").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["api-example.json", "api-example.skops", "my-test.tsv",
                                                           "my-train.tsv", "out"]
    assert namespace["report"]["all"] > 0.8
