"""A lexicon word's corrections are stored (directory_search_near) and search reads them
instead of computing them: the stored lists must stay what directory_search_corrections
computes as the catalogue's texts add words, in every order they arrive in, and search
must answer the same from them."""

import random

import pytest
from django.db import connection

from directory.catalogue.models import Company
from tests.factories import CompanyFactory, LogoFactory, SectorFactory

pytestmark = pytest.mark.django_db

URL = "/v1/public/companies"


def rows(sql: str, params=()) -> set:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return set(cursor.fetchall())


def stored() -> set:
    return rows("SELECT word, near, distance FROM directory_search_near")


def computed() -> set:
    """Every lexicon word's corrections with a distance, as search computed them before
    they were stored (the lexicon's own words passed with the default collation)."""
    return rows(
        "SELECT s.word, c.word, c.distance"
        " FROM directory_search_word s,"
        '      LATERAL directory_search_corrections(s.word COLLATE "default") c'
        " WHERE length(s.word) >= 4 AND c.distance IS NOT NULL"
    )


def lexicon() -> set:
    return rows("SELECT word FROM directory_search_word")


def test_it_keeps_each_words_stored_corrections_equal_to_those_computed():
    # Neighbours one and two edits apart, by spelling and by sound, arriving one by one
    # and together, in names, alternative names, titles, sectors and "about" texts.
    company = CompanyFactory(name="Talleres Quintanilla", about="Reparación de calderas.")
    CompanyFactory(name="Talleres Quintana", alternative_names=["Kintanilla Motor"])
    CompanyFactory(name="Hermanos Marquez e Hijos")
    LogoFactory(company=company, title="Quintanila Taller")
    SectorFactory(name="Caldereria Quintanar")
    Company.objects.bulk_create(
        [
            Company(slug="hijas-marquuez", name="Hijas Marquuez"),
            Company(slug="calderas-hermano", name="Calderas Hermano Quintanillas"),
        ]
    )
    company.name = "Talleres Quintanillo Marques"
    company.save()

    assert stored() == computed()
    assert ("quintanilla", "quintanillo", 1) in stored()


def test_it_stores_a_new_word_in_the_lists_of_words_whose_lookups_find_it_alone():
    # Lookups hold more deletions than the stored variants: the longer key
    # ("biskoCabambarote") finds the new word's ("biskoCabambaro"), which does not find it.
    CompanyFactory(name="Vizcochavambarote")
    CompanyFactory(name="Bizcochabambaro")

    assert ("vizcochavambarote", "bizcochabambaro", 2) in stored()
    assert ("bizcochabambaro", "vizcochavambarote", 2) not in stored()
    assert stored() == computed()


def test_it_finds_a_name_through_a_correction_the_stored_lists_learned_later(api):
    CompanyFactory(name="Vizcochavambarote Norte")
    CompanyFactory(name="Bizcochabambaro Norte")

    response = api.get(URL, {"q": "vizcochavambarote norte"})

    names = [item["name"] for item in response.json()["data"]]
    assert names == ["Vizcochavambarote Norte", "Bizcochabambaro Norte"]


def test_it_keeps_the_stored_corrections_of_a_bulk_load_equal_to_those_computed():
    # A load's COPY learns thousands of words in one statement, planned for them (more
    # than 100), and measures them against the words known before it too: neighbours one
    # and two edits apart, long keys that find each other through the reach rows only.
    rng = random.Random(5)
    syllables = ["ba", "ca", "que", "za", "vi", "lla", "ro", "te", "mon", "sel", "ñor", "gui"]
    bases = ["".join(rng.choice(syllables) for _ in range(rng.randint(3, 6))) for _ in range(50)]
    for base in bases[:10]:
        CompanyFactory(name=f"Talleres {base.title()}")

    def edited(word: str) -> str:
        i = rng.randrange(1, len(word) - 1)
        return rng.choice([word[:i] + word[i + 1 :], word[:i] + word[i] + word[i:]])

    names = [f"{edited(base)} {edited(edited(base))} {base}".title() for base in bases]
    known = len(lexicon())
    Company.objects.bulk_create(
        [Company(slug=f"bulk-{index}", name=name) for index, name in enumerate(names)]
    )

    assert len(lexicon()) - known > 100
    assert stored() == computed()
    assert len(stored()) > 100


def test_it_computes_every_list_whole_when_a_bulk_outnumbers_the_words_known():
    # bench/catalogue.py's load: the lexicon emptied, a few words known (the sectors'),
    # then a COPY of more new words than old ones, whose lists are computed word by word
    # (in parallel workers) and the old words' again, now holding the new ones.
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE directory_search_word, directory_search_variant,"
            " directory_search_near, directory_search_reach"
        )
    CompanyFactory(name="Talleres Quintanilla")
    rng = random.Random(7)
    syllables = ["ba", "ca", "que", "za", "vi", "lla", "ro", "te", "mon", "sel", "ñor", "gui"]
    words = ["".join(rng.choice(syllables) for _ in range(rng.randint(3, 6))) for _ in range(150)]
    names = [f"{word} {word[:-1]}" for word in words] + ["Taleres Quintanila"]
    known = len(lexicon())
    Company.objects.bulk_create(
        [Company(slug=f"bulk-{index}", name=name.title()) for index, name in enumerate(names)]
    )

    assert len(lexicon()) - known > max(100, known)
    assert stored() == computed()
    assert {("quintanilla", "quintanila", 1), ("talleres", "taleres", 1)} <= stored()
