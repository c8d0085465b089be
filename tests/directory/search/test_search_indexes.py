"""What search keeps beside the catalogue stays exact, and costs nothing to writes that
do not touch what search reads.

directory_company_tally (companies per sector and province), directory_search_gram and
directory_search_gram_total (the three-letter runs of companies' and logos' documents),
directory_search_posting (the words of those documents), directory_search_word and
directory_search_variant (the lexicon typo correction picks from) and the logos' search
documents are kept by triggers (directory/sql/). Each test
changes the catalogue in the ways the application and the import do, then compares with
a recount from the rows.
"""

import random
import unicodedata

import pytest
from django.db import connection
from django.http import QueryDict
from rest_framework import serializers

from directory.catalogue.models import Company, Logo, Sector
from directory.search.serializers import CompanySearchInputSerializer, LogoSearchInputSerializer
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    SectorFactory,
    add_file,
    make_current,
    svg_bytes,
)

pytestmark = pytest.mark.django_db

WORDS = ["Ría", "Maria", "Ferrería", "ria", "Rial", "Arias", "Ayuntamiento", "Ñandú", "de", "X"]


def fold(text: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn"
    )


def rows(sql: str) -> list:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchall()


def tally() -> dict:
    return {
        (sector, province): size
        for sector, province, size in rows(
            "SELECT sector_id, province_fold, size FROM directory_company_tally"
        )
    }


def tally_recount() -> dict:
    counted: dict[tuple, int] = {}
    for sector_id, province in Company.objects.values_list("sector_id", "province"):
        key = (sector_id, fold(province) if province is not None else None)
        counted[key] = counted.get(key, 0) + 1
    return counted


def grams() -> dict:
    """directory_search_gram's counts by (kind, gram, length, is_current), and
    directory_search_gram_total's by (kind, gram)."""
    counts = {
        (kind, gram, length, is_current): counts
        for kind, gram, length, is_current, *counts in rows(
            "SELECT kind, gram, length, is_current, inside, start, whole, exact"
            " FROM directory_search_gram"
        )
    }
    totals = rows("SELECT kind, gram, inside FROM directory_search_gram_total")
    return counts | {(kind, gram): [inside] for kind, gram, inside in totals}


def grams_recount() -> dict:
    """directory_search_gram as a recount from the companies' and logos' documents gives
    it, in Python: per kind, three-letter run, document length and current or not,
    documents holding it anywhere, at a word's start, as a word, as a name."""
    companies = Company.objects.values_list("search_doc", flat=True)
    documents = [("company", doc, True) for doc in companies]
    documents += [("logo", *row) for row in Logo.objects.values_list("search_doc", "is_current")]
    counted: dict[tuple, list[int]] = {}
    for kind, doc, is_current in documents:
        names = [name.split() for name in doc.split("|")]
        found: dict[str, list[bool]] = {}
        for words in names:
            for word in words:
                for i in range(len(word) - 2):
                    flags = found.setdefault(word[i : i + 3], [True, False, False, False])
                    flags[1] |= i == 0
                    flags[2] |= len(word) == 3
                    flags[3] |= words == [word] and len(word) == 3
        for gram, flags in found.items():
            counts = counted.setdefault((kind, gram, len(doc), is_current), [0, 0, 0, 0])
            for index, flag in enumerate(flags):
                counts[index] += flag
    totals: dict[tuple, list[int]] = {}
    for (kind, gram, _length, _is_current), counts in counted.items():
        totals.setdefault((kind, gram), [0])[0] += counts[0]
    return {key: counts for key, counts in (counted | totals).items() if counts[0]}


def postings() -> set[tuple]:
    return set(
        rows("SELECT kind, word, id, is_current, length, named FROM directory_search_posting")
    )


def postings_recount() -> set[tuple]:
    """directory_search_posting as the documents give it, in Python: each word of three
    letters or more of each document, its length, current or not, and whether the word
    is a whole name of it."""
    documents = [
        ("company", id_, doc, True) for id_, doc in Company.objects.values_list("id", "search_doc")
    ]
    documents += [
        ("logo", *row) for row in Logo.objects.values_list("id", "search_doc", "is_current")
    ]
    return {
        (kind, word, id_, is_current, len(doc), f"| {word} |" in doc)
        for kind, id_, doc, is_current in documents
        for word in doc.split()
        if len(word) > 2
    }


def lexicon() -> set[str]:
    return {word for (word,) in rows("SELECT word FROM directory_search_word")}


