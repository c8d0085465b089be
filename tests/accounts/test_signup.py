"""Sign-up by email confirmation: the page answers a new and a taken email alike, a mail
goes to the email either way, and nobody is logged in until the link is opened.

Mails land in Django's locmem outbox (django.core.mail.outbox), as pytest-django sets.
"""

import re
import time

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

STRONG_PASSWORD = "lentejas-con-chorizo-2026"
LINK = re.compile(r"http://testserver(/accounts/signup/confirm/[^\s]+)")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def _signup(client, email: str, *, next_url: str = "", password: str = STRONG_PASSWORD, **extra):
    path = "/accounts/signup/" + (f"?next={next_url}" if next_url else "")
    return client.post(
        path, {"email": email, "password1": password, "password2": password, **extra}
    )


def _logged_in_user_id(client) -> int | None:
    user_id = client.session.get("_auth_user_id")
    return int(user_id) if user_id else None


def _link(message) -> str:
    """The path of the sign-up link in a mail."""
    return LINK.search(message.body).group(1)


def _confirm(client, path: str):
    page = client.get(path)
    assert page.status_code == 200, page.content.decode()
    return client.post(path, {"next": page.context["next"]} if page.context["next"] else {})


def _page_without_tokens(response) -> str:
    return CSRF.sub("", response.content.decode())


def test_it_answers_a_new_and_a_taken_email_alike(client):
    UserFactory(email="ana@example.com")
    new_visitor, other_visitor = Client(), Client()

    new = _signup(new_visitor, "marta@example.com")
    taken = _signup(other_visitor, "ANA@example.com")

    assert (new.status_code, new["Location"]) == (302, "/accounts/signup/sent/")
    assert (taken.status_code, taken["Location"]) == (new.status_code, new["Location"])
    new_page, taken_page = new_visitor.get(new["Location"]), other_visitor.get(taken["Location"])
    assert new_page.status_code == taken_page.status_code == 200
    assert _page_without_tokens(new_page) == _page_without_tokens(taken_page)
    assert "Revisa tu correo" in new_page.content.decode()


def test_it_mails_a_link_to_a_new_email_and_a_note_to_a_taken_ones_owner(client):
    owner = UserFactory(email="ana@example.com")

    _signup(Client(), "Marta.Ruiz@Example.COM", first_name="Marta")
    _signup(Client(), "ana@example.com", password="otra-contraseña-larga-9")

    to_new, to_owner = mail.outbox
    assert to_new.to == ["marta.ruiz@example.com"]
    assert LINK.search(to_new.body)
    assert to_owner.to == ["ana@example.com"]
    assert "ya tiene una cuenta" in to_owner.body
    assert "http://testserver/accounts/login/" in to_owner.body
    assert "http://testserver/accounts/password/reset/" in to_owner.body
    assert not LINK.search(to_owner.body)
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)
    assert User.objects.count() == 2


def test_it_logs_nobody_in_until_the_link_is_opened(client):
    _signup(client, "Marta.Ruiz@Example.COM", first_name="Marta")

    user = User.objects.get()
    assert (user.email, user.first_name) == ("marta.ruiz@example.com", "Marta")
    assert not user.is_active
    assert user.check_password(STRONG_PASSWORD)
    assert _logged_in_user_id(client) is None
    login = client.post(
        "/accounts/login/", {"username": "marta.ruiz@example.com", "password": STRONG_PASSWORD}
    )
    assert login.status_code == 200
    assert _logged_in_user_id(client) is None

    link = _link(mail.outbox[0])
    opened = client.get(link)
    assert "Confirmar y entrar" in opened.content.decode()
    assert _logged_in_user_id(client) is None

    confirmed = client.post(link)

    user.refresh_from_db()
    assert user.is_active
    assert (confirmed.status_code, confirmed["Location"]) == (302, "/account/tokens")
    assert _logged_in_user_id(client) == user.pk
    assert "Tu correo está confirmado" in client.get("/account/tokens").content.decode()


def test_it_writes_the_mail_in_the_visitors_language():
    _signup(Client(HTTP_ACCEPT_LANGUAGE="en"), "marta@example.com")
    _signup(Client(HTTP_ACCEPT_LANGUAGE="es"), "lucia@example.com")

    english, spanish = mail.outbox
    assert english.subject == "Confirm your email for the Logo directory"
    assert "open this link and confirm" in english.body
    assert spanish.subject == "Confirma tu correo en el Directorio de logos"


def _tampered(path: str) -> str:
    token_end = path.rstrip("/")[-1]
    return path.rstrip("/")[:-1] + ("a" if token_end != "a" else "b") + "/"


@pytest.mark.parametrize(
    "spoil",
    ["tampered", "another account's", "expired", "used", "not a number", "superseded"],
)
def test_it_refuses_a_link_that_was_changed_used_or_is_too_old(client, spoil):
    _signup(Client(), "marta@example.com")
    link = _link(mail.outbox[-1])
    later = time.time()
    if spoil == "tampered":
        link = _tampered(link)
    elif spoil == "another account's":
        _signup(Client(), "lucia@example.com")
        marta_uid, lucia_token = link.split("/")[4], _link(mail.outbox[-1]).split("/")[5]
        link = f"/accounts/signup/confirm/{marta_uid}/{lucia_token}/"
    elif spoil == "expired":
        later += 3 * 24 * 3600 + 1
    elif spoil == "used":
        _confirm(Client(), link)
    elif spoil == "not a number":
        link = link.replace(link.split("/")[4], "bm9wZQ")
    elif spoil == "superseded":  # signed up again: only the latest link works
        _signup(Client(), "marta@example.com", password="otra-contraseña-larga-9")

    with time_machine.travel(later):
        opened = client.get(link)
        sent = client.post(link)

    for response in (opened, sent):
        assert response.status_code == 400
        assert "Este enlace no sirve" in response.content.decode()
    assert _logged_in_user_id(client) is None
    assert User.objects.filter(is_active=True).count() == (1 if spoil == "used" else 0)


def test_it_lets_the_latest_sign_up_of_a_pending_email_choose_its_password(client):
    _signup(Client(), "marta@example.com", password="primera-contraseña-larga-1")
    _signup(Client(), "marta@example.com", password="segunda-contraseña-larga-2")

    _confirm(client, _link(mail.outbox[-1]))

    user = User.objects.get()
    assert user.is_active
    assert user.check_password("segunda-contraseña-larga-2")


def test_it_does_not_let_a_link_reactivate_an_account_staff_deactivated(client):
    _signup(Client(), "marta@example.com")
    link = _link(mail.outbox[-1])
    user = User.objects.get()
    user.is_active, user.last_login = False, timezone.now()  # confirmed, used, then disabled
    user.save()

    assert client.post(link).status_code == 400
    assert not User.objects.get().is_active


def test_it_carries_next_from_login_to_sign_up_and_through_the_link(client):
    login_page = client.get("/accounts/login/?next=/device%3Fcode%3DWDJB-MJHT").content.decode()
    assert 'href="/accounts/signup/?next=/device%3Fcode%3DWDJB-MJHT"' in login_page

    _signup(client, "new@example.com", next_url="/device%3Fcode%3DWDJB-MJHT")

    assert _confirm(client, _link(mail.outbox[0]))["Location"] == "/device?code=WDJB-MJHT"


def test_it_never_sends_a_new_user_to_another_site(client):
    _signup(client, "new@example.com", next_url="https://evil.example/")
    link = _link(mail.outbox[0])

    assert "evil" not in link
    assert client.post(link + "?next=https://evil.example/")["Location"] == "/account/tokens"
