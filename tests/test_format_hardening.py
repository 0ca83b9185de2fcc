"""Issue 12: the file formats are plain ASCII decimals (defect 10), messages quote what was written (12)."""
import pytest

from conftest import write
from semsts.corpora import formats
from semsts.corpora.errors import FormatError


@pytest.mark.parametrize("digit", ["\u0663", "\uff13", "\u0663.5", "\u09e9"])  # Arabic-Indic 3, fullwidth 3, Bengali 3
def test_non_ascii_digits_are_not_numbers(tmp_path, digit):
    """Defect 10: float() reads them as 3; the formats do not."""
    gold = write(tmp_path / "gold.txt", f"1\n{digit}\n")
    with pytest.raises(FormatError) as caught:
        formats.read_gold(gold)
    assert str(caught.value) == f"{gold}:2: expected a gold score as a number, got {digit!r}"
    out = write(tmp_path / "out.txt", f"1\n{digit}\n")
    assert [str(e) for e in formats.check_output(out, 2)] == [f"{out}:2: expected a score as a number, got {digit!r}"]


def test_an_out_of_range_value_is_quoted_as_written(tmp_path):
    """Defect 12: 5.0000001 was reported as 'score 5 is outside [0, 5]'."""
    out = write(tmp_path / "out.txt", "1\n5.0000001\n")
    assert [str(e) for e in formats.check_output(out, 2)] == [f"{out}:2: score 5.0000001 is outside [0, 5]"]


def test_list_names_the_given_data_root_in_its_hints(tmp_path, capsys, monkeypatch):
    """Defect 12: the typed2013 hint named ~/.cache/sts/data instead of --data-dir."""
    from semsts import data_cli as cli
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("STS_DATA", raising=False)
    root = tmp_path / "D"
    assert cli.main(["list", "--data-dir", str(root)]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("typed2013-test"))
    assert f"in {root}/typed2013/test," in row and str(tmp_path / "cache") not in out


def test_an_empty_gold_file_is_an_error(tmp_path, capsys):
    """Defect 12: empty GOLD and empty SYS gave exit 0 and 'Pearson: n/a'."""
    from semsts import evaluate
    gold, out = write(tmp_path / "gold.txt", ""), write(tmp_path / "sys.txt", "")
    assert evaluate.main([str(gold), str(out)]) == 1
    assert capsys.readouterr().err == f"error: {gold}: is empty; expected one gold score per line\n"


def test_a_huge_bad_value_is_quoted_by_a_short_prefix(tmp_path):
    """Defect 16: a 1 MB bad line made a 1 MB message."""
    gold = write(tmp_path / "gold.txt", "1\n" + "x" * (1 << 20) + "\n")
    with pytest.raises(FormatError) as caught:
        formats.read_gold(gold)
    assert str(caught.value) == f"{gold}:2: expected a gold score as a number, got {'x' * 60!r}… (1,048,576 characters)"
    out = write(tmp_path / "out.txt", "1\n6." + "0" * (1 << 20) + "\n")
    (error,) = formats.check_output(out, 2)
    assert str(error) == f"{out}:2: score {'6.' + '0' * 58!r}… (1,048,578 characters) is outside [0, 5]"
    assert len(str(FormatError(out, 3, "y" * (1 << 20)))) < 600


def test_many_bad_lines_print_a_bounded_report(tmp_path, capsys):
    """Defect 16: every bad line was printed; the first 20 are, then a count."""
    from semsts import evaluate
    gold = write(tmp_path / "gold.txt", "1\n" * 5000)
    out = write(tmp_path / "sys.txt", "bad\n" * 5000)
    assert evaluate.main([str(gold), str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 21 and err[-1] == "… and 4980 more errors"


def test_a_fully_unscored_subset_is_n_a_without_numpy_warnings(tmp_path, capsys):
    """Defect 18: RuntimeWarnings were printed before the clean n/a."""
    import warnings

    from semsts import evaluate
    folder = tmp_path / "sts2015" / "test"
    write(folder / "STS.input.images.txt", "a\tb\nc\td\ne\tf\n")
    write(folder / "STS.gs.images.txt", "1\n2\n4\n")
    write(folder / "STS.input.belief.txt", "a\tb\nc\td\n")
    write(folder / "STS.gs.belief.txt", "\n\n")  # no pair of this subset was scored
    run = tmp_path / "run"
    write(run / "STS.output.images.txt", "1\n2\n3\n")
    write(run / "STS.output.belief.txt", "1\n2\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert evaluate.main(["--dataset", "sts2015-test", "--run", str(run), "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "belief" in out and "n/a" in out
