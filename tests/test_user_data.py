"""Tests of semsts.corpora.user_data: a user's own data, validated, signed, trained on, run and scored."""
from __future__ import annotations

import hashlib
import math
import subprocess

import numpy as np
import pytest

from conftest import write
from semsts import baselines, cli, corpora, evaluate
from semsts.corpora import DatasetNotFound, FormatError, manifest
from tests.conftest import SMALL, SMALL_PARAMS, pairs_tsv

SICK_HEADER = "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
NO_SCORES = ("has no score column (none of score, similarity, similarity_score, relatedness_score, gold, label; name "
             "yours with columns=(TEXT1, TEXT2, SCORE), --columns TEXT1,TEXT2,SCORE): it can be run but not scored or "
             "trained on")


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- names and paths -------------------------------------------------------------------------------

def test_a_name_is_the_named_dataset_and_a_path_is_a_file(data_dir, tmp_path, monkeypatch):
    named = corpora.resolve("stsb-dev", data_dir)
    assert named.name == "stsb-dev" and named.path is None and named.sha256 == "" and named.has_gold
    csv = data_dir / "stsbenchmark" / "sts-dev.csv"
    mine = corpora.resolve(csv)
    assert mine.name == str(csv) and mine.path == csv and mine.kind.name == "stsb"
    assert mine.pairs == named.pairs and np.array_equal(mine.gold, named.gold)
    assert mine.subsets[0].ids == named.subsets[0].ids
    assert mine.sha256 == manifest.load_manifest()["stsbenchmark/sts-dev.csv"]["sha256"]
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "stsb-dev", "sentence1\tsentence2\na\tb\n")
    assert corpora.resolve("stsb-dev", data_dir).kind.name == "stsb"  # the name wins
    assert corpora.resolve("./stsb-dev").kind.name == "table"  # ./ names the file
    with pytest.raises(ValueError, match="columns and score_range apply to files, not to the named dataset 'stsb-dev'"):
        corpora.resolve("stsb-dev", data_dir, columns=("a", "b"))


def test_neither_a_name_nor_a_file(tmp_path):
    with pytest.raises(DatasetNotFound, match=r"^'mine.tsv' is neither a known dataset nor an existing file or folder; "
                                              r"`sts data list` lists every known dataset$"):
        corpora.resolve("mine.tsv")
    with pytest.raises(DatasetNotFound, match=r"; the closest known: sts2013-test(, [a-z0-9-]+)*; `sts data list`"):
        corpora.resolve("sts2013-tset")


def test_official_folders_and_files_by_path_equal_the_named_datasets(data_dir):
    for name, path in [("sts2012-test", data_dir / "sts2012" / "test"),
                       ("sts2016-test", data_dir / "sts2016" / "test"),
                       ("sick2014-test", data_dir / "sick2014" / "SICK_test_annotated.txt")]:
        named, mine = corpora.load(name, data_dir), corpora.resolve(path)
        assert mine.kind is named.kind and mine.has_gold
        assert sorted(s.name for s in mine) == sorted(s.name for s in named)
        for sub in named:
            other = mine.subset(sub.name)
            assert other.pairs == sub.pairs and other.ids == sub.ids and other.score_range == sub.score_range
            assert np.array_equal(other.gold, sub.gold, equal_nan=True)
    assert len(corpora.resolve(data_dir / "sick2014" / "SICK_test_annotated.txt").pairs) == 4927
    assert corpora.resolve(data_dir / "sts2015" / "test" / "STS.input.belief.txt").subset("belief").n_scored == 375


# --- STS folders and files -------------------------------------------------------------------------

