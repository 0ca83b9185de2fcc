"""Tests of semsts.baselines.word2sense: the CLSS word2sense lookup over WordNet."""
import numpy as np
import pytest

from semsts import corpora
from semsts.baselines import make_system
from tests.conftest import write

# --- Issue 12, defect 13: the CLSS lcs word2sense lookup finds capitalized entries; unknown words get one fixed score.


def _word2sense(tmp_path, lines):
    write(tmp_path / "clss2014" / "data" / "test" / "word2sense.test.input.tsv", "".join(lines))
    write(tmp_path / "clss2014" / "keys" / "test" / "word2sense.test.gs.tsv", "1\n" * len(lines))
    return corpora.load("clss2014-test", tmp_path).subset("word2sense")


def test_a_lower_case_word_finds_its_capitalized_entry(tmp_path):
    sub = _word2sense(tmp_path, [
        "barcelona#n\tpolice_squad%1:14:00::\tpolice_squad#n#1\tw2s-1\n",
        "california#n\tsilicon_valley%1:15:00::\tsilicon_valley#n#1\tw2s-2\n",
        "methodist#n\tpresbyterian%1:18:00::\tpresbyterian#n#1\tw2s-3\n",
        "qwzxv#n\tcat%1:05:00::\tcat#n#1\tw2s-4\n",
    ])
    lcs = make_system("lcs").fit(sub.pairs)
    assert list(lcs.predict_confidence(sub.pairs)) == [100.0, 100.0, 100.0, 0.0]
    scores = lcs.predict(sub.pairs)
    assert scores[2] == pytest.approx(0.23, abs=0.005)  # scored from Methodist's gloss
    assert scores[3] == 0.09


def test_unknown_words_get_one_value_whatever_the_others_score(tmp_path):
    """The fixed score does not move with the in-vocabulary items (the mean did)."""
    first = _word2sense(tmp_path / "a", ["dog#n\tcat%1:05:00::\tcat#n#1\tw2s-1\n", "qwzxv#n\tcat%1:05:00::\tcat#n#1\tw2s-2\n"])
    second = _word2sense(tmp_path / "b", ["bewitch#v\tattract%2:35:00::\tattract#v#1\tw2s-1\n",
                                          "qwzxv#n\tcat%1:05:00::\tcat#n#1\tw2s-2\n"])
    lcs = make_system("lcs")
    assert lcs.fit(first.pairs).predict(first.pairs)[1] == lcs.fit(second.pairs).predict(second.pairs)[1] == 0.09


def test_table5_word2sense_still_holds(data_dir):
    sub = corpora.load("clss2014-test", data_dir).subset("word2sense")
    lcs = make_system("lcs").fit(sub.pairs)
    confidence = lcs.predict_confidence(sub.pairs)
    assert int(np.sum(confidence == 0)) == 98  # 106 with the case-sensitive lookup
    assert float(np.corrcoef(lcs.predict(sub.pairs), sub.gold)[0, 1]) == pytest.approx(.109, abs=0.003)


def test_a_malformed_sense_key_is_an_error_naming_its_line(tmp_path):
    """Defect 14: one key without the key's shape turned the whole level into text pairs (.109 → .197)."""
    from semsts.baselines.run import run_system
    sub = _word2sense(tmp_path, ["dog#n\tcat%1:05:00::\tcat#n#1\tw2s-1\n",
                                 "dog#n\tnosuch%9:99:99::\tnosuch#n#1\tw2s-2\n"])
    ds = corpora.Dataset("clss2014-test", corpora.KINDS["clss"], (sub,))
    with pytest.raises(corpora.FormatError) as caught:
        run_system("lcs", ds, tmp_path / "out")
    assert str(caught.value) == (f"{sub.input_path}:2: expected a WordNet sense key (lemma%ss_type:lex_filenum:lex_id:"
                                 "head_word:head_id, e.g. cat%1:05:00::), got 'nosuch%9:99:99::'")
