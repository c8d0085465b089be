import pytest

from tests.factories import CompanyFactory, DomainFactory

pytestmark = pytest.mark.django_db

URL = "/v1/public/domains"


def test_it_lists_website_hosts_and_extra_domains_once_each(api):
    acme = CompanyFactory(slug="acme", name="Acme", website="https://WWW.Acme.es/inicio")
    DomainFactory(company=acme, domain="acme.com")
    CompanyFactory(slug="bravo", name="Bravo", website="http://bravo.es")
    CompanyFactory(slug="copia", name="Copia", website="https://www.acme.es")
    CompanyFactory(slug="sin-web", name="Sin web", website=None)

    response = api.get(URL)

    assert response.status_code == 200
    body = response.json()
    assert body["data"] == [
        {"domain": "acme.com", "slug": "acme", "name": "Acme"},
        {"domain": "acme.es", "slug": "acme", "name": "Acme"},
        {"domain": "bravo.es", "slug": "bravo", "name": "Bravo"},
    ]
    assert body["generatedAt"]


def test_it_lets_a_staff_kept_domain_win_over_a_website_host(api):
    CompanyFactory(slug="a-first", name="First", website="https://shared.es")
    DomainFactory(company=CompanyFactory(slug="owner", name="Owner"), domain="shared.es")

    assert api.get(URL).json()["data"] == [
        {"domain": "shared.es", "slug": "owner", "name": "Owner"}
    ]


def test_it_asks_clients_to_cache_for_a_day_and_answers_304_to_its_etag(api):
    CompanyFactory(website="https://acme.es")

    first = api.get(URL)
    again = api.get(URL, HTTP_IF_NONE_MATCH=first["ETag"])

    assert first["Cache-Control"] == "public, max-age=86400"
    assert first["ETag"]
    assert again.status_code == 304
    assert again.content == b""