@pytest.fixture
def catalogue():
    rng = random.Random(11)
    sectors = [SectorFactory(slug="banca", name="Banca"), SectorFactory(slug="ria", name="Ría")]
    companies = []
    for _ in range(60):
        name = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
        alternative = rng.sample(WORDS, rng.randint(0, 2)) if rng.random() < 0.4 else []
        companies.append(
            CompanyFactory(
                name=name,
                alternative_names=alternative,
                sector=rng.choice([*sectors, None]),
                province=rng.choice(["Málaga", "MALAGA", "Cádiz", None]),
            )
        )
    for company in companies[::2]:
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 2)))
        make_current(LogoFactory(company=company, title=title))
        LogoFactory(company=company, title=f"{title} antiguo")
    return companies


def test_it_keeps_the_tally_the_gram_counts_and_the_words_exact_through_writes(catalogue):
    assert tally() == tally_recount()
    assert grams() == grams_recount()
    assert postings() == postings_recount()

    catalogue[0].province = "Sevilla"
    catalogue[0].save()
    catalogue[1].sector = None
    catalogue[1].save()
    Company.objects.filter(pk__in=[c.pk for c in catalogue[2:9]]).update(province="Cádiz")
    Company.objects.filter(pk__in=[c.pk for c in catalogue[10:20]]).delete()
    Company.objects.filter(pk__in=[c.pk for c in catalogue[20:30]]).update(name="Ría de Arias")
    catalogue[31].alternative_names = ["Ayuntamiento"]
    catalogue[31].save()
    # Logos: retitled, made current (the one before no longer is), new, deleted.
    Logo.objects.filter(company__in=catalogue[30:40]).update(title="Ferrería del Ría")
    for company in catalogue[40:46:2]:
        make_current(Logo.objects.filter(company=company, is_current=False).first())
    LogoFactory(company=catalogue[47], title="Rial")
    Logo.objects.filter(company__in=catalogue[50:54], is_current=False).delete()

    assert tally() == tally_recount()
    assert grams() == grams_recount()
    assert postings() == postings_recount()


def test_it_empties_the_tally_the_grams_and_the_words_and_keeps_the_lexicon_on_truncate(
    catalogue,
):
    with connection.cursor() as cursor:
        # The deferred foreign-key checks of the fixture's inserts are pending until then.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("TRUNCATE directory_company CASCADE")

    assert (tally(), grams(), postings()) == ({}, {}, set())
    assert rows("SELECT company_id FROM directory_company_fulltext") == []
    assert {"ferreria", "maria", "supermercado"} <= lexicon()


def test_it_learns_the_words_of_names_titles_sectors_and_about_texts():
    company = CompanyFactory(
        name="Hnos. Quintanilla", alternative_names=["Talleres HQ"], about="Reparación naval."
    )
    LogoFactory(company=company, title="Escudo Marinero")
    SectorFactory(name="Astilleros")

    assert lexicon() >= {
        "hermanos",
        "quintanilla",
        "talleres",
        "reparacion",
        "naval",
        "escudo",
        "marinero",
        "astilleros",
    }
    # Two letters are too short to correct anything.
    assert "hq" not in lexicon()


def test_it_learns_the_words_of_many_texts_at_once_as_of_each_alone():
    # A statement's texts are normalised joined: where one ends and the next starts must
    # not change a word (a legal form is left out at a name's end unless it is the whole
    # name; dotted letters; "|" inside one).
    names = [
        "Astilleros SCOOP",
        "AIE",
        "Pl.La S.A.U.",
        "Hnos. Pérez & Gálvez e Hijos",
        "I.E.S. Col.legi",
        "Rial|Ría Arias S.L.P.",
        "X.",
        "Y.Z. Sociedad Anónima",
    ]
    known = lexicon()
    Company.objects.bulk_create(
        [Company(slug=f"many-{index}", name=name) for index, name in enumerate(names)]
    )

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT w FROM unnest(%s::text[]) AS n(name), directory_search_words(ARRAY[n.name]) w",
            [names],
        )
        alone = {word for (word,) in cursor.fetchall()}
    assert lexicon() - known == alone - known
    assert {"aie", "astilleros", "plla", "hermanos", "ies", "collegi"} <= alone
    assert "scoop" not in alone


def test_it_learns_the_words_of_changed_texts():
    company = CompanyFactory(name="Quintanilla")
    sector = SectorFactory(name="Astilleros")

    company.name = "Zubizarreta"
    company.about = "Fundición de bronce."
    company.save()
    Sector.objects.filter(pk=sector.pk).update(name="Fundiciones")
    Logo.objects.filter(pk=LogoFactory(company=company).pk).update(title="Campana")

    assert lexicon() >= {"zubizarreta", "fundicion", "bronce", "fundiciones", "campana"}