def test_sts_folder_with_both_namings_and_an_input_without_gold(tmp_path):
    folder = tmp_path / "mine"
    write(folder / "STS.input.news.txt", "a b\tc d\ne\tf\n")
    write(folder / "STS.gs.news.txt", "4.5\n\n")
    write(folder / "STS2016.input.forum.txt", "g\th\tlicence\n")
    write(folder / "STS2016.gs.forum.txt", "1\n")
    write(folder / "STS.input.blind.txt", "i\tj\n")
    write(folder / "readme.txt", "not data\n")
    ds = corpora.resolve(folder)
    assert [s.name for s in ds] == ["blind", "news", "forum"] and ds.kind.name == "sts" and ds.path == folder
    assert ds.subset("news").gold[0] == 4.5 and math.isnan(ds.subset("news").gold[1])
    assert ds.subset("forum").pairs == [("g", "h")] and ds.subset("forum").output_name == "STS.output.forum.txt"
    blind = ds.subset("blind")
    assert not blind.has_gold and blind.gold_path is None and blind.n_scored == 0 and not ds.has_gold
    assert ds.notes == (f"{folder}: STS.input.blind.txt has no gold file beside it: its pairs are not scored",)
    with pytest.raises(ValueError, match=r"STS.input.blind.txt has no gold file: it can be run but not scored or trained on"):
        ds.require_gold()
    # the folder's digest: `sha256sum` of the files read, sorted by name, digested again
    files = ["STS.gs.news.txt", "STS.input.blind.txt", "STS.input.news.txt", "STS2016.gs.forum.txt", "STS2016.input.forum.txt"]
    listing = "".join(f"{sha(folder / f)}  {f}\n" for f in files)
    assert ds.sha256 == hashlib.sha256(listing.encode()).hexdigest()
    shell = subprocess.run("sha256sum STS*.txt | LC_ALL=C sort -k2 | sha256sum", shell=True, cwd=folder,
                           capture_output=True, text=True, check=True).stdout.split()[0]
    assert shell == ds.sha256
    write(folder / "readme.txt", "changed\n")
    assert corpora.resolve(folder).sha256 == ds.sha256  # only the files read count
    write(folder / "STS.gs.news.txt", "4.5\n3\n")
    assert corpora.resolve(folder).sha256 != ds.sha256


def test_sts_folder_errors(tmp_path):
    write(tmp_path / "empty" / "notes.txt", "x\n")
    with pytest.raises(FormatError, match=r"empty: holds no STS.input.X.txt .* expected an STS folder"):
        corpora.resolve(tmp_path / "empty")
    folder = tmp_path / "two"
    write(folder / "STS.input.news.txt", "a\tb\n")
    write(folder / "STS2016.input.news.txt", "a\tb\n")
    with pytest.raises(FormatError, match="subset news has two input files"):
        corpora.resolve(folder)
    with pytest.raises(ValueError, match="is an STS folder; columns apply to a plain TSV/CSV file only"):
        corpora.resolve(tmp_path / "empty", columns=("a", "b"))


def test_an_sts_input_with_two_gold_files_of_the_other_naming_is_one_error_naming_both(tmp_path):
    inp = write(tmp_path / "STS.input.news.txt", "a\tb\n")
    write(tmp_path / "STS2015.gs.news.txt", "1\n")
    write(tmp_path / "STS2016.gs.news.txt", "4\n")
    for given in (tmp_path, inp):
        with pytest.raises(FormatError) as caught:
            corpora.resolve(given)
        assert str(caught.value) == (f"{inp}: has no gold file STS.gs.news.txt but two of another naming: "
                                     "STS2015.gs.news.txt and STS2016.gs.news.txt; which is its gold is not clear")


def test_one_sts_input_file_finds_its_gold_or_runs_without(tmp_path):
    inp = write(tmp_path / "STS.input.x.txt", "a\tb\nc\td\n")
    ds = corpora.resolve(inp)
    assert not ds.has_gold and ds.sha256 == sha(inp) and ds.notes[0].endswith("no STS.gs.x.txt beside it: its pairs are not scored")
    gold = write(tmp_path / "STS.gs.x.txt", "1\n7\n")
    with pytest.raises(FormatError, match=r"STS.gs.x.txt:2: gold score 7 is outside \[0, 5\]"):
        corpora.resolve(inp)
    ds = corpora.resolve(inp, score_range=(0, 10))
    assert ds.has_gold and ds.subset("x").gold.tolist() == [1, 7] and ds.subset("x").score_range == (0.0, 10.0)
    listing = f"{sha(gold)}  STS.gs.x.txt\n{sha(inp)}  STS.input.x.txt\n"
    assert ds.sha256 == hashlib.sha256(listing.encode()).hexdigest()
    write(gold, "1\n2\n3\n")
    with pytest.raises(FormatError, match=r"STS.gs.x.txt:3: has 3 gold lines but STS.input.x.txt has 2 pairs"):
        corpora.resolve(inp)
    write(inp, "a\tb\nno tab here\n")
    with pytest.raises(FormatError, match=r"STS.input.x.txt:2: expected sentence1<TAB>sentence2"):
        corpora.resolve(inp)
    with pytest.raises(FormatError, match="STS.gs.x.txt: is a gold file; give the STS.input file beside it"):
        corpora.resolve(gold)
    with pytest.raises(ValueError, match="score_range must be two finite numbers, low < high"):
        corpora.resolve(inp, score_range=(5, 0))


