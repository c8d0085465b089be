import io
import json

import pytest
from django.core.cache import cache
from django.core.management import call_command

from directory.catalogue.selectors import DOMAINS_GENERATION_KEY, DOMAINS_LIST_KEY, domain_entries
from tests.factories import (
    CompanyFactory,
    DomainFactory,
    LogoFactory,
    SectorFactory,
    bearer,
    make_current,
    token_for,
)

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


# -- GET /domains/{domain} --------------------------------------------------------------


@pytest.fixture
def acme():
    sector = SectorFactory(slug="banca", name="Banca")
    company = CompanyFactory(
        slug="acme", name="Acme", sector=sector, province="Madrid", website="https://www.acme.es"
    )
    DomainFactory(company=company, domain="xn--acm-dma.es")  # acmé.es
    return company


def summary_of(company, *, logo=None) -> dict:
    return {
        "id": str(company.id),
        "slug": company.slug,
        "name": company.name,
        "entityType": "COMPANY",
        "isVerified": False,
        "sector": {"slug": company.sector.slug, "name": company.sector.name}
        if company.sector
        else None,
        "province": company.province,
        "logoCount": 1 if logo else 0,
        "currentLogo": {
            "id": str(logo.id),
            "slug": logo.slug,
            "title": logo.title,
            "previewUrl": None,
        }
        if logo
        else None,
        "url": f"http://testserver/companies/{company.slug}",
    }


def test_it_answers_the_company_summary_of_a_domain(api, acme):
    logo = make_current(LogoFactory(company=acme, slug="acme-2020", title="Acme 2020"))

    response = api.get(f"{URL}/acme.es")

    assert response.status_code == 200
    assert response.json() == {"data": summary_of(acme, logo=logo)}


@pytest.mark.parametrize(
    "typed",
    [
        "ACME.ES",
        "www.acme.es",
        "acme.es.",
        "WWW.Acme.Es.",
        "https%3A%2F%2Fwww.acme.es%2Fcontacto",
        "https://www.acme.es/contacto?ref=1",
        "tienda.acme.es",
        "eu.tienda.acme.es",
    ],
)
def test_it_finds_a_domain_however_it_is_written(api, acme, typed):
    response = api.get(f"{URL}/{typed}")

    assert response.status_code == 200
    assert response.json()["data"]["slug"] == "acme"


@pytest.mark.parametrize("typed", ["acmé.es", "ACMÉ.es", "xn--acm-dma.es", "www.xn--acm-dma.es"])
def test_it_finds_an_internationalised_domain_in_unicode_or_punycode(api, acme, typed):
    assert api.get(f"{URL}/{typed}").json()["data"]["slug"] == "acme"


def test_it_prefers_a_subdomain_known_on_its_own_to_its_parent(api, acme):
    DomainFactory(company=CompanyFactory(slug="tienda", name="Tienda"), domain="tienda.acme.es")

    assert api.get(f"{URL}/tienda.acme.es").json()["data"]["slug"] == "tienda"
    assert api.get(f"{URL}/eu.tienda.acme.es").json()["data"]["slug"] == "tienda"
    assert api.get(f"{URL}/blog.acme.es").json()["data"]["slug"] == "acme"


def test_it_answers_company_not_found_for_an_unknown_domain(api, acme):
    response = api.get(f"{URL}/acme.com.es")

    assert response.status_code == 404
    assert response.json() == {
        "error": "COMPANY_NOT_FOUND",
        "message": "No company is known by the domain acme.com.es.",
    }


@pytest.mark.parametrize(
    ("typed", "shown"), [("localhost", "localhost"), ("not%20a%20domain", "not a domain")]
)
def test_it_knows_no_company_by_what_is_not_a_domain(api, typed, shown):
    response = api.get(f"{URL}/{typed}")

    assert response.status_code == 404
    assert response.json() == {
        "error": "COMPANY_NOT_FOUND",
        "message": f"{shown!r} is not a domain name: no company is known by it.",
    }


def test_it_refuses_a_domain_longer_than_a_web_address_may_be(api):
    response = api.get(f"{URL}/{'a' * 2046}.es")

    assert response.status_code == 400
    assert list(response.json()["details"]) == ["domain"]


def test_it_caches_a_lookup_like_the_list(api, acme):
    first = api.get(f"{URL}/acme.es")
    again = api.get(f"{URL}/acme.es", HTTP_IF_NONE_MATCH=first["ETag"])

    assert first["Cache-Control"] == "public, max-age=86400"
    assert again.status_code == 304
    assert again.content == b""


def test_it_needs_read_logos_of_a_token_like_the_list(api, acme):
    headers = bearer(token_for(scopes=["read:palettes"]))

    for path in (URL, f"{URL}/acme.es"):
        response = api.get(path, **headers)
        assert response.status_code == 403
        assert response.json()["error"] == "INSUFFICIENT_SCOPE"


