"""Issue 23, case 9: a long CSV field, complex embeddings."""
import numpy as np
import pytest

from semsts import corpora
from semsts.features.encoders import embed


def test_a_csv_field_over_131072_characters_loads_as_from_tsv(tmp_path):
    long = "word " * 40_000
    (tmp_path / "long.csv").write_text(f'sentence1,sentence2,score\n"{long}",short text,3.0\nshort,text,1.0\n')
    (tmp_path / "long.tsv").write_text(f"sentence1\tsentence2\tscore\n{long}\tshort text\t3.0\nshort\ttext\t1.0\n")
    from_csv, from_tsv = corpora.load_path(tmp_path / "long.csv"), corpora.load_path(tmp_path / "long.tsv")
    assert from_csv.pairs == from_tsv.pairs and len(from_csv.pairs[0][0]) == len(long)


def test_complex_embeddings_are_refused_not_cast():
    with pytest.raises(ValueError, match="returned complex numbers"):
        embed(lambda texts: np.ones((len(texts), 3)) * (1 + 2j), ["a", "b"], 8)


def test_a_header_only_sick_file_is_refused(tmp_path, data_dir):
    header = (data_dir / "sick2014" / "SICK_trial.txt").read_text(encoding="utf-8").splitlines()[0]
    (tmp_path / "SICK_mine.txt").write_text(header + "\n")
    with pytest.raises(corpora.FormatError, match="a SICK header and no pairs after it"):
        corpora.load_path(tmp_path / "SICK_mine.txt")


@pytest.mark.parametrize("argv", [["run", "token-cosine", "--test", "demo-test", "--out", "OUT"],
                                  ["eval", "--dataset", "demo-test", "--run", "OUT"]])
def test_columns_with_only_named_datasets_is_refused_not_ignored(tmp_path, capsys, argv):
    from semsts import cli
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv] + ["--columns", "a,b"]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: --columns names the columns of your own files; demo-test is a named dataset")


@pytest.mark.parametrize("mirror, said", [("::not a url::", "is not an http(s):// or file: URL"),
                                          ("http://[::1", "is not a URL (Invalid IPv6 URL)")])
def test_a_bad_mirror_is_one_error_line(tmp_path, capsys, mirror, said):
    from semsts import cli
    assert cli.main(["data", "--data-dir", str(tmp_path), "fetch", "stsbenchmark", "--mirror", mirror]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: mirror {mirror!r} {said}"], err


def test_edit_features_keep_no_global_table_and_bound_partial_ratio():
    """Issue 23, case 7: a global word table grew with the data and failed after 131,072 distinct lemmas;
    partial_ratio grew about cubically (20,000 characters a side: 224 s)."""
    from semsts.features import edit
    assert not hasattr(edit, "_SYMBOLS")
    many = [f"w{i}" for i in range(140_000)]
    a, b = edit.as_symbols(many, many[::-1])
    assert len(a) == len(b) == 140_000 and a == b[::-1]
    assert edit.as_symbols(["x", "y"], ["y"]) == ("\U00010000\U00010001", "\U00010001")  # the pair's own codes
    long_a, long_b = "ab cd " * 10_000, "cd ef " * 10_000
    assert edit.partial_ratio(long_a, long_b) == edit.partial_ratio(long_a[:1000], long_b[:1000])  # reads 1,000 a side
