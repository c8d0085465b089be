"""The home page's companies related by meaning: below the results of the first page, the
API's related search (directory/related.py) over vectors made as the import makes them
(directory/embeddings.py), over the related evaluation catalogue."""

import re

import pytest

from directory import embeddings
from tests.directory.evaluation.measure import load_related_catalogue
from tests.factories import CompanyFactory

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
