"""The business thesaurus's data file (directory/search/data/business_kinds.toml) and its loader."""

import tomllib
from collections import defaultdict

from directory.search.business_terms import (
    KINDS_FILE,
    business_words,
    kinds_load,
    thesaurus_spelling,
    words_of,
)


def _table() -> dict:
    with KINDS_FILE.open("rb") as file:
        return tomllib.load(file)


def test_it_holds_groups_of_kinds_each_with_a_spanish_and_an_english_word_and_other_names():
    table = _table()
    assert set(table) == {"group"}
    assert table["group"]
    for group in table["group"]:
        assert set(group) == {"name", "kind"}
        assert isinstance(group["name"], str) and group["name"].strip()
        assert group["kind"], group["name"]
        for kind in group["kind"]:
            assert set(kind) == {"es", "en", "others"}, kind
            names = [kind["es"], kind["en"], *kind["others"]]
            assert all(isinstance(name, str) and words_of(name) for name in names), kind
            assert all(name == name.strip() for name in names), kind
            assert len(set(kind["others"])) == len(kind["others"]), kind


def test_it_names_each_word_or_phrase_under_one_kind_only():
    kinds_of = defaultdict(set)
    for (spanish, english), others in kinds_load():
        for name in (spanish, english, *others):
            kinds_of[tuple(words_of(name))].add(spanish)
    assert {name: kinds for name, kinds in kinds_of.items() if len(kinds) > 1} == {}


def test_it_expands_a_regional_or_plural_name_with_its_kinds_plain_words():
    assert business_words("fonda en Sevilla")[:3] == ["hotel", "hostal", "posada"]
    assert business_words("Hoteles")[:1] == ["hotel"]
    assert business_words("bufete")[:2] == ["abogados", "lawyers"]


def test_it_reads_a_word_one_typing_mistake_from_a_single_thesaurus_word_as_that_word():
    assert thesaurus_spelling("bodgea") == "bodega"
    assert business_words(thesaurus_spelling("bodgea"))[:2] == ["bodega", "winery"]
    # Words it holds, short words and plain words with no single near word stay as typed.
    assert thesaurus_spelling("Hotel en Úbeda") == "hotel en ubeda"
    assert thesaurus_spelling("rooms for the night") == "rooms for the night"
