"""directory_company_summary holds each company's search summary as its rows give it,
through every change to companies, logos and sectors."""

import json
import threading
import time

import pytest
from django.db import close_old_connections, connection, connections, transaction

from api.rows import row_shaper
from directory.catalogue.models import Company, Logo, Sector
from directory.catalogue.selectors import with_summary_fields
from directory.catalogue.shapes import CompanySummarySerializer
from tests.factories import CompanyFactory, LogoFactory, SectorFactory, make_current

pytestmark = pytest.mark.django_db


def stored() -> dict:
    """Every stored summary as the search pages show it."""
    shown = row_shaper(CompanySummarySerializer)
    with connection.cursor() as cursor:
        cursor.execute("SELECT company_id, summary FROM directory_company_summary")
        return {str(key): shown(json.loads(text)) for key, text in cursor.fetchall()}


def rebuilt() -> dict:
    """Every company's summary as DRF shows the ORM's instances (selectors'
    with_summary_fields, which the admin and the website use)."""
    companies = with_summary_fields(Company.objects.all())
    return {row["id"]: row for row in CompanySummarySerializer(companies, many=True).data}


@pytest.fixture
def catalogue():
    sectors = [SectorFactory(slug="banca", name="Banca"), SectorFactory(slug="cine", name="Cine")]
    companies = [
        CompanyFactory(name=f"Empresa {n}", sector=sectors[n % 2] if n % 3 else None)
        for n in range(12)
    ]
    for n, company in enumerate(companies[:9]):
        logos = [LogoFactory(company=company, title=f"Logo {n}.{k}") for k in range(n % 3 + 1)]
        if n % 2:
            make_current(logos[-1])
    return companies


def test_it_holds_every_company_summary_as_its_rows_give_it(catalogue):
    assert stored() == rebuilt()
    assert len(stored()) == 12


def test_it_follows_changes_to_companies_logos_and_sectors(catalogue):
    first, second, third, fourth, fifth, *rest = catalogue
    first.name = "Empresa renombrada"
    first.is_verified = True
    first.save()
    Company.objects.filter(pk=second.pk).update(sector=None, province="Cádiz")
    Sector.objects.filter(slug="banca").update(name="Banca y seguros", slug="banca-seguros")
    LogoFactory(company=third, title="Nuevo")
    make_current(LogoFactory(company=fourth, title="Actual"))
    Logo.objects.filter(company=fifth).delete()
    current = Logo.objects.filter(company=rest[0], is_current=True).first()
    Logo.objects.filter(pk=current.pk).update(title="Retitulado", slug="retitulado")
    rest[1].delete()
    # A download's count is not in a summary: nothing to rebuild.
    Logo.objects.update(download_count=3)

    assert stored() == rebuilt()
    assert stored()[str(first.pk)]["name"] == "Empresa renombrada"


def test_it_drops_the_summaries_when_companies_are_truncated(catalogue):
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("TRUNCATE directory_company CASCADE")

    assert stored() == {}


def test_it_summarises_many_companies_written_at_once_and_keeps_the_plan_cache_mode():
    # More than 100 ids: directory_company_summaries_refresh plans for them, with a
    # SET LOCAL that must end with the function (docs/sql.md).
    sector = SectorFactory(slug="banca", name="Banca")
    Company.objects.bulk_create(
        CompanyFactory.build(name=f"Empresa {n}", sector=sector if n % 2 else None)
        for n in range(150)
    )
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == ("auto",)

    assert stored() == rebuilt()
    assert len(stored()) == 150


@pytest.mark.django_db(transaction=True)
def test_it_counts_logos_added_by_two_transactions_at_once():
    company = CompanyFactory()
    first_added = threading.Event()

    def add(title: str, *, hold: bool) -> None:
        try:
            with transaction.atomic():
                LogoFactory(company=company, title=title)
                if hold:
                    # The other transaction adds its logo while this one is uncommitted.
                    first_added.set()
                    time.sleep(0.5)
        finally:
            connections.close_all()

    holder = threading.Thread(target=add, args=("Uno",), kwargs={"hold": True})
    holder.start()
    first_added.wait(5)
    add("Dos", hold=False)
    holder.join()
    close_old_connections()

    assert stored()[str(company.pk)]["logoCount"] == 2
    assert stored() == rebuilt()
