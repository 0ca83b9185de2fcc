"""``sts run --seed`` sets the seed of a seeded system and is refused by a system without one."""
from semsts import cli


def _run(*argv):
    return cli.main([str(a) for a in argv])


def test_seed_changes_random_scores_and_repeats_exactly(data_dir, tmp_path):
    outs = {}
    for name, seed in [("a", 1), ("b", 1), ("c", 2)]:
        assert _run("run", "random", "--seed", seed, "--test", "sts2013-test", "--out", tmp_path / name,
                    "--data-dir", data_dir, "--quiet") == 0
        outs[name] = (tmp_path / name / "STS.output.headlines.txt").read_bytes()
    assert outs["a"] == outs["b"]
    assert outs["a"] != outs["c"]


def test_seed_on_an_unseeded_system_is_an_error(data_dir, tmp_path, capsys):
    assert _run("run", "token-cosine", "--seed", 3, "--test", "sts2013-test", "--out", tmp_path,
                "--data-dir", data_dir) == 1
    assert "takes no seed" in capsys.readouterr().err
