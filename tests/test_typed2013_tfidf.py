"""typed-tfidf and its extractors on hand-made records: each type's similarity has its expected value."""
import math

import numpy as np
import pytest
from sklearn.base import clone

from semsts.baselines import make_system
from semsts.baselines.typed2013_tfidf import TypedTfidf
from semsts.corpora.typed2013 import TYPES
from semsts.features.typed2013 import DatePattern, Gazetteer, PeoplePattern, TypedFields, VerbLexicon


def rec(**fields):
    return "".join(f"{name}:\t" + "\t".join(values if isinstance(values, list) else [values]) + "\n"
                   for name, values in fields.items())


def scores(pairs, fit=None, **params):
    model = TypedTfidf(**params).fit(fit or pairs)
    return dict(zip(TYPES, model.predict(pairs).T))


def test_identical_creators_give_author_5_and_disjoint_records_give_0():
    a = rec(dcTitle="Mill at Saltaire", dcCreator="SUTCLIFFE; Frank Meadow (1853-1941)")
    b = rec(dcTitle="Harbour boats", dcCreator="SUTCLIFFE; Frank Meadow (1853-1941)")
    c = rec(dcTitle="Roman coin", dcSubject="numismatics", dcDescription="A silver denarius.",
            dcCreator="Unknown", dcDate="2nd century")
    result = scores([(a, b), (b, c), (a, "")])
    assert result["author"][0] == pytest.approx(5.0)
    assert result["people"][0] == pytest.approx(5.0) and result["time"][0] == pytest.approx(5.0)
    assert 0 < result["general"][0] < 5
    assert all(result[t][1] == 0 for t in TYPES), {t: result[t][1] for t in TYPES}
    assert all(result[t][2] == 0 for t in TYPES)  # an empty record is like nothing


def test_general_is_the_cosine_of_smoothed_tfidf_vectors():
    a, b, c = rec(dcTitle="alpha beta"), rec(dcTitle="alpha gamma"), rec(dcTitle="delta")
    def idf(df):  # three records, smoothed IDF
        return math.log((1 + 3) / (1 + df)) + 1

    shared, own = idf(2) ** 2, idf(1) ** 2
    assert scores([(a, b)], fit=[(a, b), (c, c)])["general"][0] == pytest.approx(5 * shared / (shared + own))


def test_each_type_reads_its_own_items():
    a = rec(dcTitle="The mill was built near Leeds in 1891",
            dcSubject=["industry", "textiles"], dcDescription="Photograph by John Smith of the weaving room.")
    b = rec(dcTitle="Workers built Leeds bridge in 1893", dcSubject="textiles",
            dcCreator="SMITH; John", dcDescription="Unrelated words here.")
    result = scores([(a, b)])
    assert result["location"][0] == pytest.approx(5.0)  # Leeds on both sides, nothing else
    assert result["people"][0] == pytest.approx(5.0)  # 'by John Smith' and 'SMITH; John'
    assert result["event"][0] == pytest.approx(5.0)  # 'built' on both sides is the only verb
    assert 0 < result["time"][0] < 5  # 1891 and 1893 share their decade and century, not the year
    assert 0 < result["subject"][0] < 5
    assert result["description"][0] == 0 and result["author"][0] == 0


def test_extractors_on_their_own():
    assert DatePattern()("c. 1891; 1914-18; 1890s; 19th century; Victorian") == [
        "1918", "1910s", "c20", "1891", "1890s", "c19", "1914", "1910s", "c20", "1890s", "c19", "c19",
        "period:victorian"]
    assert DatePattern(widen=False)("12/05/1890") == ["1890"]
    people = PeoplePattern()
    assert people("SUTCLIFFE; Frank Meadow (1853-1941)", "dcCreator") == ["sutcliffe", "frank", "meadow"]
    assert people("Rev. John Brown with J. M. W. Turner at Mrs Ellis's house", "dcDescription") == [
        "john", "brown", "turner", "ellis"]
    assert Gazetteer()("Newcastle upon Tyne, Yorkshire, Paris and Reading") == [
        "newcastle upon tyne", "yorkshire", "paris"]  # 'Reading' is also a common word
    assert VerbLexicon()("The painting shows men who built the church") == ["show", "build"]


def test_extractors_are_swappable_and_params_clone():
    fields = TypedFields(places=Gazetteer(names=["Atlantis"]))
    a, b = rec(dcTitle="Ruins of Atlantis"), rec(dcDescription="Atlantis, the lost city")
    assert scores([(a, b)], fields=fields)["location"][0] == pytest.approx(5.0)
    model = TypedTfidf(fields=fields)
    copy = clone(model)
    assert copy.get_params()["fields__places"].names == ["Atlantis"]
    assert copy.set_params(score_range=(0.0, 4.0)).score_range == (0.0, 4.0)


def test_predict_shape_refusals_and_registry():
    assert isinstance(make_system("typed-tfidf"), TypedTfidf)
    model = TypedTfidf().fit([(rec(dcTitle="a"), rec(dcTitle="b"))])
    assert model.predict([(rec(dcTitle="a"), rec(dcTitle="a"))]).shape == (1, 8)
    assert model.predict([]).shape == (0, 8)
    with pytest.raises(ValueError, match="TYPED system: it scores pairs of Europeana records"):
        model.predict([("A man is playing a guitar.", "A man plays.")])
    y = np.ones((1, 8))
    assert TypedTfidf().fit([(rec(dcTitle="a"), rec(dcTitle="b"))], y).n_pairs_fit_ == 1


def test_score_range_maps_the_cosines_and_a_bad_one_is_refused_at_fit():
    pairs = [(rec(dcTitle="Ruins of Atlantis"), rec(dcTitle="Atlantis ruins")), (rec(dcTitle="a"), rec(dcTitle="b"))]
    five = TypedTfidf().fit(pairs).predict(pairs)
    assert np.array_equal(TypedTfidf(score_range=(0.0, 1.0)).fit(pairs).predict(pairs) * 5.0, five)
    with pytest.raises(ValueError, match="score_range must be two finite numbers, low < high"):
        TypedTfidf(score_range=(1.0, 1.0)).fit(pairs)
