"""Tests of semsts.corpora.formats: the file format rules, each on a small file the test writes."""
import math

import numpy as np
import pytest

from conftest import write
from semsts.corpora import FormatError, formats

# --- Format rules of corpora/formats.py, each checked on a small file the test writes.


def test_bom_and_crlf_are_tolerated(tmp_path):
    path = write(tmp_path / "in.txt", b"\xef\xbb\xbfA cat.\tA dog.\r\nOne.\tTwo.\r\n")
    assert formats.read_sts_input(path) == [("A cat.", "A dog."), ("One.", "Two.")]


def test_bom_and_crlf_in_gold(tmp_path):
    path = write(tmp_path / "gs.txt", b"\xef\xbb\xbf4.2\r\n\r\n0\r\n")
    gold = formats.read_gold(path)
    assert gold[0] == 4.2 and math.isnan(gold[1]) and gold[2] == 0.0


def test_licence_fields_after_the_second_sentence_are_ignored(tmp_path):
    path = write(tmp_path / "in.txt", "a b\tc d\tCC-BY-SA\thttp://x\n")
    assert formats.read_sts_input(path) == [("a b", "c d")]


def test_missing_tab_names_file_and_line(tmp_path):
    path = write(tmp_path / "in.txt", "a\tb\nno tab here\n")
    with pytest.raises(FormatError) as err:
        formats.read_sts_input(path)
    assert err.value.line == 2 and err.value.path == str(path)
    assert "no tab" in str(err.value) and f"{path}:2:" in str(err.value)


def test_empty_input_line_is_an_error(tmp_path):
    path = write(tmp_path / "in.txt", "a\tb\n\nc\td\n")
    with pytest.raises(FormatError, match=r":2: .*empty line"):
        formats.read_sts_input(path)


def test_empty_gold_line_is_nan_and_only_that(tmp_path):
    path = write(tmp_path / "gs.txt", "3.5\n\n  \n5\n")
    gold = formats.read_gold(path)
    assert len(gold) == 4
    assert np.isnan(gold).tolist() == [False, True, True, False]


@pytest.mark.parametrize("bad", ["three", "1_0", "4,5", "0x1", "3 4"])
def test_non_number_gold_is_an_error(tmp_path, bad):
    path = write(tmp_path / "gs.txt", f"1\n{bad}\n")
    with pytest.raises(FormatError, match=r"gs.txt:2: expected a gold score as a number"):
        formats.read_gold(path)


@pytest.mark.parametrize("bad", ["nan", "NaN", "inf", "-Infinity", "1e400"])
def test_nan_and_inf_gold_are_errors_not_numbers(tmp_path, bad):
    path = write(tmp_path / "gs.txt", f"{bad}\n")
    with pytest.raises(FormatError, match=r"gs.txt:1: expected a finite gold score"):
        formats.read_gold(path)


def test_gold_out_of_range_and_extra_fields(tmp_path):
    with pytest.raises(FormatError, match=r":1: gold score 5.5 is outside \[0, 5\]"):
        formats.read_gold(write(tmp_path / "a.txt", "5.5\n"))
    with pytest.raises(FormatError, match=r":2: expected one score per gold line"):
        formats.read_gold(write(tmp_path / "b.txt", "1\n2\t3\n"))
    assert formats.read_gold(write(tmp_path / "c.txt", "3.5\n"), formats.CLSS_RANGE)[0] == 3.5
    with pytest.raises(FormatError, match="outside"):
        formats.read_gold(write(tmp_path / "d.txt", "4.5\n"), formats.CLSS_RANGE)


def test_number_forms_accepted(tmp_path):
    gold = formats.read_gold(write(tmp_path / "gs.txt", "5.000\n.5\n+1\n2.\n4e-1\n 3 \n"))
    assert gold.tolist() == [5.0, 0.5, 1.0, 2.0, 0.4, 3.0]


def test_invalid_utf8_names_the_line(tmp_path):
    path = write(tmp_path / "in.txt", b"a\tb\nc\xff\td\n")
    with pytest.raises(FormatError, match=r"in.txt:2: not valid UTF-8"):
        formats.read_sts_input(path)


def test_final_line_end_is_optional(tmp_path):
    assert formats.read_gold(write(tmp_path / "a.txt", "1\n2")).tolist() == [1.0, 2.0]
    assert formats.read_gold(write(tmp_path / "b.txt", "1\n2\n")).tolist() == [1.0, 2.0]


STSB_ROW = "main-captions\timages\t2015\t0001\t{score}\tA \"quoted\" dog.\t'A' dog, \"runs\""


def test_stsb_seven_fields_plus_extras_and_quotes_kept(tmp_path):
    path = write(tmp_path / "sts-dev.csv",
                 STSB_ROW.format(score="2.500") + "\n" + STSB_ROW.format(score="1") + "\tlicence\textra\n")
    pairs, gold, meta = formats.read_stsb(path)
    assert pairs == [('A "quoted" dog.', "'A' dog, \"runs\"")] * 2
    assert gold.tolist() == [2.5, 1.0]
    assert meta[0] == {"genre": "main-captions", "file": "images", "year": "2015", "id": "0001"}