# --- STS Benchmark and SICK files ------------------------------------------------------------------

def test_stsb_file_keeps_quotes_as_text_and_reports_bad_lines(tmp_path):
    path = write(tmp_path / "mine.csv", 'main-news\tf\t2016\t0001\t3.8\t"Quoted," he said\tA b\n'
                                        "main-news\tf\t2016\t0002\t0\tc\td\textra licence\n")
    ds = corpora.resolve(path)
    sub = ds.subset("mine")
    assert ds.kind.name == "stsb" and sub.pairs == [('"Quoted," he said', "A b"), ("c", "d")] and sub.ids == ["0001", "0002"]
    assert sub.gold.tolist() == [3.8, 0.0] and sub.output_name == "STS.output.mine.txt" and ds.sha256 == sha(path)
    write(path, "main-news\tf\t2016\t0001\t3.8\tA\tB\nmain-news\tf\t2016\t0002\t5.5\tc\td\n")
    with pytest.raises(FormatError, match=r"mine.csv:2: gold score 5.5 is outside \[0, 5\]"):
        corpora.resolve(path)
    write(path, "main-news\tf\t2016\t0001\t3.8\tA\tB\nmain-news\tf\t2016\t0002\t5\tc\n")
    with pytest.raises(FormatError, match=r"mine.csv:2: expected 7 or more tab-separated fields"):
        corpora.resolve(path)
    with pytest.raises(ValueError, match=r"fixes its scores to \[0, 5\]"):
        corpora.resolve(path, score_range=(0, 1))


def test_sick_file_by_path_with_its_range_or_the_callers(tmp_path):
    path = write(tmp_path / "my_sick.txt", SICK_HEADER + "10\ta\tb\t4.2\tNEUTRAL\n11\tc\td\t0.5\tENTAILMENT\n")
    with pytest.raises(FormatError, match=r"my_sick.txt:3: relatedness score 0.5 is outside \[1, 5\]"):
        corpora.resolve(path)
    ds = corpora.resolve(path, score_range=(0, 5))
    assert ds.kind.name == "sick" and ds.subset("my_sick").ids == ["10", "11"] and ds.subset("my_sick").score_range == (0.0, 5.0)
    write(path, SICK_HEADER + "10\ta\tb\t4.2\tNEUTRAL\n")
    ds = corpora.resolve(path)
    assert ds.subset("my_sick").score_range == (1.0, 5.0) and ds.subset("my_sick").gold.tolist() == [4.2]
    ds = corpora.resolve(path, columns=("sentence_B", "sentence_A", "relatedness_score"))  # columns: read as a table
    assert ds.kind.name == "table" and ds.pairs == [("b", "a")] and ds.subsets[0].ids == ["10"]



def test_a_pairs_error_names_the_line_its_row_starts_on(tmp_path):
    """The one home of a pair's FILE:LINE (Subset.line, recorded by the reader): the line where the pair's row starts,
    the header and a CSV field holding a line break counted, also when the bench predicts the scored pairs alone."""
    from semsts.baselines.base import PairError
    from semsts.baselines.bench_predictions import predict_scored
    from semsts.baselines.run import predict_subsets

    class FailsOn:
        def __init__(self, index):
            self.index = index

        def predict(self, pairs):
            raise PairError(self.index, "cannot score it")

    path = write(tmp_path / "t.csv", 'sentence1,sentence2,score\n"two\nlines",b,1\nc,d,\ne,f,2\n')
    sub = corpora.resolve(path).subsets[0]
    assert [sub.line(i) for i in range(3)] == [2, 4, 5]
    with pytest.raises(FormatError, match=rf"^{path}:5: cannot score it$"):
        predict_subsets(FailsOn(2), [sub])
    with pytest.raises(FormatError, match=rf"^{path}:5: cannot score it$"):  # pair 1 of the scored ones: e, f
        predict_scored(FailsOn(1), [sub])
    sick = write(tmp_path / "s.txt", SICK_HEADER + "10\ta\tb\t4.2\tNEUTRAL\n11\tc\td\t1.5\tENTAILMENT\n")
    with pytest.raises(FormatError, match=rf"^{sick}:3: cannot score it$"):
        predict_subsets(FailsOn(1), corpora.resolve(sick).subsets)
    write(path, 'sentence1,sentence2,score\n"two\nlines",b,9\n')  # the reader's own errors: the same line
    with pytest.raises(FormatError, match=rf"^{path}:2: score 9 is outside"):
        corpora.resolve(path)


