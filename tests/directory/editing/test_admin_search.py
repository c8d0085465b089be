"""The admin's search is the API's: the same page functions, the same matches in the
same order, within the list's filters (docs/search.md)."""

import random

import pytest
from django.urls import reverse

from directory.catalogue.models import Company, Sector
from directory.editing import admin as directory_admin
from tests.directory.editing.test_admin import changelist_url, listed
from tests.factories import CompanyFactory, LogoFactory, SectorFactory, make_current

pytestmark = pytest.mark.django_db

# Search is the API's search: accents and case do not matter.


def _names(response) -> list[str]:
    return [company.name for company in listed(response)]


def test_it_finds_companies_ignoring_accents_and_case_both_ways(admin_client):
    CompanyFactory(name="Construcciones Núñez")
    CompanyFactory(name="Talleres nunez")
    CompanyFactory(name="Panadería Sol")
    expected = {"Construcciones Núñez", "Talleres nunez"}

    plain = admin_client.get(changelist_url("company"), {"q": "nunez"})
    accented = admin_client.get(changelist_url("company"), {"q": "NÚÑEZ"})

    assert set(_names(plain)) == expected
    assert set(_names(accented)) == expected


def test_it_finds_companies_by_an_alternative_name(admin_client):
    CompanyFactory(name="Telefónica", alternative_names=["Movistar"])
    CompanyFactory(name="Iberia")

    assert _names(admin_client.get(changelist_url("company"), {"q": "movistar"})) == ["Telefónica"]


def test_it_lists_the_best_match_first_unless_staff_sort_by_a_column(admin_client):
    CompanyFactory(name="Hermanos Núñez")
    CompanyFactory(name="Núñez")

    ranked = admin_client.get(changelist_url("company"), {"q": "nunez"})
    by_name = admin_client.get(changelist_url("company"), {"q": "nunez", "o": "1"})

    assert _names(ranked) == ["Núñez", "Hermanos Núñez"]
    assert _names(by_name) == ["Hermanos Núñez", "Núñez"]


def test_it_finds_logos_by_their_title_or_their_company_name_ignoring_accents(admin_client):
    by_company = LogoFactory(company=CompanyFactory(name="Café Núñez"), title="Emblema")
    by_title = LogoFactory(title="Logotipo de Cádiz")
    LogoFactory(title="Otro")

    assert listed(admin_client.get(changelist_url("logo"), {"q": "cafe nunez"})) == [by_company]
    assert listed(admin_client.get(changelist_url("logo"), {"q": "CADIZ"})) == [by_title]


def test_it_autocompletes_companies_with_the_same_search(admin_client):
    company = CompanyFactory(name="Núñez")
    CompanyFactory(name="Sol")

    response = admin_client.get(
        reverse("admin:autocomplete"),
        {"term": "nunez", "app_label": "directory", "model_name": "logo", "field_name": "company"},
    )

    assert response.status_code == 200
    assert [item["id"] for item in response.json()["results"]] == [str(company.pk)]


# The admin lists what the API lists, in the same order: both ask the page functions.

WORDS = ["banco", "bancos", "sur", "norte", "núñez", "nandu", "hermanos", "talleres"]
WORDS += ["de", "la", "cádiz", "café", "sol", "vanco", "bar", "ibérico", "ría"]


@pytest.fixture
def ranked_catalogue():
    rng = random.Random(11)
    sectors = [SectorFactory(slug="banca", name="Banca"), SectorFactory(slug="otros", name="Otros")]
    for n in range(90):
        name = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        company = CompanyFactory(
            name=name,
            alternative_names=[rng.choice(WORDS)] if rng.random() < 0.3 else [],
            sector=rng.choice(sectors),
            is_verified=rng.random() < 0.5,
        )
        logo = LogoFactory(company=company, title=f"{rng.choice(WORDS)} {n % 4}")
        if rng.random() < 0.5:
            make_current(logo)


def admin_ids(client, model: str, params: dict) -> tuple[list[str], int]:
    """Every row a searched admin list shows, page after page, and its count."""
    ids, number, pages = [], 1, 1
    while number <= pages:
        response = client.get(changelist_url(model), {**params, "p": number})
        ids += [str(row.pk) for row in listed(response)]
        pages = response.context["cl"].paginator.num_pages
        number += 1
    return ids, response.context["cl"].result_count


def api_ids(api, url: str, params: dict) -> tuple[list[str], int]:
    ids, page, pages = [], 1, 1
    while page <= pages:
        body = api.get(url, {**params, "page": page, "pageSize": 50}).json()
        ids += [item["id"] for item in body["data"]]
        pages = body["totalPages"]
        page += 1
    return ids, body["total"]


TERMS = ["banco", "ban", "NÚÑEZ", "a", "de la", "sur norte", "vanco", "hermanso", "zzz"]


@pytest.mark.parametrize("term", TERMS)
def test_it_lists_the_companies_the_api_lists_in_its_order(
    admin_client, api, ranked_catalogue, term
):
    expected, total = api_ids(api, "/v1/public/companies", {"q": term})

    assert admin_ids(admin_client, "company", {"q": term}) == (expected, total)


@pytest.mark.parametrize("term", TERMS)
def test_it_lists_the_logos_the_api_lists_in_its_order(admin_client, api, ranked_catalogue, term):
    expected, total = api_ids(api, "/v1/public/logos", {"q": term})

    assert admin_ids(admin_client, "logo", {"q": term}) == (expected, total)


@pytest.mark.parametrize("term", ["banco", "ba", "sur"])
def test_it_keeps_the_apis_order_within_the_lists_filters(
    admin_client, api, ranked_catalogue, term
):
    banca = Sector.objects.get(slug="banca")
    in_banca, _ = api_ids(api, "/v1/public/companies", {"q": term, "sector": "banca"})
    verified = {
        str(pk) for pk in Company.objects.filter(is_verified=True).values_list("pk", flat=True)
    }
    expected = [pk for pk in in_banca if pk in verified]

    params = {"q": term, "sector__id__exact": banca.pk, "is_verified__exact": 1}
    assert admin_ids(admin_client, "company", params) == (expected, len(expected))
    assert expected


def test_it_autocompletes_companies_in_the_apis_order(admin_client, api, ranked_catalogue):
    expected, _ = api_ids(api, "/v1/public/companies", {"q": "banco"})

    response = admin_client.get(
        reverse("admin:autocomplete"),
        {"term": "banco", "app_label": "directory", "model_name": "logo", "field_name": "company"},
    )

    assert [item["id"] for item in response.json()["results"]] == expected[:20]
    assert response.json()["pagination"]["more"] == (len(expected) > 20)


def test_it_lists_the_best_matches_of_a_term_matching_too_many_and_says_so(
    admin_client, api, ranked_catalogue, monkeypatch
):
    monkeypatch.setattr(directory_admin, "MATCHES_LISTED", 7)
    expected, total = api_ids(api, "/v1/public/companies", {"q": "ba"})

    response = admin_client.get(changelist_url("company"), {"q": "ba"})

    assert total > 7
    assert [str(row.pk) for row in listed(response)] == expected[:7]
    assert [str(message) for message in response.context["messages"]] == [
        f"{total} companies match; the best 7 are listed. A longer term finds fewer."
    ]
