"""The benchmark catalogue's words (bench/data/catalogue.toml): the shape bench/catalogue.py
reads."""

import tomllib

from bench import catalogue

DATA = tomllib.loads(catalogue.DATA.read_text(encoding="utf-8"))
LISTS = ("suffixes", "surnames", "towns", "regional", "syllables", "saints", "party_words")


def is_words(value, *, distinct: bool = True) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(word, str) and word.strip() == word for word in value)
        and (not distinct or len(set(value)) == len(value))
    )


def test_it_holds_exactly_the_tables_the_loader_reads():
    assert set(DATA) == {"sectors", "types", "provinces", *LISTS}


def test_it_lists_words_once_each_but_suffixes_as_often_as_they_are_drawn():
    for key in LISTS:
        assert is_words(DATA[key], distinct=key != "suffixes"), key
        assert "" not in DATA[key] or key == "suffixes", key


def test_it_gives_every_business_type_one_known_sector():
    kinds = [kind for kinds in DATA["types"].values() for kind in kinds]

    assert set(DATA["types"]) <= set(DATA["sectors"])
    assert all(is_words(kinds) for kinds in DATA["types"].values())
    assert len(kinds) == len(set(kinds)) == len(catalogue.TYPES)


def test_it_weighs_every_province_and_names_every_sector():
    assert all(isinstance(weight, int) and weight > 0 for weight in DATA["provinces"].values())
    assert all(isinstance(name, str) and name for name in DATA["sectors"].values())
    assert catalogue.PROVINCES[0] == ("Álava", 3) and catalogue.SECTORS[0][0] == "alimentacion"
    assert catalogue.TYPES["Panadería"] == "alimentacion"
