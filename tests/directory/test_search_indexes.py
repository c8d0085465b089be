"""The precomputed search tables stay exact, and the pages read from them rank as search does.

directory_company_gram, directory_company_gram_total and directory_company_tally
(migration 0005), directory_logo_gram and directory_logo_gram_total (0008) are kept by
triggers; each test here changes companies and logos in the ways the application and
the import do, then compares the tables with a recount from the rows and the pages with
the plain ORM ranking of directory.search.
"""

import itertools
import random
import unicodedata

import pytest
from django.db import connection
from django.http import QueryDict
from rest_framework import serializers

from directory import search
from directory.models import Company, Logo
from directory.serializers import CompanySearchInputSerializer, LogoSearchInputSerializer
from tests.factories import CompanyFactory, LogoFactory, SectorFactory, make_current

pytestmark = pytest.mark.django_db

WORDS = ["Ría", "Maria", "Ferrería", "ria", "Rial", "Arias", "Ayuntamiento", "Ñandú", "de", "X"]


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def tiered_grams(names: list[str]) -> dict[str, int]:
    """Each term of three to five letters or digits in the folded names, with its rank
    tier: 0 when it is a whole name, 1 when a name starts with it, else 2."""
    folded = [fold(text) for text in names]
    grams = {
        text[i : i + size]
        for text in folded
        for size in (3, 4, 5)
        for i in range(len(text) - size + 1)
        if text[i : i + size].isascii() and text[i : i + size].isalnum()
    }
    return {
        gram: 0 if gram in folded else 1 if any(n.startswith(gram) for n in folded) else 2
        for gram in grams
    }


def similarity(text: str, gram: str) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT similarity(directory_fold(%s), %s)", (text, gram))
        return cursor.fetchone()[0]


def recount() -> dict:
    """The three tables as a recount from the companies gives them, independently of SQL."""
    groups: dict[tuple, set] = {}
    totals: dict[str, int] = {}
    tally: dict[tuple, int] = {}
    rows = Company.objects.values_list("id", "name", "alternative_names", "sector_id", "province")
    for company_id, name, alternative, sector_id, province in rows:
        for gram, tier in tiered_grams([name, *alternative]).items():
            groups.setdefault((gram, tier, similarity(name, gram)), set()).add(company_id)
            totals[gram] = totals.get(gram, 0) + 1
        key = (sector_id, fold(province) if province is not None else None)
        tally[key] = tally.get(key, 0) + 1
    return {"groups": groups, "totals": totals, "tally": tally}


def logo_recount() -> dict:
    """The logo tables as a recount from the logos gives them: current logos lead."""
    groups: dict[tuple, set] = {}
    totals: dict[str, int] = {}
    rows = Logo.objects.values_list("id", "title", "company__name", "is_current")
    for logo_id, title, company_name, is_current in rows:
        for gram, tier in tiered_grams([title, company_name]).items():
            key = (gram, 0 if is_current else 1, tier, similarity(title, gram))
            groups.setdefault(key, set()).add(logo_id)
            totals[gram] = totals.get(gram, 0) + 1
    return {"groups": groups, "totals": totals}


def logo_stored() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT gram, lead, tier, sim, size, ids FROM directory_logo_gram")
        rows = cursor.fetchall()
        assert all(size == len(ids) for *_, size, ids in rows)
        groups = {(gram, lead, tier, sim): set(ids) for gram, lead, tier, sim, _, ids in rows}
        cursor.execute("SELECT gram, size FROM directory_logo_gram_total")
        totals = dict(cursor.fetchall())
    return {"groups": groups, "totals": totals}


def stored() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT gram, tier, sim, size, ids FROM directory_company_gram")
        rows = cursor.fetchall()
        assert all(size == len(ids) for *_, size, ids in rows)
        groups = {(gram, tier, sim): set(ids) for gram, tier, sim, _, ids in rows}
        assert sum(len(ids) for ids in groups.values()) == sum(size for *_, size, _ in rows)
        cursor.execute("SELECT gram, size FROM directory_company_gram_total")
        totals = dict(cursor.fetchall())
        cursor.execute("SELECT sector_id, province_fold, size FROM directory_company_tally")
        tally = {(sector, province): size for sector, province, size in cursor.fetchall()}
    return {"groups": groups, "totals": totals, "tally": tally}


