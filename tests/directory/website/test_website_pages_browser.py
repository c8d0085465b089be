"""Every page of the website in a real browser, on a phone and on a desktop: no serious or
critical axe-core violation, nothing inline, nothing from another host, and on a phone
nothing wider than the screen. The journeys of test_website_browser.py visit the pages
as a person uses them; this visits the ones they do not reach too."""

import pytest

from tests.directory.website.test_website_browser import WORDS, _browser, _check, site  # noqa: F401
from tests.factories import PASSWORD, PaletteFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
ANYONE = [
    "/",
    "/?q=sol",
    "/companies/cafes-sol",
    "/logos/cafes-sol-2020",
    "/accounts/login/",
    "/accounts/signup/",
]
SIGNED_IN = [
    "/account/palettes",
    "/account/palettes/{palette}",
    "/palettes/{palette}",
    "/account/proposals",
    "/account/proposals?logo=cafes-sol-2020",
    "/account/tokens",
    "/device",
]


LOG_IN = {"es": "Iniciar sesión", "en": "Log in"}


def _log_in(page, user, language: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label(WORDS[language]["email"], exact=True).fill(user.email)
    page.get_by_label(WORDS[language]["password"], exact=True).fill(PASSWORD)
    page.get_by_role("button", name=LOG_IN[language]).click()
    page.wait_for_load_state()


def _visit(page, base: str, paths: list[str], screen: dict, language: str) -> None:
    for path in paths:
        page.goto(path)
        assert page.url == base + path  # not sent to the login
        _check(page, language=language)
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= screen["width"], f"{path} is {wide} px wide"


@pytest.mark.parametrize(("screen", "language"), [(PHONE, "es"), (DESKTOP, "en")])
def test_it_lays_out_every_page_accessibly_for_a_phone_and_a_desktop(
    chromium,
    site,  # noqa: F811
    screen,
    language,
):
    user = UserFactory(email="teo@example.com")
    palette = PaletteFactory(owner=user, name="Atardecer", is_public=True)
    page = _browser(chromium, site, language, viewport=screen)

    _visit(page, site.url, ANYONE, screen, language)
    _log_in(page, user, language)
    signed_in = [path.format(palette=palette.pk) for path in SIGNED_IN]
    _visit(page, site.url, signed_in, screen, language)