# --- plain TSV and CSV -----------------------------------------------------------------------------

def test_tsv_with_default_names_empty_scores_and_ids(tmp_path):
    path = write(tmp_path / "mine.tsv", 'id\tsentence1\tsentence2\tscore\nq1\t"A" dog\tA cat\t3.5\nq2\tx\ty\t\n')
    ds = corpora.resolve(path)
    sub = ds.subset("mine")
    assert ds.kind.name == sub.kind.name == "table" and ds.has_gold and sub.gold_path == path and sub.input_path == path
    assert sub.pairs == [('"A" dog', "A cat"), ("x", "y")] and sub.ids == ["q1", "q2"]
    assert sub.gold[0] == 3.5 and math.isnan(sub.gold[1]) and sub.n_scored == 1
    assert sub.score_range == (0.0, 5.0) and sub.output_name == "STS.output.mine.txt" and ds.sha256 == sha(path)
    assert repr(ds) == f"<Dataset {path} (table): 2 pairs, 1 scored; mine (2, 1 scored)>"
    ds.require_gold()
    write(path, b"\xef\xbb\xbfSentence_A\tSentence_B\tSimilarity\r\nx\ty\t1\r\n")  # BOM, CRLF, other names
    sub = corpora.resolve(path, score_range=(-1, 1)).subsets[0]
    assert sub.pairs == [("x", "y")] and sub.gold.tolist() == [1.0] and sub.ids == []
    assert repr(sub) == f"<Subset {path}/mine: 1 pairs, 1 scored, range [-1, 1]>"


@pytest.mark.parametrize("body, message", [
    ("sentence1\tsentence2\tscore\na\tb\t9\n", r"mine.tsv:2: score 9 is outside \[0, 5\]"),
    ("sentence1\tsentence2\tscore\na\tb\t3\nc\td\tNaN\n", r"mine.tsv:3: expected a finite score, got 'NaN'"),
    ("sentence1\tsentence2\tscore\na\tb\t3\nc\td\t4,5\n", r"mine.tsv:3: expected a score as a number, got '4,5'"),
    ("sentence1\tsentence2\tscore\na\tb\n", r"mine.tsv:2: expected 3 tab-separated fields as the header has, got 2"),
    ("sentence1\tsentence2\tscore\na\tb\t1\n\n", r"mine.tsv:3: expected 3 tab-separated fields as the header has, got an empty line"),
    ("sentence1\tsentence2\tscore\n", r"mine.tsv: has a header but no pairs"),
    ("", r"mine.tsv: is empty; expected a header line"),
    ("a\tb\t3\n", r"mine.tsv:1: expected a header naming the two text columns \(sentence1/sentence2, .*\) .*got 'a', 'b', '3'"),
    (b"sentence1\tsentence2\n\xff\tb\n", r"mine.tsv:2: not valid UTF-8"),
])
def test_tsv_errors_name_file_and_line(tmp_path, body, message):
    path = write(tmp_path / "mine.tsv", body)
    with pytest.raises(FormatError, match=message):
        corpora.resolve(path)


# --- the field's exports, read as they are written (issue 44, kind 1) ------------------------------------

GLUE = {"sentence1": ["A plane is taking off.", "A man plays a flute.", "Kids play."],
        "sentence2": ["An air plane is taking off.", "A man is eating.", "Children play."],
        "label": [5.0, 0.25, 4.2], "idx": [0, 1, 2]}


@pytest.mark.parametrize("index", [True, False], ids=["pandas-index", "datasets-to_csv"])
def test_glues_sts_b_export_reads_its_label_as_the_score(tmp_path, index):
    pd = pytest.importorskip("pandas")
    path = tmp_path / "stsb_validation.csv"
    if index:
        pd.DataFrame(GLUE).to_csv(path)
    else:
        pytest.importorskip("datasets").Dataset.from_dict(GLUE).to_csv(path)
    assert path.read_text().splitlines()[0] == ("," if index else "") + "sentence1,sentence2,label,idx"
    ds = corpora.resolve(path)
    sub = ds.subset("stsb_validation")
    assert ds.has_gold and sub.gold.tolist() == GLUE["label"] and sub.ids == ["0", "1", "2"]
    assert sub.pairs == list(zip(GLUE["sentence1"], GLUE["sentence2"]))