@pytest.fixture
def catalogue():
    rng = random.Random(11)
    # "ria" names two sectors: one by its slug, one by its name.
    sectors = [
        SectorFactory(slug="banca", name="Banca"),
        SectorFactory(slug="ria", name="Ría"),
        SectorFactory(slug="rias-baixas", name="RIA"),
    ]
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
    return companies


def test_it_builds_the_tables_as_a_recount_gives_them(catalogue):
    assert stored() == recount()


def test_it_keeps_the_tables_exact_through_updates_and_deletes(catalogue):
    first, second, third, *rest = catalogue
    first.name = "Riada Ferrería"
    first.save()
    second.alternative_names = ["RIA", "Ayuntamiento de Ría"]
    second.province = "Cádiz"
    second.save()
    third.sector = None
    third.save(update_fields=["sector"])
    Company.objects.filter(pk__in=[c.pk for c in rest[:10]]).update(alternative_names=["Maria"])
    Company.objects.filter(pk__in=[c.pk for c in rest[10:15]]).update(province=None)
    Company.objects.filter(pk__in=[c.pk for c in rest[15:25]]).delete()
    # Updates that leave the indexed values as they were change nothing.
    Company.objects.filter(pk__in=[c.pk for c in rest[25:]]).update(is_verified=True)

    assert stored() == recount()


def test_it_empties_the_tables_when_companies_are_truncated(catalogue):
    with connection.cursor() as cursor:
        # The deferred foreign-key checks of the fixture's inserts are pending until then.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("TRUNCATE directory_company CASCADE")

    assert stored() == {"groups": {}, "totals": {}, "tally": {}}


THREE = ["ria", "Ría", "RIA", "mar", "ari", "ayu", "nan", "xyz", "de ", "a%b"]
# Whole names ("rial", "maria", "Ñandú"), prefixes ("mari", "ayun", "ferre", "nand"),
# inner runs ("aria", "RÍAS", "erri", "tami"), none ("zzzz", "12345"), and runs past a
# space or wildcard ("de ri", "a_b%"), which rank every match instead.
FOUR_AND_FIVE = [
    "rial",
    "MARIA",
    "Ñandú",
    "mari",
    "ayun",
    "ferre",
    "nand",
    "aria",
    "RÍAS",
    "erri",
    "tami",
    "zzzz",
    "12345",
    "de ri",
    "a_b%",
]
WINDOWS = [(0, 1), (0, 5), (1, 3), (4, 20), (13, 7), (30, 50), (59, 1), (200, 20)]


def assert_company_pages_rank_as_search(term, sector=None, province=None) -> None:
    """Every window of company_page is the same slice of the ORM ranking, with its total."""
    ranked = search.company_search(term=term, sector=sector, province=province)
    expected = [str(pk) for pk in ranked.values_list("pk", flat=True)]

    for offset, limit in WINDOWS:
        rows, total = search.company_page(
            term=term, sector=sector, province=province, offset=offset, limit=limit
        )
        assert total == len(expected)
        assert [row["id"] for row in rows] == expected[offset : offset + limit], (offset, limit)


@pytest.mark.parametrize("term", [*THREE, *FOUR_AND_FIVE])
def test_it_pages_short_terms_as_company_search_ranks(catalogue, term):
    Company.objects.filter(pk=catalogue[0].pk).update(alternative_names=["Ria"])

    assert_company_pages_rank_as_search(term)


FILTERS = [
    (sector, province)
    for sector, province in itertools.product(
        [None, "banca", "RÍA", "ria", "unknown"], [None, "malaga", "Cádiz", "Nowhere"]
    )
]