def test_it_marks_the_words_names_and_titles_have_held():
    company = CompanyFactory(name="Quintanilla", alternative_names=["Astur"], about="Naval.")
    LogoFactory(company=company, title="Escudo")
    SectorFactory(name="Astilleros")
    company.about = "Escudo naval. Fundición."
    company.save()
    company.name = "Zubizarreta"
    company.save()

    named = {word for (word,) in rows("SELECT word FROM directory_search_word WHERE named")}
    assert named >= {"quintanilla", "astur", "escudo", "zubizarreta"}
    # Words of "about" texts and sector names only: typo correction looks them up.
    assert not named & {"naval", "astilleros", "fundicion"}


def test_it_gives_a_logo_its_companys_name_again_when_the_company_is_renamed():
    company = CompanyFactory(name="Cafés Sol")
    logo = LogoFactory(company=company, title="Taza")

    company.name = "Cafés Luna"
    company.save()

    assert Logo.objects.get(pk=logo.pk).search_doc == " | taza | cafes luna | "


def test_it_leaves_the_logos_alone_when_a_new_name_reads_as_the_old_one():
    company = CompanyFactory(name="Cafés Sol")
    LogoFactory(company=company, title="Taza")
    # The logo's row version and place: a logo rewritten for nothing would change them.
    before = rows("SELECT xmin::text, ctid::text, search_doc FROM directory_logo")

    company.name = "CAFÉS SOL, S.L."
    company.save()

    assert rows("SELECT xmin::text, ctid::text, search_doc FROM directory_logo") == before


def search_rows() -> dict:
    """Every row of the search side tables with its version (xmin) and place (ctid), and
    the logos' documents: what a write that search does not read must leave alone."""
    return {
        table: rows(f"SELECT xmin::text, ctid::text FROM {table} ORDER BY ctid")  # noqa: S608
        for table in (
            "directory_search_word",
            "directory_search_variant",
            "directory_company_tally",
            "directory_company_fulltext",
            "directory_search_gram",
            "directory_search_gram_total",
        )
    } | {"documents": rows("SELECT id, search_doc FROM directory_logo ORDER BY id")}


def test_it_writes_nothing_for_search_when_a_download_updates_its_logo(api):
    company = CompanyFactory(name="Cafés Sol", about="Tostadero de café.")
    logo = make_current(LogoFactory(company=company, title="Sol"))
    add_file(logo, svg_bytes())
    before = search_rows()

    response = api.post(f"/v1/public/logos/{logo.id}/download", {"format": "svg"}, format="json")

    assert response.status_code == 200
    assert Logo.objects.get(pk=logo.pk).download_count == 1
    assert search_rows() == before


@pytest.mark.parametrize("index", ["directory_company_search", "directory_logo_search"])
def test_it_keeps_no_pending_list_in_the_trigram_indexes(index):
    # Every search would read a pending list in full (directory/catalogue/models.py).
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [index])
        assert cursor.fetchone() == (["fastupdate=off"],)


class _FieldsOnly:
    """The serializer's own validation, without the quick reading of common queries."""

    def run_validation(self, data=serializers.empty):
        return serializers.Serializer.run_validation(self, data)


class CompanyReference(_FieldsOnly, CompanySearchInputSerializer):
    pass


class LogoReference(_FieldsOnly, LogoSearchInputSerializer):
    pass


QUERIES = [
    "",
    "q=ria",
    "q=%20%20Banco%20N%C3%BA%C3%B1ez%20&page=2&pageSize=50",
    "q=&sector=&province=",
    "page=500&pageSize=1",
    "page=501",
    "page=0",
    "page=007",
    "page=+7",
    "page=%207",
    "page=7.0",
    "page=",
    "page=1&page=3",
    "pageSize=51",
    "pageSize=-1",
    "pageSize=%D9%A3",  # an Arabic-Indic three: a digit to isdigit(), not to every parser
    "q=" + "x" * 100,
    "q=" + "x" * 101,
    "q=%20" + "x" * 100 + "%20",
    "q=a%00b",
    "q=%00",
    "q=%01%20x%7F",
    "q=" + "x" * 99 + "%00",
    "q=" + "x" * 100 + "%1F",
    "sector=a%00b&province=%09A%00Coru%C3%B1a",
    "sector=" + "s" * 101,
    "province=" + "p" * 120,
    "province=" + "p" * 121,
    "related=true",
    "related=1",
    "related=0",
    "related=false",
    "related=",
    "related=yes",
    "related=TRUE",
    "unknown=1&q=x",
]


@pytest.mark.parametrize("query", QUERIES)
def test_it_reads_search_queries_as_the_serializer_fields_do(query):
    for quick, reference in [
        (CompanySearchInputSerializer, CompanyReference),
        (LogoSearchInputSerializer, LogoReference),
    ]:
        data = QueryDict(query)
        fast, slow = quick(data=data), reference(data=data)

        assert fast.is_valid() == slow.is_valid()
        assert fast.errors == slow.errors
        if slow.is_valid():
            assert dict(fast.validated_data) == dict(slow.validated_data)
