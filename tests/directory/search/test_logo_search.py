import pytest

from tests.factories import (
    CompanyFactory,
    LogoFactory,
    VariantFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
)

pytestmark = pytest.mark.django_db

URL = "/v1/public/logos"


def titles(response) -> list[str]:
    return [item["title"] for item in response.json()["data"]]


def test_it_returns_logo_summaries_with_their_company(api, django_assert_num_queries):
    company = CompanyFactory(slug="pena", name="Peña Deportiva")
    logo = make_current(
        LogoFactory(
            company=company, slug="pena-2001", title="Escudo", era_from=2001, era_label="Centenario"
        )
    )
    add_file(logo, png_bytes())
    add_file(logo, svg_bytes(), variant=VariantFactory(logo=logo))

    with django_assert_num_queries(1):  # the ranked page, its rows and the exact total at once
        response = api.get(URL, {"q": "pena"})

    assert response.json() == {
        "data": [
            {
                "id": str(logo.id),
                "slug": "pena-2001",
                "title": "Escudo",
                "previewUrl": None,
                "isCurrent": True,
                "isProduct": False,
                "era": {"from": 2001, "to": None, "label": "Centenario"},
                "formats": ["SVG", "PNG"],
                "url": "http://testserver/logos/pena-2001",
                "company": {"slug": "pena", "name": "Peña Deportiva"},
            }
        ],
        "page": 1,
        "pageSize": 20,
        "total": 1,
        "totalPages": 1,
    }


def test_it_matches_the_title_or_the_company_name_ignoring_accents(api):
    LogoFactory(title="Escudo Ñandú", company=CompanyFactory(name="Club Uno"))
    LogoFactory(title="Escudo", company=CompanyFactory(name="Club Ñandú"))
    LogoFactory(title="Otro", company=CompanyFactory(name="Club Dos"))

    assert sorted(titles(api.get(URL, {"q": "nandu"}))) == ["Escudo", "Escudo Ñandú"]
    assert sorted(titles(api.get(URL, {"q": "ÑANDÚ"}))) == ["Escudo", "Escudo Ñandú"]


def test_it_follows_a_company_rename(api):
    company = CompanyFactory(name="Viejo Nombre")
    LogoFactory(title="Logo", company=company)
    company.name = "Nombre Nuevo"
    company.save()

    assert titles(api.get(URL, {"q": "nuevo"})) == ["Logo"]
    assert titles(api.get(URL, {"q": "viejo"})) == []


def test_it_lists_current_logos_first_then_by_rank(api):
    company = CompanyFactory(name="Zeta")
    LogoFactory(company=company, title="Banco")
    make_current(LogoFactory(company=company, title="Banco del Sur"))
    LogoFactory(company=CompanyFactory(name="Alfa"), title="Nuevo Banco")

    assert titles(api.get(URL, {"q": "banco"})) == ["Banco del Sur", "Banco", "Nuevo Banco"]


def test_it_lists_current_logos_first_without_a_term(api):
    LogoFactory(title="A old")
    make_current(LogoFactory(title="Z current"))

    assert titles(api.get(URL)) == ["Z current", "A old"]


def test_it_paginates_with_exact_totals(api):
    for n in range(3):
        LogoFactory(title=f"Logo {n}")

    body = api.get(URL, {"page": 2, "pageSize": 2}).json()

    assert [item["title"] for item in body["data"]] == ["Logo 2"]
    assert (body["total"], body["totalPages"]) == (3, 2)


@pytest.mark.parametrize("params", [{"q": "x" * 101}, {"page": "501"}, {"pageSize": "51"}])
def test_it_refuses_invalid_parameters(api, params):
    response = api.get(URL, params)

    assert response.status_code == 400
    assert response.json()["error"] == "INVALID_REQUEST"
