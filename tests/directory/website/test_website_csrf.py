"""A website form sent without its CSRF token, or with a forged one: the same page comes
back with status 403, the form as the visitor filled it in and an error in their
language that says to send it again, and nothing changes (website/csrf.py)."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from directory.downloads.models import Download
from palettes.models import Palette
from proposals.models import Proposal
from tests.csrf import FORGED, REFUSALS
from tests.csrf import post_with as _post
from tests.csrf import refusal_page as _refusal
from tests.csrf import token_of as _token_of
from tests.csrf import visitor_of as _visitor
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    PaletteFactory,
    UserFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
)

pytestmark = pytest.mark.django_db

TWO_COLOURS = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">'
    b'<rect width="120" height="100" fill="#C8102E"/>'
    b'<rect x="120" width="80" height="100" fill="#FFC400"/></svg>'
)


@pytest.fixture(params=REFUSALS)
def refused(request):
    """How the form is refused (no token, a forged one) and the visitor's language."""
    return request.param


@pytest.fixture
def logo():
    company = CompanyFactory(slug="sol", name="Sol")
    logo = make_current(LogoFactory(company=company, slug="sol-2020", title="Sol 2020"))
    add_file(logo, svg_bytes())
    return logo


def test_it_shows_the_logo_page_again_for_a_refused_download(refused, logo):
    token, language = refused
    visitor = _visitor(language)
    asset = logo.assets.get()

    response = _post(visitor, f"/logos/{logo.slug}/download", {"asset": str(asset.pk)}, token)

    page = _refusal(response, language)
    assert 'action="/logos/sol-2020/download"' in page
    assert not Download.objects.exists()


def test_it_downloads_when_the_refused_form_is_sent_again(logo):
    visitor = _visitor("en")
    data = {"asset": str(logo.assets.get().pk)}
    page = _refusal(_post(visitor, f"/logos/{logo.slug}/download", data, FORGED), "en")

    again = _post(visitor, f"/logos/{logo.slug}/download", data, _token_of(page))

    assert again.status_code == 302
    assert Download.objects.count() == 1


def test_it_shows_the_logo_page_again_when_saving_its_colours_is_refused(
    refused, person, django_capture_on_commit_callbacks
):
    token, language = refused
    logo = make_current(LogoFactory(company=CompanyFactory(slug="sol"), slug="sol-2020"))
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, TWO_COLOURS)
    visitor = _visitor(language, person)

    response = _post(visitor, "/logos/sol-2020/palette", {}, token)

    page = _refusal(response, language)
    assert 'action="/logos/sol-2020/palette"' in page
    assert not Palette.objects.exists()


def test_it_keeps_what_was_typed_into_a_refused_new_palette(refused, person):
    token, language = refused
    visitor = _visitor(language, person)
    data = {"name": "Atardecer", "type": "GRADIENT", "colors": "#C8102E #FFC400", "angle": "45"}

    response = _post(visitor, "/account/palettes", data, token)

    page = _refusal(response, language)
    assert 'value="Atardecer"' in page
    assert "#C8102E #FFC400</textarea>" in page
    assert re.search(r'value="GRADIENT"[^>]* checked', page)
    assert not Palette.objects.exists()


def test_it_saves_the_refused_palette_when_it_is_sent_again(person):
    visitor = _visitor("en", person)
    data = {"name": "Atardecer", "type": "PALETTE", "colors": "#C8102E #FFC400"}
    page = _refusal(_post(visitor, "/account/palettes", data, None), "en")

    again = _post(visitor, "/account/palettes", data, _token_of(page))

    assert again.status_code == 302
    assert Palette.objects.get().name == "Atardecer"


def test_it_keeps_what_was_typed_into_a_refused_palette_edit(refused, person):
    token, language = refused
    palette = PaletteFactory(owner=person, name="Sunset", colors=["#C8102E", "#FFFFFF"])
    visitor = _visitor(language, person)
    data = {"name": "Dawn", "colors": "#000000 #FFFFFF #FF0000"}

    response = _post(visitor, f"/account/palettes/{palette.pk}", data, token)

    page = _refusal(response, language)
    assert 'value="Dawn"' in page
    assert "#000000 #FFFFFF #FF0000</textarea>" in page
    palette.refresh_from_db()
    assert (palette.name, palette.colors) == ("Sunset", ["#C8102E", "#FFFFFF"])


@pytest.mark.parametrize("action", ["visibility", "delete"])
def test_it_lists_the_palettes_again_when_a_change_to_one_is_refused(refused, person, action):
    token, language = refused
    palette = PaletteFactory(owner=person, name="Sunset", is_public=False)
    visitor = _visitor(language, person)

    response = _post(visitor, f"/account/palettes/{palette.pk}/{action}", {}, token)

    page = _refusal(response, language)
    assert "Sunset" in page
    palette.refresh_from_db()
    assert palette.is_public is False


def test_it_answers_a_refused_form_for_someone_elses_palette_with_404(person):
    palette = PaletteFactory(owner=UserFactory(), name="Ajena")
    visitor = _visitor("en", person)

    for path in (f"/account/palettes/{palette.pk}", f"/account/palettes/{palette.pk}/delete"):
        assert _post(visitor, path, {"name": "Mía"}, FORGED).status_code == 404
    assert Palette.objects.get().name == "Ajena"


def test_it_sends_a_refused_form_of_someone_logged_out_to_the_login(logo):
    visitor = _visitor("en")

    response = _post(visitor, "/account/palettes", {"name": "Atardecer"}, FORGED)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert not Palette.objects.exists()


def test_it_keeps_the_text_of_a_refused_proposal_but_not_its_file(refused, person):
    token, language = refused
    visitor = _visitor(language, person)
    data = {
        "company_name": "Panadería Sol",
        "notes": "El de la fachada",
        "file": SimpleUploadedFile("sol.png", png_bytes()),
    }

    response = _post(visitor, "/account/proposals", data, token)

    page = _refusal(response, language)
    assert 'value="Panadería Sol"' in page
    assert "El de la fachada</textarea>" in page
    assert 'type="file" name="file"' in page
    assert not Proposal.objects.exists()


def test_it_still_refuses_other_forms_with_a_page_that_says_why():
    """Forms whose view does not render its own refusal (here the language switch)."""
    visitor = _visitor("es")

    response = _post(visitor, "/i18n/setlang/", {"language": "en", "next": "/"}, FORGED)

    assert response.status_code == 403
    assert "El formulario no se aceptó" in response.content.decode()
