"""The shipped demo data (only CC BY-SA STS Benchmark rows) and the ``sts demo`` scoreboard."""
import ast
import re
from fnmatch import fnmatch
from pathlib import Path

import numpy as np
import pytest

from semsts import cli, corpora, evaluate
from semsts.baselines import demo_scoreboard as demo
from semsts.baselines import registry
from semsts.corpora import demo_build, paths
from semsts.demo import demo_correlations

ROOT = Path(__file__).resolve().parents[1]


def test_demo_rows_are_exactly_the_cc_by_sa_caption_rows(data_dir, tmp_path):
    counts = demo_build.build(data_dir / "stsbenchmark", tmp_path)
    assert counts == {"train": 1000, "dev": 375, "test": 375}
    for split in demo_build.SPLITS:
        shipped = paths.demo_root() / f"sts-{split}.csv"
        assert shipped.read_bytes() == (tmp_path / f"sts-{split}.csv").read_bytes(), split


def test_demo_datasets_load_and_hold_only_images_and_track5():
    for split, n in [("train", 1000), ("dev", 375), ("test", 375)]:
        (sub,) = corpora.load(f"demo-{split}")
        assert len(sub) == n and sub.n_scored == n
        _, _, meta = corpora.formats.read_stsb(sub.input_path)
        assert {m["genre"] for m in meta} == {"main-captions"}
        assert {m["file"] for m in meta} <= {"images", "track5.en-en"}
    assert corpora.load("demo-train", "/nonexistent/root").subset("sts-train")  # independent of the data root


def test_demo_licence_attribution_and_packaging():
    demo = paths.demo_root()
    licence, attribution = (demo / "LICENSE").read_text(), (demo / "ATTRIBUTION").read_text()
    assert "CC BY-SA 4.0" in licence and "creativecommons.org/licenses/by-sa/4.0" in licence
    assert "SemEval-2017 Task 1" in attribution and "SNLI" in attribution and "PASCAL" in attribution
    section = (ROOT / "pyproject.toml").read_text().split("[tool.setuptools.package-data]", 1)[1]
    globs = ast.literal_eval(re.search(r'^"semsts.corpora" = (\[.*\])$', section, re.M).group(1))
    for f in ["sts-train.csv", "sts-dev.csv", "sts-test.csv", "LICENSE", "ATTRIBUTION"]:
        assert any(fnmatch(f"demo/{f}", g) for g in globs), f


class Broken(registry.make_system("random").__class__):
    """A system whose fit fails the way one needing an absent resource would."""

    def _fit(self, pairs, y):
        raise LookupError("WordNet 3.0 not found\nmore detail")


def test_the_demo_runs_every_registered_system_but_the_typed_ones():
    # TYPED systems score record pairs; the demo leaves them out (and only them)
    assert demo.demo_systems() == ["token-cosine", "random", "lcs", "gst", "glove-mean", "sif", "wordllama", "regression"]
    assert set(registry.system_names()) - set(demo.demo_systems()) == {"typed-tfidf", "typed-regression"}


def test_scoreboard_sorts_by_pearson_and_lists_failures(monkeypatch):
    monkeypatch.setitem(registry.SYSTEMS, "broken", (__name__, "Broken", "always fails"))
    rows = demo.demo_scoreboard(["random", "broken", "token-cosine"], scorer=demo_correlations)
    assert [r.system for r in rows] == ["token-cosine", "random", "broken"]
    assert rows[-1].error == "LookupError: WordNet 3.0 not found\nmore detail" and not rows[0].error  # whole
    (test,) = corpora.load("demo-test")
    from semsts.baselines import TokenCosine
    expected = TokenCosine().fit(test.pairs).predict(test.pairs)
    assert rows[0].n == 375
    assert rows[0].pearson == pytest.approx(evaluate.pearson(expected, test.gold))
    assert rows[0].spearman == pytest.approx(evaluate.spearman(expected, test.gold))
    assert np.isfinite([rows[0].pearson, rows[1].pearson]).all()


def test_sts_demo_prints_the_scoreboard(capsys, monkeypatch):
    monkeypatch.setitem(registry.SYSTEMS, "broken", (__name__, "Broken", "always fails"))
    assert cli.main(["demo", "--quiet", "--system", "broken", "--system", "token-cosine", "--system", "random"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[1].split() == ["system", "Pearson", "Spearman", "n"]
    assert any(line.startswith("token-cosine") and line.split()[-1] == "375" for line in lines)
    failed = next(line for line in lines if line.startswith("broken"))
    assert "failed" in failed and failed.endswith("WordNet 3.0 not found")
    assert lines[-2:] == ["LookupError: WordNet 3.0 not found", "more detail"]  # the guidance printed whole
    assert err == ""


def test_sts_demo_runs_with_the_cores_as_the_other_commands_default_to(monkeypatch, capsys):
    """Issue 46: the grid search's SVR fits run in threads beside each other (a second of the demo on two cores); the
    scoreboard is the same whatever the number."""
    from semsts.core import run_settings as settings
    asked, real = [], settings.run_settings
    monkeypatch.setattr(settings, "run_settings", lambda **kw: asked.append(kw.get("n_jobs", 1)) or real(**kw))
    assert cli.main(["demo", "--quiet", "--system", "random"]) == 0
    assert asked == [settings.available_cores()] and "random" in capsys.readouterr().out


def test_sts_demo_progress_goes_to_stderr(capsys):
    assert cli.main(["demo", "--system", "random"]) == 0
    out, err = capsys.readouterr()
    assert "systems" in err and "random" in out and "token-cosine" not in out


def test_sts_demo_refuses_an_unknown_system(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["demo", "--system", "nope"])
    assert exit_.value.code == 2 and "unknown system nope" in capsys.readouterr().err