def test_it_counts_a_lookup_against_the_anonymous_rate_like_the_list(api, acme):
    for path in (URL, f"{URL}/acme.es"):
        assert api.get(path)["X-RateLimit-Limit"] == "20"


def test_it_looks_up_without_reading_the_whole_list_once_it_is_built(
    api, acme, django_assert_num_queries
):
    api.get(URL)

    # The company's summary only: the domain is found in the cached map.
    with django_assert_num_queries(1):
        assert api.get(f"{URL}/acme.es").status_code == 200


# -- the cached list follows the writes ---------------------------------------------------


def _listed(api) -> set[str]:
    return {entry["domain"] for entry in api.get(URL).json()["data"]}


def test_it_lists_an_imported_domain_as_soon_as_the_import_commits(
    api, tmp_path, django_capture_on_commit_callbacks
):
    CompanyFactory(slug="old", website="https://old.es")
    assert _listed(api) == {"old.es"}  # now in the server's cache
    catalogue = tmp_path / "catalogue.json"
    catalogue.write_text(
        json.dumps(
            {
                "companies": [
                    {"slug": "nueva", "name": "Nueva", "domains": ["nueva.com"]},
                    {"slug": "old", "name": "Old", "website": "https://www.old.es"},
                ]
            }
        )
    )

    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_directory", str(catalogue), stdout=io.StringIO())

    assert _listed(api) == {"nueva.com", "old.es"}
    assert api.get(f"{URL}/nueva.com").json()["data"]["slug"] == "nueva"


def test_it_keeps_the_cached_list_until_the_write_commits(api, django_capture_on_commit_callbacks):
    company = CompanyFactory(slug="acme", website="https://acme.es")
    assert _listed(api) == {"acme.es"}

    with django_capture_on_commit_callbacks(execute=False) as pending:
        DomainFactory(company=company, domain="acme.com")
    assert _listed(api) == {"acme.es"}  # not committed yet: the old list
    for callback in pending:
        callback()

    assert _listed(api) == {"acme.com", "acme.es"}


def _domain_renamed(company) -> None:
    domain = company.domains.get()
    domain.domain = "acme.com"
    domain.save()


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda company: DomainFactory(company=company, domain="acme.com"), id="add"),
        pytest.param(lambda company: company.domains.get().delete(), id="delete"),
        pytest.param(_domain_renamed, id="domain-renamed"),
        pytest.param(lambda company: _set(company, website="https://acme.org"), id="website"),
        pytest.param(lambda company: _set(company, name="Acme Nueva"), id="rename"),
        pytest.param(lambda company: _set(company, slug="acme-nueva"), id="new-slug"),
        pytest.param(lambda company: company.delete(), id="company-deleted"),
    ],
)
def test_it_rebuilds_the_list_after_any_write_that_changes_an_entry(
    api, django_capture_on_commit_callbacks, change
):
    company = CompanyFactory(slug="acme", name="Acme", website="https://acme.es")
    DomainFactory(company=company, domain="acme.net")
    before = api.get(URL).json()["data"]  # now in the server's cache

    with django_capture_on_commit_callbacks(execute=True):
        change(company)

    fresh = domain_entries()
    assert fresh != before
    assert api.get(URL).json()["data"] == fresh


def _set(company, **values) -> None:
    for name, value in values.items():
        setattr(company, name, value)
    company.save(update_fields=list(values))


def test_it_leaves_the_list_alone_for_company_changes_it_does_not_show(
    api, django_capture_on_commit_callbacks
):
    company = CompanyFactory(slug="acme", website="https://acme.es")
    api.get(URL)
    generation = cache.get(DOMAINS_GENERATION_KEY)

    with django_capture_on_commit_callbacks(execute=True):
        _set(company, about="Otra descripción.")
        CompanyFactory(website=None)

    assert cache.get(DOMAINS_GENERATION_KEY) == generation


def test_it_rebuilds_a_list_that_a_rebuild_stored_after_a_write_committed(
    api, django_capture_on_commit_callbacks
):
    company = CompanyFactory(slug="acme", website="https://acme.es")
    api.get(URL)
    racing = cache.get(DOMAINS_LIST_KEY)
    with django_capture_on_commit_callbacks(execute=True):
        DomainFactory(company=company, domain="acme.com")
    # A rebuild that read the catalogue before that commit stores its list afterwards.
    cache.set(DOMAINS_LIST_KEY, racing)

    assert _listed(api) == {"acme.com", "acme.es"}
    assert api.get(f"{URL}/acme.com").json()["data"]["slug"] == "acme"
