"""A new logo added through logo_create, current from its insert: the catalogue's
current-logo facts, the summaries and the search counts are what making it current
afterwards gives, and its colours are read once it has a file to read them from."""

import pytest

from directory.catalogue.models import Company, Logo
from directory.editing.services import logo_create
from tests.directory.search.test_company_summaries import rebuilt, stored
from tests.directory.search.test_search_indexes import grams, grams_recount
from tests.factories import CompanyFactory, LogoFactory, add_file, make_current, svg_bytes

pytestmark = pytest.mark.django_db


def test_it_adds_a_current_logo_in_place_of_the_previous_one():
    company = CompanyFactory(name="Talleres Peñalara")
    previous = make_current(LogoFactory(company=company, title="Escudo antiguo"))
    other = CompanyFactory(name="Bodegas Roble")

    logo = logo_create(
        Logo(company=company, slug="escudo-nuevo", title="Escudo nuevo"), current=True
    )
    plain = logo_create(Logo(company=other, slug="roble", title="Roble"))

    assert company.current_logo == logo
    assert Company.objects.get(pk=company.pk).current_logo_id == logo.id
    assert set(Logo.objects.filter(is_current=True).values_list("pk", flat=True)) == {logo.pk}
    previous.refresh_from_db()
    assert not previous.is_current
    plain.refresh_from_db()
    assert not plain.is_current
    assert Company.objects.get(pk=other.pk).current_logo_id is None
    assert stored() == rebuilt()
    assert grams() == grams_recount()


def test_it_knows_a_new_logo_has_no_colours_until_its_main_file_comes():
    logo = logo_create(Logo(company=CompanyFactory(), slug="sin-ficheros", title="T"), current=True)

    logo.refresh_from_db()
    assert (logo.color_palette, logo.colors_computed_at is not None) == ([], True)

    add_file(logo, svg_bytes())

    logo.refresh_from_db()
    assert logo.colors_computed_at is None  # pending: read after the commit
