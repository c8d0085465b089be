"""The account pages in a real browser (Debian's chromium driven by Playwright).

Each test saves screenshots of the pages it visits in tests/artifacts/screenshots.
A missing chromium makes these tests fail: they are never skipped.
"""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from accounts.models import ApiToken, DeviceCodeStatus, Source, User
from accounts.services import device_code_start
from accounts.tokens import token_digest
from tests.conftest import SCREENSHOTS, browser_page
from tests.factories import PASSWORD, UserFactory

NEW_PASSWORD = "lentejas-con-chorizo-2026"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def page(chromium, live_server):
    return browser_page(chromium, live_server, locale="es-ES")


def _screenshot(page, name: str) -> None:
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


def _log_in(page, email: str) -> None:
    page.get_by_label("Correo electrónico:", exact=True).fill(email)
    page.get_by_label("Contraseña:", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()


def test_it_signs_up_in_the_browser(page):
    page.goto("/")
    page.get_by_role("link", name="Crear cuenta").click()
    expect(page.get_by_role("heading", name="Crear cuenta")).to_be_visible()
    _screenshot(page, "signup")

    page.get_by_label("Correo electrónico:", exact=True).fill("Marta@Example.com")
    page.get_by_label("Nombre (opcional):", exact=True).fill("Marta")
    page.get_by_label("Contraseña:", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Repite la contraseña:", exact=True).fill(NEW_PASSWORD)
    page.get_by_role("button", name="Crear cuenta").click()

    expect(page.get_by_role("heading", name="Revisa tu correo")).to_be_visible()
    expect(page.get_by_role("link", name="Iniciar sesión")).to_be_visible()
    _screenshot(page, "signup-sent")
    (message,) = mail.outbox
    assert message.to == ["marta@example.com"]
    link = re.search(r"http://testserver(/accounts/signup/confirm/\S+)", message.body).group(1)
    page.goto(link)
    expect(page.get_by_text("marta@example.com")).to_be_visible()
    _screenshot(page, "signup-confirm")
    page.get_by_role("button", name="Confirmar y entrar").click()

    expect(page.get_by_role("heading", name="Tokens de API", exact=True)).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Tu correo está confirmado")
    expect(page.get_by_role("button", name="Cerrar sesión")).to_be_visible()
    _screenshot(page, "signup-done")
    assert User.objects.get().is_active


def test_it_shows_signup_errors_next_to_their_field(page):
    page.goto("/accounts/signup/")
    page.get_by_label("Correo electrónico:", exact=True).fill("marta@example.com")
    page.get_by_label("Contraseña:", exact=True).fill("abc")
    page.get_by_label("Repite la contraseña:", exact=True).fill("abc")
    page.get_by_role("button", name="Crear cuenta").click()

    password = page.get_by_label("Contraseña:", exact=True)
    expect(password).to_have_attribute("aria-invalid", "true")
    expect(password).to_have_accessible_description(re.compile("La contraseña es demasiado corta"))
    _screenshot(page, "signup-errors")
    assert not User.objects.exists()


def test_it_logs_in_and_out_in_the_browser(page):
    UserFactory(email="ana@example.com")
    page.goto("/")
    page.get_by_role("link", name="Iniciar sesión").click()
    _screenshot(page, "login")

    _log_in(page, "ANA@example.com")

    expect(page).to_have_url(re.compile(r"/account/tokens$"))
    expect(page.get_by_role("heading", name="Tokens de API", exact=True)).to_be_visible()
    page.get_by_role("button", name="Cerrar sesión").click()
    expect(page.get_by_role("link", name="Iniciar sesión")).to_be_visible()
    _screenshot(page, "logged-out")


def test_it_creates_a_token_shows_it_once_and_revokes_it(page):
    user = UserFactory(email="ana@example.com")
    page.goto("/account/tokens")
    _log_in(page, user.email)
    _screenshot(page, "tokens-empty")

    page.get_by_label("Nombre:", exact=True).fill("Portátil")
    page.get_by_label("read:logos · Ver logos").check()
    page.get_by_label("read:palettes · Ver paletas").check()
    page.get_by_label("Origen:", exact=True).select_option(label="Servidor MCP")
    page.get_by_label("Caducidad:", exact=True).select_option(label="30 días")
    page.get_by_role("button", name="Crear token").click()

    secret = page.get_by_label("Token", exact=True).input_value()
    _screenshot(page, "token-created")
    token = ApiToken.objects.get()
    assert token.digest == token_digest(secret)
    assert token.source == Source.MCP
    assert token.scopes == ["read:logos", "read:palettes"]

    page.goto("/account/tokens")
    assert secret not in page.content()
    expect(page.get_by_role("cell", name=f"{token.prefix}…")).to_be_visible()

    page.get_by_role("button", name="Revocar el token Portátil").click()

    expect(page.get_by_role("status")).to_contain_text("Token «Portátil» revocado")
    expect(page.get_by_role("button", name="Revocar el token Portátil")).to_have_count(0)
    _screenshot(page, "token-revoked")
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_it_approves_a_device_code_after_logging_in(page):
    user = UserFactory(email="ana@example.com")
    device_code = device_code_start(source=Source.FIGMA, client_name="Figma de Ana").device_code

    # The plugin opens verificationUriComplete; the person is not logged in yet.
    page.goto(f"/device?code={device_code.display_user_code}")
    expect(page.get_by_role("heading", name="Iniciar sesión")).to_be_visible()
    _log_in(page, user.email)

    expect(page.get_by_role("heading", name="¿Das acceso a tu cuenta?")).to_be_visible()
    expect(page.get_by_label("Código:", exact=True)).to_have_value(device_code.display_user_code)
    expect(page.get_by_text("Figma de Ana")).to_be_visible()
    expect(page.get_by_text("Plugin de Figma")).to_be_visible()
    expect(page.get_by_text("write:proposals")).to_be_visible()
    _screenshot(page, "device-confirm")

    page.get_by_role("button", name="Aprobar").click()

    expect(page.get_by_role("heading", name="Acceso aprobado")).to_be_visible()
    expect(page.get_by_text("Ya puedes volver a Figma")).to_be_visible()
    _screenshot(page, "device-approved")
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.APPROVED
    assert device_code.user == user


def test_it_denies_a_device_code_typed_by_hand(page):
    user = UserFactory(email="ana@example.com")
    device_code = device_code_start(source=Source.CHROME, client_name="Chrome").device_code
    page.goto("/device")
    _log_in(page, user.email)
    _screenshot(page, "device-form")

    page.get_by_label("Código:", exact=True).fill(device_code.user_code.lower())
    page.get_by_role("button", name="Continuar").click()
    expect(page.get_by_text("Extensión de Chrome")).to_be_visible()
    page.get_by_role("button", name="Denegar").click()

    expect(page.get_by_role("heading", name="Acceso denegado")).to_be_visible()
    _screenshot(page, "device-denied")
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.DENIED
    assert device_code.user == user


def test_it_refuses_wrong_codes_after_five_in_the_browser(page):
    user = UserFactory(email="ana@example.com")
    page.goto("/device")
    _log_in(page, user.email)

    for _ in range(5):
        page.get_by_label("Código:", exact=True).fill("BBBB-BBBB")
        page.get_by_role("button", name="Continuar").click()
        expect(page.get_by_text("Este código no existe.")).to_be_visible()
    _screenshot(page, "device-wrong-code")
    page.get_by_label("Código:", exact=True).fill("CCCC-CCCC")
    with page.expect_response(lambda response: response.request.method == "POST") as answer:
        page.get_by_role("button", name="Continuar").click()

    assert answer.value.status == 429
    expect(page.get_by_role("alert")).to_contain_text("Demasiados códigos incorrectos.")
    _screenshot(page, "device-rate-limited")


def test_it_resets_a_forgotten_password_in_the_browser(page):
    UserFactory(email="ana@example.com")
    page.goto("/accounts/login/")
    page.get_by_role("link", name="¿Has olvidado tu contraseña?").click()
    page.get_by_label("Correo electrónico:", exact=True).fill("ana@example.com")
    _screenshot(page, "password-reset")
    page.get_by_role("button", name="Enviarme un enlace").click()
    expect(page.get_by_text("Si el correo que has escrito tiene una cuenta")).to_be_visible()

    (message,) = mail.outbox
    link = re.search(r"http://testserver(/accounts/password/reset/\S+)", message.body).group(1)
    page.goto(link)
    page.get_by_label("Contraseña nueva:", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Contraseña nueva (confirmación):", exact=True).fill(NEW_PASSWORD)
    _screenshot(page, "password-set")
    page.get_by_role("button", name="Guardar mi contraseña").click()
    expect(page.get_by_text("Tu contraseña nueva está guardada.")).to_be_visible()

    page.get_by_role("link", name="Iniciar sesión").last.click()
    page.get_by_label("Correo electrónico:", exact=True).fill("ana@example.com")
    page.get_by_label("Contraseña:", exact=True).fill(NEW_PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()
    expect(page.get_by_role("heading", name="Tokens de API", exact=True)).to_be_visible()
