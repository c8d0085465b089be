import uuid

import pytest

from directory.catalogue.models import VariantKind
from directory.editing.services import logo_colors_refresh
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


@pytest.fixture
def logo():
    company = CompanyFactory(slug="acme", name="Acmé")
    logo = make_current(
        LogoFactory(
            company=company, slug="acme-2020", title="Acmé 2020", era_from=2020, description="Rojo."
        )
    )
    logo.download_count = 7
    logo.save()
    return logo


def test_it_returns_the_whole_logo_with_variants_and_files(api, logo, django_assert_num_queries):
    horizontal = VariantFactory(logo=logo, key="h", kind=VariantKind.TYPE, name="Horizontal")
    negative = VariantFactory(
        logo=logo, key="h-neg", kind=VariantKind.VERSION, name="Negativo", parent=horizontal
    )
    main_svg = add_file(logo, svg_bytes())
    horizontal_png = add_file(logo, png_bytes(), variant=horizontal)
    negative_svg = add_file(logo, svg_bytes("#000000"), variant=negative)
    logo_colors_refresh(logo_id=logo.id)  # what runs after the files' commit

    with django_assert_num_queries(1):  # logo, company, variants and files as JSON
        response = api.get(f"/v1/public/logos/{logo.id}")

    assert response.status_code == 200
    assert response.json() == {
        "data": {
            "id": str(logo.id),
            "slug": "acme-2020",
            "title": "Acmé 2020",
            "previewUrl": None,
            "isCurrent": True,
            "isProduct": False,
            "era": {"from": 2020, "to": None, "label": None},
            "formats": ["SVG", "PNG"],
            "url": "http://testserver/logos/acme-2020",
            "description": "Rojo.",
            "company": {
                "id": str(logo.company_id),
                "slug": "acme",
                "name": "Acmé",
                "url": "http://testserver/companies/acme",
            },
            "colorPalette": ["#C8102E"],
            "downloadCount": 7,
            "variants": [
                {
                    "id": str(horizontal.id),
                    "kind": "TYPE",
                    "name": "Horizontal",
                    "parentId": None,
                    "previewUrl": None,
                    "formats": ["PNG"],
                },
                {
                    "id": str(negative.id),
                    "kind": "VERSION",
                    "name": "Negativo",
                    "parentId": str(horizontal.id),
                    "previewUrl": None,
                    "formats": ["SVG"],
                },
            ],
            "assets": [  # main variant first, then variants in order
                asset_body(main_svg, None, "SVG", "image/svg+xml"),
                asset_body(horizontal_png, horizontal.id, "PNG", "image/png"),
                asset_body(negative_svg, negative.id, "SVG", "image/svg+xml"),
            ],
        }
    }


def asset_body(asset, variant_id, file_format, content_type) -> dict:
    return {
        "id": str(asset.id),
        "format": file_format,
        "variantId": str(variant_id) if variant_id else None,
        "size": asset.size,
        "contentType": content_type,
    }


def test_it_shows_a_logo_without_variants_or_files_with_empty_lists(api):
    company = CompanyFactory(slug="bare", name="Bare")
    logo = LogoFactory(company=company, slug="bare-1", title="Bare")

    response = api.get("/v1/public/logos/bare-1")

    assert response.status_code == 200
    assert response.json() == {
        "data": {
            "id": str(logo.id),
            "slug": "bare-1",
            "title": "Bare",
            "previewUrl": None,
            "isCurrent": False,
            "isProduct": False,
            "era": {"from": None, "to": None, "label": None},
            "formats": [],
            "url": "http://testserver/logos/bare-1",
            "description": None,
            "company": {
                "id": str(logo.company_id),
                "slug": "bare",
                "name": "Bare",
                "url": "http://testserver/companies/bare",
            },
            "colorPalette": [],
            "downloadCount": 0,
            "variants": [],
            "assets": [],
        }
    }


def test_it_finds_a_logo_by_slug_too(api, logo):
    assert api.get("/v1/public/logos/acme-2020").json()["data"]["id"] == str(logo.id)


@pytest.mark.parametrize("identifier", ["nope", str(uuid.uuid4())])
def test_it_answers_an_unknown_id_or_slug_with_logo_not_found(api, identifier):
    response = api.get(f"/v1/public/logos/{identifier}")

    assert response.status_code == 404
    assert response.json() == {
        "error": "LOGO_NOT_FOUND",
        "message": f"No logo with id or slug {identifier!r}.",
    }


def test_it_refuses_an_id_longer_than_255_characters(api):
    response = api.get("/v1/public/logos/" + "a" * 256)

    assert response.status_code == 400
    assert list(response.json()["details"]) == ["id"]
