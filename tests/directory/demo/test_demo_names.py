"""The demo catalogue's words (directory/demo/demo_names.toml): the shape
directory/demo/catalogue.py reads."""

import dataclasses
import string
import tomllib

from directory.catalogue.models import EntityType
from directory.demo import demo_names

DATA = tomllib.loads(demo_names.DATA.read_text(encoding="utf-8"))

NAME_PLACEHOLDERS = {"surname", "surname2", "town", "province", "adjective", "saint", "tech"}
WORD_LISTS = ("surnames", "adjectives", "saints", "tech_words", "facts", "minor_words")


def placeholders(pattern: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(pattern) if field is not None}


def is_word_list(value) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(word, str) and word.strip() == word != "" for word in value)
        and len(set(value)) == len(value)
    )


def test_it_holds_exactly_the_tables_the_loader_reads():
    assert set(DATA) == {"provinces", "regional_tlds", "subjects", "sectors", *WORD_LISTS}


def test_it_lists_distinct_words_in_every_word_list():
    for key in WORD_LISTS:
        assert is_word_list(DATA[key]), key


def test_it_gives_every_province_its_towns_and_every_regional_domain_known_provinces():
    assert all(is_word_list(towns) for towns in DATA["provinces"].values())
    for tld, provinces in DATA["regional_tlds"].items():
        assert tld.isascii() and tld.islower()
        assert is_word_list(provinces) and set(provinces) <= set(DATA["provinces"])


def test_it_fills_descriptions_only_with_what_the_generator_knows():
    for fact in DATA["facts"]:
        assert placeholders(fact) <= {"province", "town", "people"}, fact


def test_it_describes_every_sector_with_the_fields_of_a_sector():
    fields = {field.name: field for field in dataclasses.fields(demo_names.SectorSpec)}
    required = {name for name, field in fields.items() if field.default is dataclasses.MISSING}
    slugs = [row["slug"] for row in DATA["sectors"]]

    assert len(set(slugs)) == len(slugs)
    for row in DATA["sectors"]:
        assert required <= set(row) <= set(fields), row["slug"]
        assert isinstance(row["weight"], int) and row["weight"] > 0
        assert row["entity_type"] in EntityType.names
        assert row["entity_type"] in DATA["subjects"]
        for pattern in row["patterns"] + row.get("company_patterns", []):
            assert placeholders(pattern) <= NAME_PLACEHOLDERS, pattern
        for product in row["products"]:
            assert placeholders(product) <= NAME_PLACEHOLDERS | {"short"}, product


def test_it_names_a_subject_for_kinds_of_entity_only():
    assert set(DATA["subjects"]) <= set(EntityType.names)
    assert all(isinstance(subject, str) and subject for subject in DATA["subjects"].values())


def test_it_loads_the_sectors_as_the_generator_uses_them():
    banca = demo_names.SECTORS[0]

    assert banca.entity_type is EntityType.COMPANY
    assert isinstance(banca.patterns, tuple) and isinstance(banca.company_patterns, tuple)
    assert demo_names.SUBJECTS[EntityType.COMPANY] == "una empresa"
    assert demo_names.REGIONAL_TLDS["Girona"] == "cat"
    assert "Ibáñez" in demo_names.SURNAMES and "Ibáñez" not in demo_names.SECOND_SURNAMES
