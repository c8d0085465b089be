"""The website's journeys in a real browser (Debian's chromium driven by Playwright), in
Spanish and in English: find a company, open its logo, copy a colour, download the SVG
through the signed link until the anonymous limit; sign up, download with the account
and see the API's next grant count it, save the colours as a palette, edit it, read it
through the API, propose a logo and find it in the admin's review queue.

Every page visited is checked with axe-core (no serious or critical violation), loads
nothing from another host, and carries no inline script or style (the pages' CSP
forbids them). Screenshots of the main pages go to docs/screenshots (English, and the
phone layout) and tests/artifacts/screenshots (Spanish); the pages show times (when a
download stops counting, when a proposal was sent), so the clock is fixed, and a file
is written only when its pixels change (tests/screenshots.py).
"""

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import time_machine
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings as django_settings
from django.core import mail
from django.core.files.storage import storages
from playwright.sync_api import expect
from rest_framework.test import APIClient

from accounts.models import User
from directory.catalogue.models import Logo, Variant
from directory.downloads.models import Download
from proposals.models import Proposal, ProposalChannel
from tests.conftest import SCREENSHOTS, browser_page
from tests.factories import (
    PASSWORD,
    CompanyFactory,
    LogoFactory,
    SectorFactory,
    UserFactory,
    add_file,
    bearer,
    make_current,
    png_bytes,
    token_for,
)
from tests.screenshots import screenshot_kept

