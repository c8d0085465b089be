"""The home page: the API's search, each result with its current logo, sector and
province, 24 a page; and below the first page's results the companies related by
meaning, the API's related search (directory/search/related.py) over vectors made as the import
makes them (directory/search/embeddings.py), over the related evaluation catalogue."""

import re

import pytest

from directory.search import embeddings
from tests.directory.search.evaluation.measure import load_related_catalogue
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    SectorFactory,
    add_file,
    make_current,
    svg_bytes,
)

pytestmark = pytest.mark.django_db

RELATED_TITLE = 'id="related-title"'


@pytest.fixture
def catalogue():
    """The related catalogue, and 25 companies named "hotel" so that the term has a
    second page of results; every company with its vector."""
    groups = load_related_catalogue()
    for number in range(25):
        CompanyFactory(slug=f"hotel-playa-{number:02}", name=f"Hotel Playa {number:02}")
    embeddings.company_embedding_refresh()
    return groups


def _slugs(html: str) -> list[str]:
    return re.findall(r'href="/companies/([^"]+)"', html)


def _home(client, **params) -> str:
    response = client.get("/", params, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def bakeries(django_capture_on_commit_callbacks):
    """30 bakeries in one sector and province; the first with a current logo."""
    sector = SectorFactory(slug="alimentacion", name="Alimentación")
    companies = [
        CompanyFactory(
            slug=f"panaderia-{number:02}",
            name=f"Panadería {number:02}",
            sector=sector,
            province="León",
        )
        for number in range(30)
    ]
    logo = make_current(LogoFactory(company=companies[0], slug="panaderia-00-2020"))
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, svg_bytes())
    return logo


def _card(html: str, slug: str) -> str:
    return html.split(f'href="/companies/{slug}"', 1)[1].split("</li>", 1)[0]


def test_it_shows_each_result_with_its_logo_sector_and_province(client, bakeries):
    page = _home(client, q="panaderia")

    first = _card(page, "panaderia-00")
    assert f'<img src="http://testserver/media/previews/{bakeries.id}/' in first
    assert "Alimentación · León" in first
    # A company without a logo shows its initial instead.
    assert '<span class="no-logo" aria-hidden="true">P</span>' in _card(page, "panaderia-01")


def test_it_pages_through_the_results_24_at_a_time(client, bakeries):
    first, second = _home(client, q="panaderia"), _home(client, q="panaderia", page=2)

    assert len(_slugs(first)) == 24
    assert "Page 1 of 2" in first
    assert 'href="?q=panaderia&amp;page=2" rel="next"' in first
    assert _slugs(second) == [f"panaderia-{number}" for number in range(24, 30)]
    assert 'href="?q=panaderia&amp;page=1" rel="prev"' in second
    assert 'rel="next"' not in second


def test_it_shows_the_related_companies_below_the_first_page_of_results(client, api, catalogue):
    page = _home(client, q="hotel")

    results, related = page.split(RELATED_TITLE)
    assert "Related companies" in related[:60]
    api_body = api.get(
        "/v1/public/companies", {"q": "hotel", "related": "true", "pageSize": 24}
    ).json()
    assert _slugs(results) == [company["slug"] for company in api_body["data"]]
    assert _slugs(related) == [company["slug"] for company in api_body["related"]]
    # First a hotel whose name does not say so, found by what its "about" says.
    assert [catalogue.get(slug) for slug in _slugs(related)[:1]] == ["hotel"]
    assert not set(_slugs(related)) & set(_slugs(results))


def test_it_shows_no_related_companies_on_later_pages(client, catalogue):
    page = _home(client, q="hotel", page=2)

    assert _slugs(page) != []
    assert "Page 2 of" in page
    assert RELATED_TITLE not in page


def test_it_shows_no_related_companies_without_a_term(client, catalogue):
    assert RELATED_TITLE not in _home(client)