# A filter leaves the groups aside: they hold every company with the term.
@pytest.mark.parametrize(
    ("sector", "province"), [("RÍA", None), (None, "malaga"), ("ria", "Cádiz"), ("unknown", None)]
)
@pytest.mark.parametrize("term", ["ria", "mari", "ferre", "zzzz"])
def test_it_pages_filtered_short_terms_as_company_search_ranks(catalogue, term, sector, province):
    assert_company_pages_rank_as_search(term, sector, province)


@pytest.mark.parametrize(("sector", "province"), FILTERS)
def test_it_lists_without_a_term_as_company_search_orders(catalogue, sector, province):
    catalogue[0].delete()
    Company.objects.filter(pk=catalogue[1].pk).update(province="Cádiz", sector=None)

    assert_company_pages_rank_as_search(None, sector, province)


@pytest.fixture
def logos(catalogue):
    rng = random.Random(13)
    made = []
    for company in catalogue[:40]:
        for _ in range(rng.randint(1, 3)):
            title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
            made.append(LogoFactory(company=company, title=title))
        if rng.random() < 0.6:
            make_current(made[-1])
    return made


def test_it_builds_the_logo_tables_as_a_recount_gives_them(logos):
    assert logo_stored() == logo_recount()


def test_it_keeps_the_logo_tables_exact_through_logo_and_company_changes(logos):
    first, second, third, *rest = logos
    first.title = "Riada Ferrería"
    first.save()
    make_current(second)
    make_current(third)
    # A rename rewrites its logos' search_text (migration 0002), which reaches the grams.
    renamed = rest[0].company
    renamed.name = "Arias de la Ría"
    renamed.save()
    Logo.objects.filter(pk__in=[logo.pk for logo in rest[5:15]]).update(title="Maria")
    Logo.objects.filter(pk__in=[logo.pk for logo in rest[15:25]]).delete()
    # Updates that leave the indexed values as they were change nothing.
    Logo.objects.filter(pk__in=[logo.pk for logo in rest[25:]]).update(download_count=7)

    assert logo_stored() == logo_recount()


def test_it_empties_the_logo_tables_when_logos_are_truncated(logos):
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("TRUNCATE directory_logo CASCADE")

    assert logo_stored() == {"groups": {}, "totals": {}}


@pytest.mark.parametrize("term", [*THREE, *FOUR_AND_FIVE, None, "ría de", "ayuntamiento"])
def test_it_pages_logos_as_logo_search_ranks(logos, term):
    expected = [str(pk) for pk in search.logo_search(term=term).values_list("pk", flat=True)]

    for offset, limit in WINDOWS:
        rows, total = search.logo_page(term=term, offset=offset, limit=limit)
        assert total == len(expected)
        assert [row["id"] for row in rows] == expected[offset : offset + limit], (offset, limit)


def forget_groups(table: str, gram: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE gram = %s", [gram])  # noqa: S608
        cursor.execute(f"DELETE FROM {table}_total WHERE gram = %s", [gram])  # noqa: S608


# A page that ranked the matches itself would be as right as one that read the groups:
# only groups it cannot find tell which way it went (migration 0013).
READ_FROM_GROUPS = ["Ría", "mari", "AYUNT", "ferre"]


@pytest.mark.parametrize("term", READ_FROM_GROUPS)
def test_it_answers_terms_of_three_to_five_characters_from_the_groups(catalogue, term):
    assert search.company_search(term=term).exists()
    forget_groups("directory_company_gram", fold(term))

    assert search.company_page(term=term, sector=None, province=None, offset=0, limit=20) == (
        [],
        0,
    )


@pytest.mark.parametrize("term", READ_FROM_GROUPS)
def test_it_answers_logo_terms_of_three_to_five_characters_from_the_groups(logos, term):
    assert search.logo_search(term=term).exists()
    forget_groups("directory_logo_gram", fold(term))

    assert search.logo_page(term=term, offset=0, limit=20) == ([], 0)


@pytest.mark.parametrize("index", ["directory_company_search", "directory_logo_search"])
def test_it_keeps_no_pending_list_in_the_trigram_indexes(index):
    # Every search would read a pending list in full (migration 0012).
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