pytestmark = pytest.mark.django_db(transaction=True)

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
AXE = Axe()
# The time every test here runs at, frozen: the live server's thread reads it too.
NOW = datetime(2026, 3, 2, 8, 30, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _fixed_clock():
    with time_machine.travel(NOW, tick=False):
        yield


def _two_colours(first: str, second: str) -> bytes:
    return (
        b'<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120">'
        + f'<rect width="150" height="120" fill="{first}"/>'.encode()
        + f'<circle cx="195" cy="60" r="40" fill="{second}"/></svg>'.encode()
    )


COMPANIES = [
    ("cafes-sol", "Cafés Sol", "#C8102E", "#FFC400"),
    ("panaderia-luna", "Panadería Luna", "#0645AD", "#F5A623"),
    ("aceites-olivo", "Aceites del Olivo", "#2E7D32", "#C0CA33"),
    ("bodegas-rio", "Bodegas Río", "#6A1B9A", "#212121"),
]
SOL_SVG = _two_colours("#C8102E", "#FFC400")

WORDS = {
    "es": {
        "locale": "es-ES",
        "search": "Buscar",
        "search for": "Buscar empresa",
        "colours": "Colores de marca",
        "left": "Te quedan {} de {} descargas",
        "download": "Descargar {}",
        "limit": "{}: límite alcanzado",
        "used up": "Has usado todas tus descargas por ahora",
        "copy": "Copiar {}",
        "copied": "Copiado",
        "email": "Correo electrónico:",
        "password": "Contraseña:",
        "password again": "Repite la contraseña:",
        "sign up": "Crear cuenta",
        "check email": "Revisa tu correo",
        "confirm": "Confirmar y entrar",
        "save colours": "Guardar estos colores como paleta",
        "name": "Nombre:",
        "colours field": "Colores:",
        "save changes": "Guardar los cambios",
        "save": "Guardar",
        "too many": "Asegúrese de que este campo no tiene más de 10 elementos.",
        "propose": "Propuestas",
        "company name": "Nombre de la empresa:",
        "logo file": "Archivo del logo:",
        "send": "Enviar propuesta",
        "waiting": "Esperando revisión",
        "too large": "El archivo pasa de 5 MB.",
        "not an image": "Este archivo no es una imagen SVG, PNG, JPEG o WEBP",
        "palettes": "Tus paletas",
    },
    "en": {
        "locale": "en-GB",
        "search": "Search",
        "search for": "Search for a company",
        "colours": "Brand colours",
        "left": "{} of {} downloads left",
        "download": "Download {}",
        "limit": "{}: limit reached",
        "used up": "You have used all your downloads for now",
        "copy": "Copy {}",
        "copied": "Copied",
        "email": "Email:",
        "password": "Password:",
        "password again": "Password again:",
        "sign up": "Sign up",
        "check email": "Check your email",
        "confirm": "Confirm and log in",
        "save colours": "Save these colours as a palette",
        "name": "Name:",
        "colours field": "Colours:",
        "save changes": "Save changes",
        "save": "Save",
        "too many": "Ensure this field has no more than 10 elements.",
        "propose": "Proposals",
        "company name": "Company name:",
        "logo file": "Logo file:",
        "send": "Send proposal",
        "waiting": "Waiting for review",
        "too large": "The file is larger than 5 MB.",
        "not an image": "This file is not an SVG, PNG, JPEG or WEBP",
        "palettes": "Your palettes",
    },
}


@pytest.fixture
def site(settings, live_server, monkeypatch):
    """The catalogue, with links and previews naming the live server."""
    settings.SITE_URL = live_server.url
    settings.STORAGES = {
        **settings.STORAGES,
        "previews": {
            **settings.STORAGES["previews"],
            "OPTIONS": {
                **settings.STORAGES["previews"]["OPTIONS"],
                "base_url": live_server.url + django_settings.PREVIEW_URL_PATH,
            },
        },
    }
    # A FileField takes its storage once, when its model is defined: give it the new one.
    for model in (Logo, Variant):
        monkeypatch.setattr(model._meta.get_field("preview"), "storage", storages["previews"])
    sector = SectorFactory(slug="alimentacion", name="Alimentación")
    for slug, name, first, second in COMPANIES:
        company = CompanyFactory(slug=slug, name=name, sector=sector, province="Sevilla")
        logo = make_current(LogoFactory(company=company, slug=f"{slug}-2020", title=f"{name} 2020"))
        add_file(logo, _two_colours(first, second))
        add_file(logo, png_bytes())
    return live_server


def _browser(chromium, live_server, language: str, **options):
    page = browser_page(
        chromium,
        live_server,
        locale=WORDS[language]["locale"],
        permissions=["clipboard-read", "clipboard-write"],
        **options,
    )
    page.requested = []
    page.on("request", lambda request: page.requested.append(request.url))
    return page


def _check(page, name: str | None = None, language: str = "en") -> None:
    """No serious or critical axe-core violation, nothing inline the CSP would refuse,
    nothing from another host; and a screenshot of the page when named."""
    violations = [
        f"{violation['id']} ({violation['impact']}): {violation['help']} "
        f"{[node['target'] for node in violation['nodes']]}"
        for violation in AXE.run(page).response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
    assert violations == [], page.url
    html = page.content()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), page.url
    assert not re.search(r"<style[\s>]|\sstyle=\"|\son[a-z]+=\"", html), page.url
    origin = page.url.split("/", 3)[:3]
    foreign = [url for url in page.requested if url.split("/", 3)[:3] != origin]
    assert foreign == [], foreign
    if name is not None:
        folder = DOCS_SCREENSHOTS if language == "en" else SCREENSHOTS
        screenshot_kept(page, folder / f"website-{name}-{language}.png")


def _download(page, words, file_format: str = "SVG", *, double: bool = False) -> bytes:
    button = page.get_by_role("button", name=words["download"].format(file_format))
    with page.expect_download() as started:
        if double:
            button.dblclick()
        else:
            button.click()
    return Path(started.value.path()).read_bytes()


@pytest.mark.parametrize("language", ["es", "en"])
def test_it_finds_a_logo_copies_a_colour_and_downloads_until_the_anonymous_limit(
    chromium, site, language
):
    words = WORDS[language]
    page = _browser(chromium, site, language)

    page.goto("/")
    page.get_by_label(words["search for"]).fill("cafes")
    page.get_by_role("button", name=words["search"], exact=True).click()
    _check(page, "search", language)
    page.get_by_role("link", name="Cafés Sol").click()

    expect(page.get_by_role("heading", name=words["colours"])).to_be_visible()
    expect(page.locator(".swatches code").first).to_have_text("#C8102E")
    _check(page, "company", language)
    page.get_by_role("link", name=re.compile("Cafés Sol 2020")).click()

    expect(page.get_by_text(words["left"].format(3, 3))).to_be_visible()
    page.get_by_role("button", name=words["copy"].format("#FFC400")).click()
    expect(page.get_by_role("button", name=words["copy"].format("#FFC400"))).to_have_text(
        words["copied"]
    )
    assert page.evaluate("navigator.clipboard.readText()") == "#FFC400"
    assert _download(page, words) == SOL_SVG
    expect(page.get_by_text(words["left"].format(2, 3))).to_be_visible()
    _check(page, "logo", language)

    for slug in ("panaderia-luna-2020", "aceites-olivo-2020"):
        page.goto(f"/logos/{slug}")
        _download(page, words, "PNG", double=True)
    # A double click sends its form once (and a second grant would not count anyway).
    assert Download.objects.filter(logo__slug="panaderia-luna-2020").count() == 1
    page.goto("/logos/bodegas-rio-2020")

    expect(page.get_by_text(words["left"].format(0, 3))).to_be_visible()
    expect(page.get_by_text(words["used up"])).to_be_visible()
    expect(page.get_by_role("button", name=words["limit"].format("SVG"))).to_be_disabled()
    _check(page, "logo-limit", language)


@pytest.mark.parametrize("language", ["es", "en"])
def test_it_signs_up_downloads_keeps_palettes_and_proposes_a_logo(chromium, site, language):
    words = WORDS[language]
    page = _browser(chromium, site, language)
    email = f"marta-{language}@example.com"

    page.goto("/accounts/signup/?next=/logos/cafes-sol-2020")
    page.get_by_label(words["email"], exact=True).fill(email)
    page.get_by_label(words["password"], exact=True).fill(PASSWORD)
    page.get_by_label(words["password again"], exact=True).fill(PASSWORD)
    page.get_by_role("button", name=words["sign up"]).click()
    # Nobody is logged in until the link mailed to the address is opened and confirmed.
    expect(page.get_by_role("heading", name=words["check email"])).to_be_visible()
    _check(page)
    (message,) = mail.outbox
    page.goto(re.search(r"https?://\S+/accounts/signup/confirm/\S+", message.body).group())
    _check(page)
    page.get_by_role("button", name=words["confirm"]).click()
    expect(page).to_have_url(re.compile(r"/logos/cafes-sol-2020$"))

    # The account's quota, seen from the API before and after two downloads on the site.
    api, auth = APIClient(), bearer(token_for(User.objects.get(email=email)))
    before = _api_download(api, auth, "bodegas-rio-2020")
    page.reload()
    expect(page.get_by_text(words["left"].format(4, 5))).to_be_visible()
    assert _download(page, words) == SOL_SVG
    page.goto("/logos/panaderia-luna-2020")
    _download(page, words, "PNG")
    expect(page.get_by_text(words["left"].format(2, 5))).to_be_visible()
    after = _api_download(api, auth, "aceites-olivo-2020")
    assert (before["used"], after["used"]) == (1, 1 + 2 + 1)

    # The colours of a logo as a palette, renamed on the site, read through the API.
    page.goto("/logos/cafes-sol-2020")
    page.get_by_role("button", name=words["save colours"]).click()
    page.get_by_label(words["name"], exact=True).fill("Sol de tarde")
    page.get_by_role("button", name=words["save changes"]).click()
    expect(page.get_by_role("heading", name=words["palettes"])).to_be_visible()
    expect(page.get_by_role("link", name="Sol de tarde", exact=True)).to_be_visible()
    palettes = api.get("/v1/public/palettes", **auth).json()["data"]
    assert [(p["name"], p["colors"], p["source"]) for p in palettes] == [
        ("Sol de tarde", ["#C8102E", "#FFC400"], "LOGO")
    ]

    # A palette of 11 colours is refused with the API's text; nothing is saved.
    form = page.locator("form.stack")
    form.get_by_label(words["name"], exact=True).fill("Demasiados")
    form.get_by_label(words["colours field"], exact=True).fill(
        " ".join(f"#{n:02X}{n:02X}{n:02X}" for n in range(11))
    )
    form.get_by_role("button", name=words["save"], exact=True).click()
    expect(page.get_by_text(words["too many"])).to_be_visible()
    _check(page, "palettes", language)
    assert len(api.get("/v1/public/palettes", **auth).json()["data"]) == 1

    # A proposal: refused when too large or not an image, then sent.
    page.get_by_role("link", name=words["propose"], exact=True).click()
    page.get_by_label(words["company name"], exact=True).fill("Heladería Polo")
    six_mb = {"name": "polo.png", "mimeType": "image/png", "buffer": b"\x89PNG" + b"\0" * 6_000_000}
    # 6 MB through Playwright's pipe: more than the default 10 s on a busy machine.
    page.get_by_label(words["logo file"], exact=True).set_input_files(six_mb, timeout=60_000)
    page.get_by_role("button", name=words["send"]).click()
    expect(page.get_by_text(words["too large"])).to_be_visible()
    page.get_by_label(words["company name"], exact=True).fill("Heladería Polo")
    renamed = {"name": "polo.png", "mimeType": "image/png", "buffer": b"MZ\x90\x00" + b"\0" * 64}
    page.get_by_label(words["logo file"], exact=True).set_input_files(renamed)
    page.get_by_role("button", name=words["send"]).click()
    expect(page.get_by_text(words["not an image"])).to_be_visible()
    assert not Proposal.objects.exists()
    page.get_by_label(words["company name"], exact=True).fill("Heladería Polo")
    image = {"name": "polo.svg", "mimeType": "image/svg+xml", "buffer": SOL_SVG}
    page.get_by_label(words["logo file"], exact=True).set_input_files(image)
    page.get_by_role("button", name=words["send"]).click()
    expect(page.get_by_role("cell", name=words["waiting"])).to_be_visible()
    _check(page, "proposals", language)
    assert Proposal.objects.get().channel == ProposalChannel.WEB

    # Staff find it in the review queue, marked as made on the website.
    UserFactory(email="revisora@example.com", is_staff=True, is_superuser=True)
    admin = browser_page(chromium, site)
    admin.goto("/admin/proposals/proposal/?status=PENDING")
    admin.get_by_label("Email:", exact=True).fill("revisora@example.com")
    admin.get_by_label("Password:", exact=True).fill(PASSWORD)
    admin.get_by_role("button", name="Log in").click()
    row = admin.get_by_role("row", name=re.compile("Heladería Polo"))
    expect(row).to_contain_text("Website")


def _api_download(api, auth, slug: str) -> dict:
    response = api.post(
        f"/v1/public/logos/{slug}/download", {"format": "SVG"}, format="json", **auth
    )
    assert response.status_code == 200
    return response.json()["quota"]


def test_it_lays_the_pages_out_for_a_phone(chromium, site):
    page = _browser(chromium, site, "en", viewport={"width": 390, "height": 844})
    user = UserFactory(email="teo@example.com")
    page.goto("/accounts/login/")
    page.get_by_label("Email:", exact=True).fill(user.email)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    for path, name in [
        ("/?q=sol", "phone-search"),
        ("/logos/cafes-sol-2020", "phone-logo"),
        ("/account/palettes", "phone-palettes"),
    ]:
        page.goto(path)
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"{path} is {wide} px wide"
        _check(page, name)
