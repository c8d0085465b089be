"""The website in Spanish and English; the API and the admin in English.

Every string of the website's templates goes through the translation machinery, and
the Spanish catalogue translates every one: a string typed into a template as it is,
or added without its translation, fails here.
"""

import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

from accounts.services import device_code_start
from tests.factories import CompanyFactory, LogoFactory, UserFactory, make_current
from tests.project import ROOT, project_copy

pytestmark = pytest.mark.django_db

TEMPLATES = ROOT / "templates"
# The staff admin speaks English only, like Django's admin around it here, and so does
# the developers' example of the Logo Link.
ENGLISH_ONLY_TEMPLATES = (TEMPLATES / "admin", TEMPLATES / "examples")
SPANISH = "es-ES,es;q=0.9,en;q=0.5"
ENGLISH = "en-GB,en;q=0.9"


@pytest.fixture
def catalogue():
    company = CompanyFactory(slug="cafes-sol", name="Cafés Sol", province="Sevilla")
    make_current(LogoFactory(company=company, slug="sol-2020", title="Sol 2020"))


@pytest.fixture
def member(client):
    user = UserFactory(email="lucia@example.com")
    client.force_login(user)
    return user


def _pages(device_code: str) -> dict[str, tuple[str, str]]:
    """Path: (its heading in Spanish, in English)."""
    return {
        "/": ("Logos y colores de marca", "Logos and brand colours"),
        "/companies/cafes-sol": ("Cafés Sol", "Cafés Sol"),
        "/logos/sol-2020": ("Sol 2020", "Sol 2020"),
        "/account/tokens": ("Tokens de API", "API tokens"),
        f"/device?code={device_code}": ("Vincular un dispositivo", "Link a device"),
    }


def _heading(response) -> str:
    return re.search(r"<h1>(.*?)</h1>", response.content.decode()).group(1)


@pytest.mark.parametrize(
    ("accept_language", "language"),
    [(SPANISH, "es"), (ENGLISH, "en"), ("en-US", "en"), ("fr-FR,fr", "es"), (None, "es")],
)
def test_it_serves_every_page_in_the_language_the_browser_asks_for(
    client, catalogue, member, accept_language, language
):
    started = device_code_start(source="FIGMA", client_name="Figma")
    headers = {"HTTP_ACCEPT_LANGUAGE": accept_language} if accept_language else {}

    for path, headings in _pages(started.device_code.display_user_code).items():
        response = client.get(path, **headers)

        assert response.status_code == 200, path
        assert _heading(response) == headings[0 if language == "es" else 1], path
        assert f'<html lang="{language}">' in response.content.decode()
        assert response["Content-Language"] == language
        assert "Accept-Language" in response["Vary"]


@pytest.mark.parametrize(("path", "spanish", "english"), [
    ("/accounts/login/", "Iniciar sesión", "Log in"),
    ("/accounts/signup/", "Crear cuenta", "Sign up"),
])  # fmt: skip
def test_it_serves_the_pages_of_visitors_in_both_languages(client, path, spanish, english):
    assert _heading(client.get(path, HTTP_ACCEPT_LANGUAGE=SPANISH)) == spanish
    assert _heading(client.get(path, HTTP_ACCEPT_LANGUAGE=ENGLISH)) == english


def test_it_translates_djangos_own_messages_on_the_website(client):
    form = {"email": "ana@example.com", "password1": "abc", "password2": "abc"}

    spanish = client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE=SPANISH)
    english = client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE=ENGLISH)

    assert "La contraseña es demasiado corta" in spanish.content.decode()
    assert "This password is too short" in english.content.decode()


def test_it_keeps_the_language_chosen_with_the_switch_on_every_page(client, catalogue):
    home = client.get("/companies/cafes-sol", HTTP_ACCEPT_LANGUAGE=SPANISH).content.decode()
    assert 'action="/i18n/setlang/"' in home
    assert 'name="language" value="es" lang="es" aria-current="true">Español<' in home
    assert 'name="language" value="en" lang="en">English<' in home

    chosen = client.post(
        "/i18n/setlang/",
        {"language": "en", "next": "/companies/cafes-sol"},
        HTTP_ACCEPT_LANGUAGE=SPANISH,
    )

    assert chosen.status_code == 302
    assert chosen["Location"] == "/companies/cafes-sol"
    cookie = chosen.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert (cookie.value, cookie["httponly"], cookie["samesite"]) == ("en", True, "Lax")
    # The browser still asks for Spanish; the choice wins.
    after = client.get("/", HTTP_ACCEPT_LANGUAGE=SPANISH)
    assert _heading(after) == "Logos and brand colours"