def test_glues_hidden_test_labels_are_refused_in_one_line(tmp_path, capsys):
    # datasets writes GLUE's float label as -1.0; a label written as an int is -1
    path = write(tmp_path / "stsb_test.tsv", "sentence1\tsentence2\tlabel\tidx\na\tb\t-1.0\t0\nc\td\t-1\t1\n")
    with pytest.raises(FormatError) as info:
        corpora.resolve(path)
    assert str(info.value) == (f"{path}: has the label -1 on every row: GLUE's hidden test labels (GLUE keeps the test "
                               "split's scores for its leaderboard); score on the validation split, or run the file "
                               "with --columns TEXT1,TEXT2 (columns=(TEXT1, TEXT2)) unscored")
    assert not corpora.resolve(path, columns=("sentence1", "sentence2")).has_gold  # what the message offers works
    assert cli.main(["data", "list", str(path)]) == 1
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("header, row, score", [
    ("sentence1,sentence2,score", "a b,a c,0.6", 0.6),  # MTEB, sentence-transformers' stsb (scores in [0, 1])
    ("sentence1,sentence2,similarity_score", "a b,a c,3.5", 3.5),  # stsb_multi_mt
    ("genre\tfilename\tyear\tid\tscore\tsentence1\tsentence2", "main-captions\tMSRvid\t2012test\t0001\t5.000\ta b\ta c",
     5.0),  # KorSTS
    ("Unnamed: 0,sentence1,sentence2,label,idx", "0,a b,a c,2.5,7", 2.5),  # GLUE's, re-read and re-written by pandas
], ids=["mteb-sbert", "stsb_multi_mt", "korsts", "glue-unnamed"])
def test_the_fields_exports_are_read_with_their_scores(tmp_path, header, row, score):
    path = write(tmp_path / ("pairs.tsv" if "\t" in header else "pairs.csv"), f"{header}\n{row}\n")
    sub = corpora.resolve(path).subset("pairs")
    assert sub.pairs == [("a b", "a c")] and sub.gold.tolist() == [score]


def test_sentevals_sick_file_is_read_as_sick(tmp_path):
    path = write(tmp_path / "SICK_train.txt", SICK_HEADER + "1\tA b.\tA c.\t4.5\tNEUTRAL\n")
    ds = corpora.resolve(path)
    assert ds.kind.name == "sick" and ds.gold.tolist() == [4.5]


