"""The catalogue's invariants hold in the database, not only in Python."""

import pytest
from django.db import IntegrityError, connection, transaction

from directory.catalogue.models import Company, Logo
from tests.factories import CompanyFactory, LogoFactory, make_current

pytestmark = pytest.mark.django_db


def test_it_refuses_a_second_current_logo_for_a_company():
    company = CompanyFactory()
    make_current(LogoFactory(company=company))

    with pytest.raises(IntegrityError), transaction.atomic():
        Logo.objects.create(company=company, slug="second", title="Second", is_current=True)


def test_it_moves_the_current_logo_without_breaking_the_rule():
    company = CompanyFactory()
    first = make_current(LogoFactory(company=company))
    second = make_current(LogoFactory(company=company))

    first.refresh_from_db()
    company.refresh_from_db()
    assert (first.is_current, second.is_current) == (False, True)
    assert company.current_logo == second


@pytest.mark.parametrize("model", [Company, Logo])
def test_it_refuses_duplicate_slugs(model):
    logo = LogoFactory()
    existing = logo if model is Logo else logo.company

    with pytest.raises(IntegrityError), transaction.atomic():
        if model is Logo:
            Logo.objects.create(company=logo.company, slug=existing.slug, title="Copy")
        else:
            Company.objects.create(slug=existing.slug, name="Copy")


def test_it_refuses_an_era_that_ends_before_it_starts():
    with pytest.raises(IntegrityError), transaction.atomic():
        LogoFactory(era_from=2000, era_to=1999)


def test_it_refuses_a_current_logo_of_another_company():
    company = CompanyFactory()
    stranger = LogoFactory()

    with pytest.raises(IntegrityError), transaction.atomic():
        Company.objects.filter(pk=company.pk).update(current_logo=stranger)
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
