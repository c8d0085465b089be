"""The rows PostgreSQL builds for the hot read paths carry exactly the sources of the
serializers that show them, and show as DRF shows the ORM's instances."""

import json

import pytest
from django.db import connection
from rest_framework import serializers

from directory.catalogue.models import Company, Logo, VariantKind
from directory.catalogue.selectors import (
    company_detail_row,
    company_find,
    logo_detail_row,
    logo_find,
    with_summary_fields,
)
from directory.catalogue.serializers import (
    CompanyDetailOutputSerializer,
    DomainLookupOutputSerializer,
    LogoDetailOutputSerializer,
)
from directory.catalogue.shapes import (
    CompanyDetailSerializer,
    CompanySummarySerializer,
    LogoDetailSerializer,
    LogoSearchItemSerializer,
)
from directory.search import selectors as search
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    SectorFactory,
    VariantFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
)

pytestmark = pytest.mark.django_db


def sources(fields) -> dict:
    """The keys a row must have for these fields, nested as the row nests them."""
    keys: dict = {}
    for field in fields.values():
        if isinstance(field, serializers.ListSerializer):
            keys[field.source] = sources(field.child.fields)
        elif isinstance(field, serializers.Serializer) and field.source == "*":
            keys.update(sources(field.fields))
        elif isinstance(field, serializers.Serializer):
            keys[field.source] = sources(field.fields)
        elif isinstance(field, serializers.SerializerMethodField):
            keys[field.field_name] = None
        else:
            keys[field.source] = None
    return keys


def keys(row: dict) -> dict:
    """The keys of a JSON row, nested; a list of objects by its first."""
    nested: dict = {}
    for key, value in row.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            value = value[0]
        nested[key] = keys(value) if isinstance(value, dict) else None
    return nested


@pytest.fixture
def company() -> Company:
    """A company with everything its summary and detail show, none of it empty."""
    company = CompanyFactory(
        slug="acme", name="Acmé", sector=SectorFactory(slug="banca", name="Banca")
    )
    older = LogoFactory(company=company, slug="acme-1990", title="Acmé 1990", era_from=1990)
    current = make_current(
        LogoFactory(company=company, slug="acme-2020", title="Acmé 2020", era_from=2020)
    )
    Logo.objects.filter(pk=current.pk).update(preview="acme-2020.png")
    add_file(older, png_bytes())
    add_file(current, svg_bytes())
    add_file(current, png_bytes())
    horizontal = VariantFactory(logo=current, key="h", kind=VariantKind.TYPE, name="Horizontal")
    negative = VariantFactory(
        logo=current, key="h-neg", kind=VariantKind.VERSION, name="Negativo", parent=horizontal
    )
    add_file(current, png_bytes(), variant=horizontal)
    add_file(current, svg_bytes("#FFFFFF"), variant=negative)
    return company


def stored_summary(company: Company) -> dict:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT summary FROM directory_company_summary WHERE company_id = %s", [company.pk]
        )
        return json.loads(cursor.fetchone()[0])


def test_it_stores_summaries_keyed_by_the_summary_serializers_sources(company):
    assert keys(stored_summary(company)) == sources(CompanySummarySerializer().fields)


def test_it_builds_the_company_detail_keyed_by_its_serializers_sources(company):
    row = company_detail_row(slug="acme")

    assert keys(row) == sources(CompanyDetailSerializer().fields)


def test_it_builds_the_logo_detail_keyed_by_its_serializers_sources(company):
    row = logo_detail_row(id_or_slug="acme-2020")

    assert keys(row) == sources(LogoDetailSerializer().fields)


def test_it_pages_logo_search_rows_keyed_by_the_items_serializers_sources(company):
    rows, _ = search.logo_page(term="acme", offset=0, limit=20)

    assert keys(rows[0]) == sources(LogoSearchItemSerializer().fields)


def test_it_shows_a_stored_summary_as_drf_shows_the_company(company):
    instance = with_summary_fields(Company.objects.filter(pk=company.pk)).get()

    shown = DomainLookupOutputSerializer({"data": stored_summary(company)}).data

    assert shown["data"] == CompanySummarySerializer(instance).data
    assert shown["data"]["currentLogo"]["previewUrl"] == (
        "http://testserver/media/previews/acme-2020.png"
    )


def test_it_shows_the_company_detail_row_as_drf_shows_company_find(company):
    shown = CompanyDetailOutputSerializer({"data": company_detail_row(slug="acme")}).data

    assert shown["data"] == CompanyDetailSerializer(company_find(slug="acme")).data
    assert [logo["slug"] for logo in shown["data"]["logos"]] == ["acme-2020", "acme-1990"]


def test_it_shows_the_logo_detail_row_as_drf_shows_logo_find(company):
    shown = LogoDetailOutputSerializer({"data": logo_detail_row(id_or_slug="acme-2020")}).data

    assert shown["data"] == LogoDetailSerializer(logo_find(id_or_slug="acme-2020")).data
    assert [variant["name"] for variant in shown["data"]["variants"]] == [
        "Horizontal",
        "Negativo",
    ]
