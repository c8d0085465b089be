import pytest

from tests.factories import (
    PDF_BYTES,
    CompanyFactory,
    LogoFactory,
    SectorFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
)

pytestmark = pytest.mark.django_db


def test_it_returns_the_whole_company_with_its_logos(api, django_assert_num_queries):
    company = CompanyFactory(
        slug="cafes-ibanez",
        name="Cafés Ibáñez",
        sector=SectorFactory(slug="cafeterias", name="Cafeterías"),
        province="León",
        about="Tostadores desde 1920.",
        website="https://www.cafesibanez.es",
        location="Ponferrada",
        founded_year="1920",
    )
    old = LogoFactory(
        company=company, slug="ci-1990", title="Cafés Ibáñez (1990)", era_from=1990, era_to=2010
    )
    current = make_current(
        LogoFactory(company=company, slug="ci-2010", title="Cafés Ibáñez", era_from=2010)
    )
    add_file(current, png_bytes())
    add_file(current, PDF_BYTES)
    add_file(current, svg_bytes())

    with django_assert_num_queries(1):  # company, sector, logos and their formats as JSON
        response = api.get("/v1/public/companies/cafes-ibanez")

    assert response.status_code == 200
    assert response.json() == {
        "data": {
            "id": str(company.id),
            "slug": "cafes-ibanez",
            "name": "Cafés Ibáñez",
            "entityType": "COMPANY",
            "isVerified": False,
            "sector": {"slug": "cafeterias", "name": "Cafeterías"},
            "province": "León",
            "url": "http://testserver/companies/cafes-ibanez",
            "about": "Tostadores desde 1920.",
            "website": "https://www.cafesibanez.es",
            "location": "Ponferrada",
            "foundedYear": "1920",
            "currentLogoId": str(current.id),
            "logos": [
                {
                    "id": str(current.id),
                    "slug": "ci-2010",
                    "title": "Cafés Ibáñez",
                    "previewUrl": None,
                    "isCurrent": True,
                    "isProduct": False,
                    "era": {"from": 2010, "to": None, "label": None},
                    "formats": ["SVG", "PNG", "PDF"],
                    "url": "http://testserver/logos/ci-2010",
                },
                {
                    "id": str(old.id),
                    "slug": "ci-1990",
                    "title": "Cafés Ibáñez (1990)",
                    "previewUrl": None,
                    "isCurrent": False,
                    "isProduct": False,
                    "era": {"from": 1990, "to": 2010, "label": None},
                    "formats": [],
                    "url": "http://testserver/logos/ci-1990",
                },
            ],
        }
    }


def test_it_shows_a_company_without_sector_or_logos_with_nulls_and_an_empty_list(api):
    company = CompanyFactory(slug="bare", name="Bare", sector=None, province=None)

    response = api.get("/v1/public/companies/bare")

    assert response.status_code == 200
    assert response.json() == {
        "data": {
            "id": str(company.id),
            "slug": "bare",
            "name": "Bare",
            "entityType": "COMPANY",
            "isVerified": False,
            "sector": None,
            "province": None,
            "url": "http://testserver/companies/bare",
            "about": None,
            "website": None,
            "location": None,
            "foundedYear": None,
            "currentLogoId": None,
            "logos": [],
        }
    }


def test_it_lists_the_current_logo_first_then_newest_era_and_undated_last(api):
    company = CompanyFactory(slug="acme")
    LogoFactory(company=company, title="undated", era_from=None)
    LogoFactory(company=company, title="1980", era_from=1980)
    LogoFactory(company=company, title="2000", era_from=2000)
    make_current(LogoFactory(company=company, title="current 1990", era_from=1990))

    logos = api.get("/v1/public/companies/acme").json()["data"]["logos"]

    assert [logo["title"] for logo in logos] == ["current 1990", "2000", "1980", "undated"]


def test_it_gives_the_preview_address_once_the_preview_is_drawn(
    api, django_capture_on_commit_callbacks
):
    logo = make_current(LogoFactory(company=CompanyFactory(slug="acme")))
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, svg_bytes())

    preview_url = api.get("/v1/public/companies/acme").json()["data"]["logos"][0]["previewUrl"]

    assert preview_url.startswith(f"http://testserver/media/previews/{logo.id}/")
    assert preview_url.endswith(".png")


def test_it_answers_an_unknown_slug_with_company_not_found(api):
    response = api.get("/v1/public/companies/nope")

    assert response.status_code == 404
    assert response.json() == {
        "error": "COMPANY_NOT_FOUND",
        "message": "No company with slug 'nope'.",
    }


def test_it_refuses_a_slug_longer_than_255_characters(api):
    response = api.get("/v1/public/companies/" + "a" * 256)

    assert response.status_code == 400
    assert response.json()["error"] == "INVALID_REQUEST"
    assert list(response.json()["details"]) == ["slug"]