def test_a_file_without_a_known_score_column_says_which_were_expected_and_how_to_name_one(tmp_path, capsys):
    path = write(tmp_path / "rated.csv", "sentence1,sentence2,rating\na,b,3\n")
    assert cli.main(["eval", "--dataset", str(path), "--run", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == f"error: {path} {NO_SCORES}\n"
    assert "label" in err and "--columns TEXT1,TEXT2,SCORE" in err
    assert corpora.resolve(path, columns=("sentence1", "sentence2", "rating")).gold.tolist() == [3.0]


def test_an_empty_text_is_noted_with_its_file_and_line_when_the_file_is_read(tmp_path, capsys):
    from semsts.core.errors import Note
    tsv = "sentence1\tsentence2\na\tb\nc\t \n\td\n"
    csv = 'id,sentence1,sentence2\np1,"a\nb",c\np2,"d\r\ne",""\np3,,f\n'
    for name, text, marker in [("e.tsv", tsv, "c\t"), ("e.csv", csv, "p2")]:
        path = write(tmp_path / name, text)
        line = text[:text.index(marker)].count("\n") + 1
        with pytest.warns(Note, match=rf"^{path}:{line}: a pair has an empty text \(2 pairs have one\); "
                                      "an encoder may refuse it$"):
            corpora.resolve(path)
        assert cli.main(["data", "list", str(path)]) == 0
        out, err = capsys.readouterr()
        assert "a pair has an empty text" not in out and err == f"note: {path}:{line}: a pair has an empty text (2 pairs have one); " \
                                              "an encoder may refuse it\n"


def test_csv_quoting_case_and_a_file_without_scores(tmp_path):
    path = write(tmp_path / "pairs.csv", 'Sentence1,Sentence2\n"Hello, world","He said ""hi"""\r\nplain,"two\nlines"\n')
    ds = corpora.resolve(path)
    sub = ds.subset("pairs")
    assert sub.pairs == [("Hello, world", 'He said "hi"'), ("plain", "two\nlines")]
    assert not ds.has_gold and sub.gold_path is None and sub.n_scored == 0 and np.isnan(sub.gold).all()
    with pytest.raises(ValueError) as info:
        ds.require_gold()
    assert str(info.value) == f"{path} {NO_SCORES}"
    write(path, 'sentence1,sentence2,score\na,b,1\n"c,d,2\n')
    with pytest.raises(FormatError, match=r"pairs.csv:\d: bad CSV quoting"):
        corpora.resolve(path)
    write(path, "sentence1,sentence2,score\na,b,1\nc,d\n")
    with pytest.raises(FormatError, match=r"pairs.csv:3: expected 3 comma-separated fields as the header has, got 2"):
        corpora.resolve(path)


def test_columns_name_the_text_and_score(tmp_path):
    path = write(tmp_path / "qa.tsv", "question\tanswer\trating\tnote\nq\ta\t8\tn\n")
    with pytest.raises(FormatError, match=r"qa.tsv:1: expected a header naming the two text columns"):
        corpora.resolve(path)
    ds = corpora.resolve(path, columns=("question", "answer", "rating"), score_range=(0, 10))
    assert ds.pairs == [("q", "a")] and ds.gold.tolist() == [8.0] and ds.subsets[0].score_range == (0.0, 10.0)
    ds = corpora.resolve(path, columns=["answer", "question"])
    assert ds.pairs == [("a", "q")] and not ds.has_gold
    with pytest.raises(FormatError, match=r"qa.tsv:1: no column 'score' in the header; it has 'question', 'answer', 'rating', 'note'"):
        corpora.resolve(path, columns=("question", "answer", "score"))
    with pytest.raises(ValueError, match=r"columns must name \(text1, text2\) or \(text1, text2, score\)"):
        corpora.resolve(path, columns=("question",))
    write(path, "s1\ts2\tscore\tscore\na\tb\t1\t2\n")
    with pytest.raises(FormatError, match="qa.tsv:1: the header has 2 columns named 'score'; expected one"):
        corpora.resolve(path)


# --- sts data list PATH ----------------------------------------------------------------------------

def test_data_list_describes_files_and_names(data_dir, tmp_path, capsys):
    from semsts import data_cli as cli
    path = write(tmp_path / "mine.tsv", "sentence1\tsentence2\na\tb\nc\td\n")
    assert cli.main(["--data-dir", str(data_dir), "list", str(path), "sick2014-trial"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: table, 2 pairs: mine (2, 2 not scored)",
        f"  sha256 {sha(path)}",
        f"  note: no {NO_SCORES.removeprefix('has no ')}",
        "sick2014-trial: sick, 500 pairs: SICK_trial (500)"]
    assert cli.main(["list", str(path), "--columns", "sentence2,sentence1,score"]) == 1
    assert capsys.readouterr().err == f"error: {path}:1: no column 'score' in the header; it has 'sentence1', 'sentence2'\n"
    assert cli.main(["list", str(path), "--columns", "sentence2"]) == 1
    assert "--columns takes TEXT1,TEXT2 or TEXT1,TEXT2,SCORE" in capsys.readouterr().err
    assert cli.main(["list", str(tmp_path / "nope.tsv")]) == 1
    assert "is neither a known dataset nor an existing file or folder" in capsys.readouterr().err


# --- Issue 14's acceptance: the regression trained on a user's TSV, run on a second file and scored,
# from the command line and from Python, with a signature naming the file and its SHA-256.


@pytest.fixture
def files(tmp_path):
    train = pairs_tsv(tmp_path / "train.tsv", 59, 1)  # 60 lines with the header
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    assert len(train.read_text().splitlines()) == 60
    return train, test


def expected_field(path) -> str:
    return f"file={path.name},sha256={hashlib.sha256(path.read_bytes()).hexdigest()}"


def test_train_run_and_score_a_users_files_on_the_command_line(files, tmp_path, capsys):
    train, test = files
    model = tmp_path / "m.skops"
    assert cli.main(["train", "--train", str(train), "--test", str(test), "--save", str(model),
                     "--quiet", *SMALL]) == 0
    out_dir = tmp_path / "out"
    assert cli.main(["run", "regression", "--model", str(model), "--test", str(test), "--out", str(out_dir),
                     "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["eval", "--dataset", str(test), "--run", str(out_dir), "--format", "json"]) == 0
    import json
    report = json.loads(capsys.readouterr().out)
    assert report["signature"].startswith(f"dataset:{expected_field(test)}|subsets:test=40|")
    assert report["all"] > 0.8  # the shared-word signal is learnt


def test_a_file_without_scores_runs_but_is_not_scored_or_trained_on(files, tmp_path, capsys):
    train, test = files
    bare = pairs_tsv(tmp_path / "bare.tsv", 10, 3, scores=False)
    model = tmp_path / "m.skops"
    assert cli.main(["train", "--train", str(bare), "--save", str(model), "--quiet", *SMALL]) == 1
    assert f"bare.tsv {NO_SCORES}" in capsys.readouterr().err
    assert not model.exists()
    out_dir = tmp_path / "out"
    assert cli.main(["run", "token-cosine", "--test", str(bare), "--out", str(out_dir), "--quiet"]) == 0
    assert len((out_dir / "STS.output.bare.txt").read_text().splitlines()) == 10
    assert cli.main(["eval", "--dataset", str(bare), "--run", str(out_dir)]) == 1
    assert "no score column" in capsys.readouterr().err


def test_columns_name_the_fields_of_a_plain_table(tmp_path, capsys):
    path = tmp_path / "mine.csv"
    path.write_text("id,left,right,gold\n" + "".join(f"{i},a cat {i},a dog {i},{i % 5}\n" for i in range(8)))
    out_dir = tmp_path / "out"
    assert cli.main(["run", "token-cosine", "--test", str(path), "--columns", "left,right,gold",
                     "--out", str(out_dir), "--quiet"]) == 0
    assert cli.main(["eval", "--dataset", str(path), "--columns", "left,right,gold", "--run", str(out_dir)]) == 0
    assert f"signature: dataset:{expected_field(path)}|subsets:mine=8|" in capsys.readouterr().out


def test_run_regression_without_training_data_names_the_options(tmp_path, capsys):
    assert cli.main(["run", "regression", "--test", "stsb-test", "--out", str(tmp_path / "x")]) == 1
    err = capsys.readouterr().err
    assert "--train" in err and "--model" in err and "needs gold" not in err


def test_train_run_and_score_a_users_files_from_python(files, tmp_path):
    train_path, test_path = files
    train, test = corpora.resolve(train_path), corpora.resolve(test_path)
    system = baselines.make_system("regression").set_params(**SMALL_PARAMS)
    written = baselines.run_system(system, test, tmp_path / "out", [train])
    assert [p.name for p in written] == ["STS.output.test.txt"]
    from semsts.corpora import runrecord
    assert runrecord.read_record(tmp_path / "out")["system"] == "regression"  # as `sts run regression` records it
    report = evaluate.score_run(test, tmp_path / "out")
    assert str(report.signature).startswith(f"dataset:{expected_field(test_path)}|")
    assert report.signature.get("dataset") == expected_field(test_path)
    assert report["all"] > 0.8
    assert expected_field(test_path) in report.render("text")
    # The predictions the files hold are the system's, on the task range.
    scores = corpora.read_output(written[0], 40)[0]
    assert np.all((scores >= 0) & (scores <= 5))


def test_an_official_datasets_signature_is_unchanged(tmp_path):
    test = corpora.load("demo-test")
    written = baselines.run_system("token-cosine", test, tmp_path / "out")
    report = evaluate.score_run(test, tmp_path / "out")
    assert written and str(report.signature).startswith("dataset:demo-test|subsets:")


# --- Issue 23, case 9: a long CSV field, complex embeddings.


def test_a_csv_field_over_131072_characters_loads_as_from_tsv(tmp_path):
    long = "word " * 40_000
    (tmp_path / "long.csv").write_text(f'sentence1,sentence2,score\n"{long}",short text,3.0\nshort,text,1.0\n')
    (tmp_path / "long.tsv").write_text(f"sentence1\tsentence2\tscore\n{long}\tshort text\t3.0\nshort\ttext\t1.0\n")
    from_csv, from_tsv = corpora.load_path(tmp_path / "long.csv"), corpora.load_path(tmp_path / "long.tsv")
    assert from_csv.pairs == from_tsv.pairs and len(from_csv.pairs[0][0]) == len(long)
