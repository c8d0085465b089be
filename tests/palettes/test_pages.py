"""The website's palette pages: the account area, the public page and saving a logo's
colours; the API's rules and texts, and the same palettes the API sees."""

import pytest
from django.test import Client

from palettes.models import MAX_PALETTES_PER_ACCOUNT, Palette, PaletteSource, PaletteType
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    PaletteFactory,
    UserFactory,
    add_file,
    bearer,
    make_current,
    svg_bytes,
    token_for,
)

pytestmark = pytest.mark.django_db

TWO_COLOURS = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">'
    b'<rect width="120" height="100" fill="#C8102E"/>'
    b'<rect x="120" width="80" height="100" fill="#FFC400"/></svg>'
)


def _create(browser, **fields):
    data = {"name": "Sunset", "type": "PALETTE", "colors": "#C8102E #ffc400", **fields}
    return browser.post("/account/palettes", data)


def test_it_creates_a_palette_the_api_then_lists(browser, person, api):
    response = _create(browser, is_public="on")

    assert response.status_code == 302
    listed = api.get("/v1/public/palettes", **bearer(token_for(person))).json()["data"]
    assert [(p["name"], p["colors"], p["isPublic"], p["source"]) for p in listed] == [
        ("Sunset", ["#C8102E", "#FFC400"], True, "MANUAL")
    ]
    page = browser.get("/account/palettes").content.decode()
    assert "Sunset" in page
    assert 'fill="#C8102E"' in page  # the preview, drawn in inline SVG


def test_it_creates_a_gradient_with_stops_spread_evenly(browser, person):
    response = _create(
        browser, name="Dawn", type="GRADIENT", colors="#000000\n#FF0000\n#FFFFFF", kind="radial"
    )

    assert response.status_code == 302
    gradient = Palette.objects.get(owner=person).colors
    assert gradient == {
        "kind": "radial",
        "angle": 90,
        "stops": [
            {"hex": "#000000", "position": 0},
            {"hex": "#FF0000", "position": 50},
            {"hex": "#FFFFFF", "position": 100},
        ],
    }
    assert "<radialGradient" in browser.get("/account/palettes").content.decode()


@pytest.mark.parametrize(
    ("fields", "language", "message"),
    [
        (
            {"colors": " ".join(f"#{n:06X}" for n in range(11))},
            "en",
            "Ensure this field has no more than 10 elements.",
        ),
        (
            # After the same refusal in English: each language words it afresh.
            {"colors": " ".join(f"#{n:06X}" for n in range(11))},
            "es",
            "Asegúrese de que este campo no tiene más de 10 elementos.",
        ),
        ({"colors": "#C8102E #12345G"}, "en", "Colour 2: A colour is #RRGGBB (six hex digits)."),
        ({"colors": "#C8102E #12345G"}, "es", "Color 2: Un color se escribe #RRGGBB"),
        ({"colors": "#C8102E"}, "en", "Ensure this field has at least 2 elements."),
        ({"name": ""}, "en", "This field may not be blank."),
        ({"name": "x" * 61}, "en", "Ensure this field has no more than 60 characters."),
        ({"name": "x" * 61}, "es", "Asegúrese de que este campo no tenga más de 60 caracteres."),
    ],
)
def test_it_refuses_what_the_api_refuses_with_its_texts(browser, person, fields, language, message):
    response = browser.post(
        "/account/palettes",
        {"name": "Sunset", "type": "PALETTE", "colors": "#C8102E #FFC400", **fields},
        HTTP_ACCEPT_LANGUAGE=language,
    )

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Palette.objects.exists()


def test_it_refuses_the_hundred_and_first_palette(browser, person):
    PaletteFactory.create_batch(MAX_PALETTES_PER_ACCOUNT, owner=person)

    response = _create(browser)

    assert response.status_code == 409
    assert "The account already has 100 palettes; delete one first." in response.content.decode()
    assert Palette.objects.filter(owner=person).count() == MAX_PALETTES_PER_ACCOUNT


