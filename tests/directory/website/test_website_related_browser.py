"""The home page's related companies in a real browser: below the first page of results,
the companies close in meaning to the term, checked with axe-core like every page."""

import pytest
from playwright.sync_api import expect

from directory.search import embeddings
from tests.directory.search.evaluation.measure import load_related_catalogue
from tests.directory.website.test_website_browser import _browser, _check

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_shows_the_related_companies_below_the_results(chromium, live_server):
    groups = load_related_catalogue()
    embeddings.company_embedding_refresh()
    page = _browser(chromium, live_server, "en")

    page.goto("/")
    page.get_by_label("Search for a company").fill("hotel")
    page.get_by_role("button", name="Search", exact=True).click()

    related = page.get_by_role("region", name="Related companies")
    expect(related).to_be_visible()
    first = related.get_by_role("link").first.get_attribute("href")
    assert groups[first.removeprefix("/companies/")] == "hotel"
    _check(page)
