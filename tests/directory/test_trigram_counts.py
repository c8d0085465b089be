"""TrigramCount stays the exact number of companies whose names contain each trigram."""

import pytest
from django.db import connection

from directory.models import Company, TrigramCount
from tests.factories import CompanyFactory

pytestmark = pytest.mark.django_db


def like_counts() -> dict[str, int]:
    """What the table must hold: for every three-letter trigram, the LIKE count."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT t, (SELECT count(*) FROM directory_company c
                       WHERE c.search_text LIKE '%%' || t || '%%')
            FROM (SELECT DISTINCT t FROM directory_company c, unnest(show_trgm(c.search_text)) t
                  WHERE t ~ '^[a-z0-9]{3}$') trigrams
            """
        )
        return dict(cursor.fetchall())


def table_counts() -> dict[str, int]:
    return dict(TrigramCount.objects.filter(companies__gt=0).values_list("trigram", "companies"))


def test_it_counts_companies_as_they_are_created():
    CompanyFactory(name="Banco Núñez", alternative_names=["BN", "Caja Rural"])
    CompanyFactory(name="Bancolor")

    assert table_counts() == like_counts()
    assert table_counts()["ban"] == 2
    assert table_counts()["nun"] == 1  # folded: no accents


def test_it_follows_renames_and_new_alternative_names():
    company = CompanyFactory(name="Banco Sur")
    CompanyFactory(name="Banco Norte")

    company.name = "Caja Sur"
    company.alternative_names = ["Cajasur Banco"]
    company.save()

    assert table_counts() == like_counts()


def test_it_ignores_updates_that_do_not_touch_names():
    company = CompanyFactory(name="Banco Sur")
    before = table_counts()

    Company.objects.filter(pk=company.pk).update(province="Cádiz", about="otro texto")

    assert table_counts() == before


def test_it_forgets_deleted_companies():
    keep = CompanyFactory(name="Banco Sur")
    CompanyFactory(name="Banco Norte").delete()

    assert table_counts() == like_counts()
    assert table_counts()["ban"] == 1
    assert keep.pk


def test_it_counts_bulk_writes_in_one_statement():
    Company.objects.bulk_create([Company(slug=f"c{n}", name=f"Panadería {n}") for n in range(50)])
    Company.objects.filter(slug__in=["c1", "c2"]).update(name="Otra")

    assert table_counts() == like_counts()
    assert table_counts()["pan"] == 48