def test_it_renames_and_recolours_a_palette_made_with_the_api(browser, person, api):
    auth = bearer(token_for(person))
    made = api.post(
        "/v1/public/palettes",
        {"type": "PALETTE", "name": "Old", "colors": ["#000000", "#FFFFFF"]},
        format="json",
        **auth,
    ).json()["data"]

    response = browser.post(
        f"/account/palettes/{made['id']}", {"name": "New", "colors": "#111111, #222222, #333333"}
    )

    assert response.status_code == 302
    seen = api.get(f"/v1/public/palettes/{made['id']}", **auth).json()["data"]
    assert (seen["name"], seen["colors"], seen["type"]) == (
        "New",
        ["#111111", "#222222", "#333333"],
        "PALETTE",
    )


def test_it_makes_a_palette_public_and_private(browser, person):
    palette = PaletteFactory(owner=person, is_public=False)
    toggle = f"/account/palettes/{palette.pk}/visibility"

    browser.post(toggle)
    assert Palette.objects.get(pk=palette.pk).is_public is True
    browser.post(toggle)
    assert Palette.objects.get(pk=palette.pk).is_public is False


def test_it_deletes_a_palette_and_then_answers_404_for_it(browser, person):
    palette = PaletteFactory(owner=person)

    assert browser.post(f"/account/palettes/{palette.pk}/delete").status_code == 302

    assert not Palette.objects.exists()
    assert browser.get(f"/account/palettes/{palette.pk}").status_code == 404
    assert browser.post(f"/account/palettes/{palette.pk}", {"name": "Back"}).status_code == 404
    assert browser.post(f"/account/palettes/{palette.pk}/delete").status_code == 404


def test_it_shows_a_public_palette_to_anyone_and_hides_a_private_one(person):
    public = PaletteFactory(owner=person, is_public=True, name="Open")
    private = PaletteFactory(owner=person, is_public=False, name="Secret")
    stranger, someone = Client(), Client()
    someone.force_login(UserFactory())

    assert "Open" in stranger.get(f"/palettes/{public.pk}").content.decode()
    for visitor in (stranger, someone):
        assert visitor.get(f"/palettes/{private.pk}").status_code == 404
    assert someone.get(f"/account/palettes/{private.pk}").status_code == 404
    assert someone.post(f"/account/palettes/{private.pk}/delete").status_code == 404
    assert someone.post(f"/account/palettes/{private.pk}/visibility").status_code == 404
    assert Palette.objects.get(pk=private.pk).is_public is False
    assert stranger.get("/palettes/not-a-uuid").status_code == 404


def test_it_saves_a_logos_colours_as_a_palette_in_one_click(
    browser, person, api, django_capture_on_commit_callbacks
):
    company = CompanyFactory(slug="sol", name="Sol")
    logo = make_current(LogoFactory(company=company, slug="sol-2020", title="Sol 2020"))
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, TWO_COLOURS)

    response = browser.post("/logos/sol-2020/palette")

    palette = Palette.objects.get(owner=person)
    assert response["Location"] == f"/account/palettes/{palette.pk}"
    seen = api.get(f"/v1/public/palettes/{palette.pk}", **bearer(token_for(person))).json()["data"]
    assert seen["source"] == PaletteSource.LOGO
    assert seen["type"] == PaletteType.PALETTE
    assert seen["colors"] == ["#C8102E", "#FFC400"]
    assert seen["company"] == {"slug": "sol", "name": "Sol"}


def test_it_refuses_to_save_a_logo_of_one_colour(browser, django_capture_on_commit_callbacks):
    logo = make_current(LogoFactory(slug="mono", title="Mono"))
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, svg_bytes(fill="#C8102E"))

    response = browser.post("/logos/mono/palette", follow=True)

    assert "Ensure this field has at least 2 elements." in response.content.decode()
    assert not Palette.objects.exists()


def test_it_sends_a_visitor_without_an_account_to_log_in(client):
    assert client.get("/account/palettes")["Location"].startswith("/accounts/login/")
