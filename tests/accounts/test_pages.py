"""The account pages of the website: sign-up errors, login, API tokens and the device-link
page (the sign-up itself: test_signup.py)."""

import hashlib
import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken, DeviceCode, DeviceCodeStatus, Scope, Source, User
from accounts.services import device_code_decide, device_code_start, token_issue
from tests.factories import PASSWORD, UserFactory, token_for

pytestmark = pytest.mark.django_db

START = timezone.now().replace(microsecond=0)
SECRET = re.compile(r"lgd_[0-9A-Za-z]{42}")
STRONG_PASSWORD = "lentejas-con-chorizo-2026"


@pytest.fixture
def clock():
    """Frozen time: rate-limit windows and code expiry are about minutes, never sleeps."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def person(client):
    user = UserFactory(email="ana@example.com", first_name="Ana")
    client.force_login(user)
    return user


def _logged_in_user_id(client) -> int | None:
    user_id = client.session.get("_auth_user_id")
    return int(user_id) if user_id else None


def _figma_code(client_name: str = "Figma de Ana") -> DeviceCode:
    return device_code_start(source=Source.FIGMA, client_name=client_name).device_code


def _page(response) -> str:
    return response.content.decode()


# Sign-up, login, logout


@pytest.mark.parametrize(
    ("password1", "password2", "message"),
    [
        ("abc", "abc", "La contraseña es demasiado corta"),
        ("12345678901", "12345678901", "Esta contraseña es completamente numérica"),
        ("password123", "password123", "Esta contraseña es demasiado común"),
        (STRONG_PASSWORD, STRONG_PASSWORD + "x", "Las dos contraseñas no coinciden."),
    ],
)
def test_it_refuses_a_weak_or_mistyped_password_in_spanish(client, password1, password2, message):
    response = client.post(
        "/accounts/signup/",
        {"email": "marta@example.com", "password1": password1, "password2": password2},
    )

    assert response.status_code == 200
    assert message in _page(response)
    assert not User.objects.exists()
    assert _logged_in_user_id(client) is None


def test_it_ties_signup_errors_to_their_field(client):
    page = _page(client.post("/accounts/signup/", {"email": "marta@example.com"}))

    assert 'aria-describedby="id_password1_helptext id_password1_error"' in page
    assert '<ul class="errorlist" id="id_password1_error">' in page
    assert 'aria-invalid="true"' in page


def test_it_logs_in_with_the_email_in_any_case(client):
    user = UserFactory(email="ana@example.com")

    response = client.post(
        "/accounts/login/", {"username": "Ana@Example.com", "password": PASSWORD}
    )

    assert response.status_code == 302
    assert response["Location"] == "/account/tokens"
    assert _logged_in_user_id(client) == user.pk


def test_it_refuses_a_wrong_password_with_a_message(client):
    UserFactory(email="ana@example.com")

    response = client.post("/accounts/login/", {"username": "ana@example.com", "password": "nope"})

    assert response.status_code == 200
    assert "El correo o la contraseña no son correctos." in _page(response)
    assert _logged_in_user_id(client) is None


def test_it_logs_out_with_a_post_from_the_nav(client, person):
    assert 'action="/accounts/logout/"' in _page(client.get("/"))

    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert _logged_in_user_id(client) is None
    assert 'href="/accounts/login/"' in _page(client.get("/"))


@pytest.mark.parametrize(
    ("path", "login_url"),
    [
        ("/account/tokens", "/accounts/login/?next=/account/tokens"),
        ("/device", "/accounts/login/?next=/device"),
        ("/device?code=WDJB-MJHT", "/accounts/login/?next=/device%3Fcode%3DWDJB-MJHT"),
    ],
)
def test_it_sends_anonymous_people_to_login_and_back(client, path, login_url):
    response = client.get(path)

    assert response.status_code == 302
    assert response["Location"] == login_url


def test_it_returns_to_the_device_page_with_its_code_after_login(client):
    UserFactory(email="ana@example.com")

    response = client.post(
        "/accounts/login/",
        {"username": "ana@example.com", "password": PASSWORD, "next": "/device?code=WDJB-MJHT"},
    )

    assert response["Location"] == "/device?code=WDJB-MJHT"


# API tokens


def test_it_lists_only_the_users_own_tokens(client, person):
    token_issue(user=person, name="Portátil", scopes=[Scope.READ_LOGOS])
    token_issue(user=UserFactory(), name="Ajeno", scopes=[Scope.READ_LOGOS])

    response = client.get("/account/tokens")

    page = _page(response)
    assert response.status_code == 200
    assert "Portátil" in page
    assert "Ajeno" not in page


def test_it_shows_each_tokens_details_and_state(client, person):
    live = token_issue(
        user=person,
        name="Figma",
        scopes=[Scope.READ_LOGOS, Scope.WRITE_PALETTES],
        source=Source.FIGMA,
        expires_at=timezone.now() + timedelta(days=30),
    ).token
    revoked = token_issue(user=person, name="Viejo", scopes=[Scope.READ_LOGOS]).token
    ApiToken.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
    token_issue(
        user=person,
        name="Caducado",
        scopes=[Scope.READ_LOGOS],
        expires_at=timezone.now() - timedelta(days=1),
    )

    page = _page(client.get("/account/tokens"))

    assert f"<code>{live.prefix}…</code>" in page
    assert "<code>read:logos</code>, <code>write:palettes</code>" in page
    assert "Plugin de Figma" in page
    assert "Nunca" in page
    assert "Revocado el" in page
    assert "Caducado</td>" in page
    # Only the live token can be revoked.
    assert page.count('action="/account/tokens/') == 1
    assert f'action="/account/tokens/{live.pk}/revoke"' in page


def test_it_shows_a_new_token_once_and_stores_only_its_digest(client, person, clock):
    response = client.post(
        "/account/tokens",
        {
            "name": "Integración CI",
            "scopes": [Scope.READ_LOGOS, Scope.READ_PALETTES],
            "source": Source.MCP,
            "expires_in_days": "30",
        },
    )

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    [secret] = set(SECRET.findall(_page(response)))
    token = ApiToken.objects.get()
    assert token.user == person
    assert token.name == "Integración CI"
    assert token.scopes == [Scope.READ_LOGOS, Scope.READ_PALETTES]
    assert token.source == Source.MCP
    assert token.expires_at == START + timedelta(days=30)
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret.startswith(token.prefix)
    # Nowhere but in that one response: not in the table, the session or a cookie.
    assert secret not in str(list(ApiToken.objects.values_list()))
    assert secret not in str(dict(client.session))
    assert secret not in str(response.cookies)
    later = _page(client.get("/account/tokens"))
    assert secret not in later
    assert token.prefix in later


def test_it_creates_a_token_without_expiry(client, person):
    client.post(
        "/account/tokens", {"name": "Sin fin", "scopes": [Scope.READ_LOGOS], "source": Source.API}
    )

    assert ApiToken.objects.get().expires_at is None


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"name": "Sin permisos", "source": "API"}, "Elige al menos un permiso."),
        ({"name": "Raro", "scopes": ["admin:all"], "source": "API"}, "admin:all"),
        ({"name": "", "scopes": [Scope.READ_LOGOS], "source": "API"}, "Este campo es requerido."),
        (
            {"name": "x" * 101, "scopes": [Scope.READ_LOGOS], "source": "API"},
            "menos de 100 caracteres",
        ),
        ({"name": "Mal origen", "scopes": [Scope.READ_LOGOS], "source": "ELSE"}, "ELSE"),
        (
            {"name": "Mal plazo", "scopes": [Scope.READ_LOGOS], "expires_in_days": "7"},
            "7 no es una de las opciones",
        ),
    ],
)
def test_it_refuses_an_incomplete_token_form_and_creates_nothing(client, person, form, message):
    response = client.post("/account/tokens", form)

    assert response.status_code == 200
    assert message in _page(response)
    assert not SECRET.search(_page(response))
    assert not ApiToken.objects.exists()


def test_it_revokes_the_users_own_token(client, person, clock):
    token = token_issue(user=person, name="Portátil", scopes=[Scope.READ_LOGOS]).token

    response = client.post(f"/account/tokens/{token.pk}/revoke", follow=True)

    token.refresh_from_db()
    assert token.revoked_at == START
    assert response.redirect_chain == [("/account/tokens", 302)]
    assert "Token «Portátil» revocado" in _page(response)


def test_it_answers_404_for_another_users_token_and_leaves_it_alone(client, person):
    other = token_issue(user=UserFactory(), name="Ajeno", scopes=[Scope.READ_LOGOS]).token

    response = client.post(f"/account/tokens/{other.pk}/revoke")

    other.refresh_from_db()
    assert response.status_code == 404
    assert other.revoked_at is None


def test_it_revokes_only_with_a_post(client, person):
    token = token_issue(user=person, name="Portátil", scopes=[Scope.READ_LOGOS]).token

    assert client.get(f"/account/tokens/{token.pk}/revoke").status_code == 405
    token.refresh_from_db()
    assert token.revoked_at is None


def test_it_lets_a_revoked_token_stop_working_on_the_api(client, person, api):
    secret = token_for(person, scopes=[Scope.READ_LOGOS])
    token = ApiToken.objects.get()

    client.post(f"/account/tokens/{token.pk}/revoke")

    response = api.get("/v1/public/me", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 401


# Device link


def test_it_shows_the_input_form_without_a_code(client, person):
    response = client.get("/device")

    page = _page(response)
    assert response.status_code == 200
    assert '<input type="text" name="user_code"' in page
    assert '<label for="id_user_code">' in page
    assert 'name="action"' not in page


def test_it_shows_what_a_code_asks_for_before_approving(client, person):
    device_code = _figma_code()

    response = client.get(f"/device?code={device_code.display_user_code}")

    page = _page(response)
    assert response.status_code == 200
    assert f'name="user_code" value="{device_code.display_user_code}"' in page
    assert f'<strong class="user-code">{device_code.display_user_code}</strong>' in page
    assert "Figma de Ana" in page
    assert "Plugin de Figma" in page
    for scope in Scope.values:
        assert f"<code>{scope}</code>" in page
    assert 'name="action" value="approve"' in page
    assert 'name="action" value="deny"' in page
    assert DeviceCode.objects.get().status == DeviceCodeStatus.PENDING


def test_it_escapes_the_client_name(client, person):
    device_code = _figma_code(client_name="<script>alert(1)</script>")

    page = _page(client.get(f"/device?code={device_code.display_user_code}"))

    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.parametrize(
    "written",
    [
        lambda code: code.display_user_code.lower(),
        lambda code: code.user_code.lower(),
        lambda code: f" {code.user_code[:4]} {code.user_code[4:]} ",
    ],
    ids=["lower-case-with-dash", "without-dash", "with-spaces"],
)
def test_it_accepts_the_code_in_any_case_with_or_without_the_dash(client, person, written):
    device_code = _figma_code()

    page = _page(client.get("/device", {"code": written(device_code)}))

    assert f'name="user_code" value="{device_code.display_user_code}"' in page
    assert "Figma de Ana" in page


def test_it_looks_a_typed_code_up_with_a_post(client, person):
    device_code = _figma_code()

    response = client.post("/device", {"user_code": device_code.user_code.lower()})

    assert response.status_code == 200
    assert "Figma de Ana" in _page(response)
    assert DeviceCode.objects.get().status == DeviceCodeStatus.PENDING


def test_it_approves_a_code_for_the_logged_in_user(client, person, clock):
    device_code = _figma_code()

    response = client.post(
        "/device", {"user_code": device_code.display_user_code.lower(), "action": "approve"}
    )

    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.APPROVED
    assert device_code.user == person
    assert device_code.decided_at == START
    assert response.status_code == 200
    assert "Acceso aprobado" in _page(response)
    assert "Ya puedes volver a Figma" in _page(response)


def test_it_denies_a_code_for_the_logged_in_user(client, person):
    device_code = device_code_start(source=Source.CHROME, client_name="").device_code

    response = client.post("/device", {"user_code": device_code.user_code, "action": "deny"})

    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.DENIED
    assert device_code.user == person
    assert "Acceso denegado" in _page(response)
    assert "Ya puedes volver a Chrome" in _page(response)


def test_it_says_when_a_code_has_expired(client, person, clock):
    device_code = _figma_code()
    clock.shift(timedelta(minutes=15))

    shown = client.get(f"/device?code={device_code.display_user_code}")
    decided = client.post("/device", {"user_code": device_code.user_code, "action": "approve"})

    assert "Este código ha caducado." in _page(shown)
    assert 'value="approve"' not in _page(shown)
    assert decided.status_code == 409
    assert "Este código ha caducado." in _page(decided)
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.PENDING
    assert device_code.user is None


def test_it_says_when_a_code_was_already_decided(client, person):
    device_code = _figma_code()
    someone = UserFactory()
    device_code_decide(device_code=device_code, user=someone, approve=False)

    shown = client.get(f"/device?code={device_code.display_user_code}")
    decided = client.post("/device", {"user_code": device_code.user_code, "action": "approve"})

    assert "Este código ya se ha usado" in _page(shown)
    assert decided.status_code == 409
    assert "Este código ya se ha usado" in _page(decided)
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.DENIED
    assert device_code.user == someone


def test_it_refuses_a_decision_without_the_csrf_token(person):
    device_code = _figma_code()
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(person)

    response = browser.post("/device", {"user_code": device_code.user_code, "action": "approve"})

    assert response.status_code == 403
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.PENDING
    assert device_code.user is None


def test_it_says_a_wrong_code_does_not_exist(client, person):
    response = client.get("/device?code=BBBB-BBBB")

    assert response.status_code == 400
    assert "Este código no existe." in _page(response)
    assert 'aria-describedby="id_user_code_helptext id_user_code_error"' in _page(response)


def test_it_refuses_the_sixth_wrong_code_and_then_even_the_right_one(client, person, clock):
    device_code = _figma_code()
    wrong = ["BBBB-BBBB", "bbbbcccc", "not a code", "AEIOU123", "CCCC-CCCC"]  # malformed count

    answers = [client.get("/device", {"code": code}).status_code for code in wrong]
    sixth = client.post("/device", {"user_code": "DDDD-DDDD"})
    right = client.post("/device", {"user_code": device_code.user_code, "action": "approve"})

    assert answers == [400] * 5
    assert sixth.status_code == 429
    assert "Demasiados códigos incorrectos." in _page(sixth)
    assert "espera unos" in _page(sixth)
    assert 1 <= int(sixth["Retry-After"]) <= 15 * 60
    assert right.status_code == 429
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.PENDING


def test_it_still_refuses_the_sixth_wrong_code_while_redis_is_unreachable(
    client, person, clock, redis_unreachable
):
    device_code = _figma_code()

    answers = [client.get(f"/device?code={code}").status_code for code in ["BBBBBBBB"] * 5]
    sixth = client.post("/device", {"user_code": device_code.user_code, "action": "approve"})

    # Counted in this process's memory: each process allows the whole limit.
    assert answers == [400] * 5
    assert sixth.status_code == 429
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.PENDING


def test_it_counts_only_wrong_codes(client, person, clock):
    device_code = _figma_code()

    for _ in range(6):
        assert client.get(f"/device?code={device_code.user_code}").status_code == 200
    for _ in range(4):
        client.get("/device?code=BBBB-BBBB")
    client.get("/device")
    client.post("/device", {"user_code": ""})

    response = client.post("/device", {"user_code": device_code.user_code, "action": "approve"})

    assert response.status_code == 200
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.APPROVED


def test_it_accepts_codes_again_once_the_window_has_passed(client, person, clock):
    for _ in range(5):
        client.get("/device?code=BBBB-BBBB")
    assert client.get("/device?code=BBBB-BBBB").status_code == 429

    clock.shift(timedelta(minutes=15, seconds=1))
    device_code = _figma_code()
    response = client.post("/device", {"user_code": device_code.user_code, "action": "approve"})

    assert response.status_code == 200
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.APPROVED


def test_it_limits_wrong_codes_per_address_across_users(client, person, clock):
    for _ in range(5):
        client.get("/device?code=BBBB-BBBB", REMOTE_ADDR="203.0.113.7")
    device_code = _figma_code()
    other = Client()
    other.force_login(UserFactory())

    same_address = other.post(
        "/device",
        {"user_code": device_code.user_code, "action": "approve"},
        REMOTE_ADDR="203.0.113.7",
    )
    other_address = other.get(f"/device?code={device_code.user_code}", REMOTE_ADDR="203.0.113.8")

    assert same_address.status_code == 429
    assert other_address.status_code == 200
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.PENDING


def test_it_limits_wrong_codes_per_user_across_addresses(client, person, clock):
    for number in range(5):
        client.get("/device?code=BBBB-BBBB", REMOTE_ADDR=f"203.0.113.{number}")
    device_code = _figma_code()

    response = client.post(
        "/device",
        {"user_code": device_code.user_code, "action": "approve"},
        REMOTE_ADDR="198.51.100.1",
    )

    assert response.status_code == 429
    device_code.refresh_from_db()
    assert device_code.status == DeviceCodeStatus.PENDING
