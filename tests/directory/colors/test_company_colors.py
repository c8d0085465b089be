"""Brand colours: computed after commit from the current logo's main file, served as stored."""

import io

import pytest
from django.core.management import call_command

from directory.catalogue.models import Logo
from tests.factories import CompanyFactory, LogoFactory, add_file, make_current, png_bytes

pytestmark = pytest.mark.django_db

TWO_COLOURS = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">'
    b'<rect width="100" height="50" fill="#c8102e"/><circle cx="25" cy="25" r="10" fill="#FFD700"/>'
    b"</svg>"
)


@pytest.fixture
def company():
    return CompanyFactory(slug="sol", name="Sol")


def _colors(api, slug="sol"):
    response = api.get(f"/v1/public/companies/{slug}/colors")
    assert response.status_code == 200
    return response.json()["data"]


def test_it_reads_the_colours_after_the_file_is_committed(
    api, company, django_capture_on_commit_callbacks
):
    logo = LogoFactory(company=company, slug="sol-2020")
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, TWO_COLOURS)
        make_current(logo)

    assert _colors(api) == {
        "company": {"slug": "sol", "name": "Sol"},
        "logo": {"id": str(logo.id), "slug": "sol-2020"},
        "colors": ["#C8102E", "#FFD700"],
        "cached": True,
        "message": None,
    }
    detail = api.get("/v1/public/logos/sol-2020").json()["data"]
    assert detail["colorPalette"] == ["#C8102E", "#FFD700"]


def test_it_says_when_the_colours_are_not_computed_yet(api, company):
    logo = make_current(LogoFactory(company=company, slug="sol-2020"))
    add_file(logo, TWO_COLOURS)  # its after-commit work has not run

    assert _colors(api) == {
        "company": {"slug": "sol", "name": "Sol"},
        "logo": {"id": str(logo.id), "slug": "sol-2020"},
        "colors": [],
        "cached": False,
        "message": "The colours of this logo are being computed; ask again shortly.",
    }


def test_it_says_when_a_company_has_no_current_logo(api, company):
    LogoFactory(company=company)

    assert _colors(api) == {
        "company": {"slug": "sol", "name": "Sol"},
        "logo": None,
        "colors": [],
        "cached": False,
        "message": "The company has no current logo, so no brand colours.",
    }


def test_it_answers_company_not_found(api):
    response = api.get("/v1/public/companies/nobody/colors")

    assert (response.status_code, response.json()["error"]) == (404, "COMPANY_NOT_FOUND")


def test_it_reads_the_colours_again_when_the_main_file_changes(
    api, company, django_capture_on_commit_callbacks
):
    logo = LogoFactory(company=company)
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, TWO_COLOURS)
        make_current(logo)
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, TWO_COLOURS.replace(b"#c8102e", b"#003DA5"))

    assert _colors(api)["colors"] == ["#003DA5", "#FFD700"]


def test_it_computes_pending_logos_with_a_command(company):
    logos = [LogoFactory(company=company), LogoFactory(company=company), LogoFactory()]
    add_file(logos[0], TWO_COLOURS)
    add_file(logos[1], png_bytes(color=(0, 61, 165, 255)))
    out = io.StringIO()

    call_command("compute_colors", stdout=out)

    palettes = [Logo.objects.get(pk=logo.pk).color_palette for logo in logos]
    assert palettes == [["#C8102E", "#FFD700"], ["#003DA5"], []]
    assert out.getvalue() == (
        "colours read for 3 logos: 2 with colours, 1 without a readable SVG or PNG\n"
    )
    again = io.StringIO()
    call_command("compute_colors", stdout=again)
    assert again.getvalue().startswith("colours read for 0 logos")
    call_command("compute_colors", "--all", stdout=again)
    assert "colours read for 3 logos" in again.getvalue()