def test_it_keeps_the_api_in_english_whatever_the_browser_asks(api):
    response = api.get("/v1/public/companies", {"page": 0}, HTTP_ACCEPT_LANGUAGE=SPANISH)

    assert response.status_code == 400
    assert response.json()["details"] == {
        "page": ["Ensure this value is greater than or equal to 1."]
    }
    assert not response.has_header("Content-Language")
    assert "accept-language" not in response.get("Vary", "").lower()


def test_it_keeps_the_staff_admin_in_english(client):
    response = client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE=SPANISH)

    assert response.status_code == 200
    assert "Log in" in response.content.decode()
    assert '<html lang="en"' in response.content.decode()


def test_it_keeps_the_developers_example_in_english(client):
    response = client.get("/examples/logo-link", HTTP_ACCEPT_LANGUAGE=SPANISH)

    assert response.status_code == 200
    assert '<html lang="en">' in response.content.decode()
    assert not response.has_header("Content-Language")


# Every string of the templates is translated.

MARK = "\x00"
# Attributes that people read or hear.
READ_ATTRIBUTES = {"alt", "title", "placeholder", "aria-label", "aria-description"}
LETTER = re.compile(r"[^\W\d_]")


def _template_text(source: str) -> str:
    """The template's HTML with every tag, variable and translated string of the
    template language replaced by MARK: what is left is typed in as it is."""
    pieces = []
    skipping = None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0]
            if skipping is None and name in ("blocktranslate", "blocktrans", "comment"):
                skipping = "end" + name
            elif name == skipping:
                skipping = None
        if token.token_type == TokenType.TEXT and skipping is None:
            pieces.append(token.contents)
        else:
            pieces.append(MARK)
    return "".join(pieces)


class _ReadText(HTMLParser):
    """The text of the page and of the attributes that are read, outside scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        self.found.extend(value for name, value in attrs if name in READ_ATTRIBUTES and value)
        if tag == "input" and ("type", "submit") in attrs:
            self.found.extend(value for name, value in attrs if name == "value" and value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.found.append(data)


def untranslated_strings(source: str) -> list[str]:
    reader = _ReadText()
    reader.feed(_template_text(source))
    return [
        piece.strip() for text in reader.found for piece in text.split(MARK) if LETTER.search(piece)
    ]


def website_templates() -> list[Path]:
    return [
        path
        for path in sorted(TEMPLATES.rglob("*.html"))
        if not any(path.is_relative_to(folder) for folder in ENGLISH_ONLY_TEMPLATES)
    ]


def test_it_finds_a_string_typed_into_a_template():
    source = (
        '{% load i18n %}<p title="Hola">{% translate "Logos" %} y más</p>'
        '{% blocktranslate %}Page {{ n }}{% endblocktranslate %}<img alt="{{ x }}">'
    )

    assert untranslated_strings(source) == ["Hola", "y más"]


@pytest.mark.parametrize("template", website_templates(), ids=lambda path: path.name)
def test_it_types_no_string_into_a_website_template(template):
    assert untranslated_strings(template.read_text()) == []


def test_it_has_every_string_of_the_website_translated_into_spanish(tmp_path):
    """What scripts/messages.sh would add to the catalogue is there, and translated."""
    project = project_copy(tmp_path)
    catalogue = Path("locale/es/LC_MESSAGES/django.po")

    subprocess.run(
        ["bash", "-c", "source scripts/lib.sh && update_messages"],
        cwd=project,
        env={"PATH": "/usr/bin:/bin", "DEBUG": "1"},
        check=True,
        timeout=120,
    )

    missing = []
    for selection in ("--untranslated", "--only-fuzzy"):
        listed = subprocess.run(
            ["msgattrib", selection, "--no-obsolete", str(project / catalogue)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        # Entries, less the catalogue's header.
        missing += [
            entry
            for entry in listed.split("\n\n")
            if "msgid" in entry and "Project-Id-Version" not in entry
        ]
    assert missing == []
