"""The website in a real browser (Debian's chromium driven by Playwright), in Spanish and
in English: each page as a browser that asks for the language sees it, and the switch
in the header.

Screenshots of every page in both languages go to tests/artifacts/screenshots
(site-<page>-<language>.png).
"""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from accounts.services import device_code_start
from tests.conftest import SCREENSHOTS, browser_page
from tests.factories import (
    PASSWORD,
    CompanyFactory,
    LogoFactory,
    SectorFactory,
    UserFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
)

pytestmark = pytest.mark.django_db(transaction=True)

# What each language calls things the test clicks, fills in and reads.
WORDS = {
    "es": {
        "locale": "es-ES",
        "home": "Logos y colores de marca",
        "email": "Correo electrónico:",
        "password": "Contraseña:",
        "log in": "Iniciar sesión",
        "sign up": "Crear cuenta",
        "tokens": "Tokens de API",
        "device": "Vincular un dispositivo",
        "logos": "Logos",
        "formats": "Formatos",
    },
    "en": {
        "locale": "en-GB",
        "home": "Logos and brand colours",
        "email": "Email:",
        "password": "Password:",
        "log in": "Log in",
        "sign up": "Sign up",
        "tokens": "API tokens",
        "device": "Link a device",
        "logos": "Logos",
        "formats": "Formats",
    },
}


@pytest.fixture
def catalogue():
    sector = SectorFactory(slug="alimentacion", name="Alimentación")
    for slug, name, fill in [
        ("cafes-sol", "Cafés Sol", "#C8102E"),
        ("panaderia-luna", "Panadería Luna", "#0645AD"),
        ("aceites-olivo", "Aceites del Olivo", "#2E7D32"),
    ]:
        company = CompanyFactory(slug=slug, name=name, sector=sector, province="Sevilla")
        logo = make_current(LogoFactory(company=company, slug=f"{slug}-2020", title=name))
        add_file(logo, svg_bytes(fill=fill))
        add_file(logo, png_bytes())


def _site_page(chromium, live_server, locale: str):
    page = browser_page(chromium, live_server, locale=locale)
    # Preview links name the site's address (SITE_URL): the browser asks the live server.
    page.route(
        f"{settings.SITE_URL}/**",
        lambda route: route.continue_(
            url=route.request.url.replace(settings.SITE_URL, live_server.url, 1)
        ),
    )
    return page


def _screenshot(page, name: str, language: str) -> None:
    page.screenshot(path=SCREENSHOTS / f"site-{name}-{language}.png", full_page=True)


def _heading(page, name: str):
    return page.get_by_role("heading", name=name, exact=True, level=1)


@pytest.mark.parametrize("language", ["es", "en"])
def test_it_shows_every_page_in_the_language_the_browser_asks_for(
    chromium, live_server, catalogue, language
):
    words = WORDS[language]
    page = _site_page(chromium, live_server, words["locale"])
    UserFactory(email="lucia@example.com")

    page.goto("/")
    expect(_heading(page, words["home"])).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", language)
    _screenshot(page, "home", language)

    page.get_by_role("link", name="Cafés Sol").click()
    expect(_heading(page, "Cafés Sol")).to_be_visible()
    expect(page.get_by_role("heading", name=words["logos"], exact=True)).to_be_visible()
    _screenshot(page, "company", language)

    page.locator(".cards a").first.click()
    expect(page.get_by_text(words["formats"], exact=True)).to_be_visible()
    _screenshot(page, "logo", language)

    page.get_by_role("link", name=words["sign up"]).first.click()
    expect(_heading(page, words["sign up"])).to_be_visible()
    _screenshot(page, "signup", language)

    page.get_by_role("link", name=words["log in"]).first.click()
    expect(_heading(page, words["log in"])).to_be_visible()
    _screenshot(page, "login", language)
    page.get_by_label(words["email"], exact=True).fill("lucia@example.com")
    page.get_by_label(words["password"], exact=True).fill(PASSWORD)
    page.get_by_role("button", name=words["log in"]).click()

    expect(_heading(page, words["tokens"])).to_be_visible()
    _screenshot(page, "tokens", language)

    started = device_code_start(source="FIGMA", client_name="Figma")
    page.goto(f"/device?code={started.device_code.display_user_code}")
    expect(_heading(page, words["device"])).to_be_visible()
    _screenshot(page, "device", language)


def test_it_switches_language_from_the_header_of_any_page(chromium, live_server, catalogue):
    page = _site_page(chromium, live_server, "es-ES")
    page.goto("/companies/cafes-sol")
    expect(page.get_by_role("button", name="Español")).to_have_attribute("aria-current", "true")

    page.get_by_role("button", name="English").click()

    expect(page).to_have_url(f"{live_server.url}/companies/cafes-sol")
    expect(page.get_by_role("heading", name="Logos", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Sign up")).to_be_visible()
    page.get_by_role("link", name="Logo directory").click()
    expect(_heading(page, "Logos and brand colours")).to_be_visible()

    page.get_by_role("button", name="Español").click()

    expect(_heading(page, "Logos y colores de marca")).to_be_visible()