def test_stsb_six_fields_is_an_error(tmp_path):
    path = write(tmp_path / "sts-dev.csv", "main\timages\t2015\t0001\t2.5\tonly one sentence\n")
    with pytest.raises(FormatError, match=r"sts-dev.csv:1: expected 7 or more tab-separated fields.*got 6"):
        formats.read_stsb(path)


@pytest.mark.parametrize("score, message", [("nan", "finite"), ("", "as a number"), ("7", "outside")])
def test_stsb_bad_score(tmp_path, score, message):
    path = write(tmp_path / "sts-dev.csv", STSB_ROW.format(score=score) + "\n")
    with pytest.raises(FormatError, match=message):
        formats.read_stsb(path)


def test_clss_three_and_four_field_lines(tmp_path):
    p2s = write(tmp_path / "p.tsv", "A long paragraph.\tA sentence.\tnewswire_1\n")
    assert formats.read_clss_input(p2s, "paragraph2sentence") == ([("A long paragraph.", "A sentence.")], ["newswire_1"])
    w2s = write(tmp_path / "w.tsv", "dog\tdog%1:05:00::\tdog#n#1\tw2s_7\n")
    assert formats.read_clss_input(w2s, "word2sense") == ([("dog", "dog%1:05:00::")], ["w2s_7"])
    with pytest.raises(FormatError, match=r"w3.tsv:1: expected 4 tab-separated fields for word2sense, got 3"):
        formats.read_clss_input(write(tmp_path / "w3.tsv", "dog\tdog%1:05:00::\tw2s_7\n"), "word2sense")
    with pytest.raises(FormatError, match=r"p2.tsv:1: expected 3"):
        formats.read_clss_input(write(tmp_path / "p2.tsv", "A\tB\n"), "phrase2word")


def test_write_output_refuses_nan_and_out_of_range(tmp_path):
    with pytest.raises(ValueError, match="score 2 is nan"):
        formats.write_output(tmp_path / "o.txt", [1.0, math.nan])
    with pytest.raises(ValueError, match="score 1"):
        formats.write_output(tmp_path / "o.txt", [4.5], score_range=formats.CLSS_RANGE)
    assert not (tmp_path / "o.txt").exists()
    formats.write_output(tmp_path / "o.txt", [0, 5])
    assert (tmp_path / "o.txt").read_text() == "0.000000\n5.000000\n"


def test_write_output_confidences(tmp_path):
    with pytest.raises(ValueError, match=r"confidence 2 is 101.0; expected a finite number in \[0, 100\]"):
        formats.write_output(tmp_path / "o.txt", [1, 2], confidences=[50, 101])
    with pytest.raises(ValueError, match="2 scores but 1 confidences"):
        formats.write_output(tmp_path / "o.txt", [1, 2], confidences=[50])
    assert not (tmp_path / "o.txt").exists()
    formats.write_output(tmp_path / "o.txt", [1, 2], confidences=[0, 100])
    assert (tmp_path / "o.txt").read_text() == "1.000000\t0.000000\n2.000000\t100.000000\n"
    assert list(formats.check_output(tmp_path / "o.txt", 2)) == []


# --- Issue 12: the file formats are plain ASCII decimals (defect 10), messages quote what was written (12).


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
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("typed2013-test"))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    row = " ".join(line.strip() for line in lines[start:end])  # the row and the lines it wraps onto
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
    assert len(err) == 21 and err[-1] == "error: … and 4980 more errors"  # every line an error: line, for grep


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


def sparse(path, size: int):
    """A file of ``size`` bytes that takes no room on the disk (a hole), as a 4 GiB file would be made cheaply."""
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def test_every_reader_of_a_data_file_refuses_one_over_the_bound_naming_its_size_and_the_limit(tmp_path):
    from semsts.core.files import MAX_DATA_BYTES
    from semsts.corpora import jsonl, kinds, sick, tables
    readers = [formats.read_gold, formats.read_sts_input, formats.read_output, formats.read_stsb,
               lambda p: formats.read_clss_input(p, "phrase2word"), tables.read_table, sick.read_sick,
               lambda p: jsonl.read_jsonl(p, (0, 5)), lambda p: kinds.pairs_of_parquet(p, (0, 5))]
    big = sparse(tmp_path / "big.txt", MAX_DATA_BYTES + 1)
    for read in readers:
        with pytest.raises(FormatError) as caught:
            read(big)
        assert str(caught.value) == f"{big}: {MAX_DATA_BYTES + 1:,} bytes, more than a data file holds (at most " \
                                    f"{MAX_DATA_BYTES:,}); refused"
