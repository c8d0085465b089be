"""Guessing on the website is throttled: failed logins per account and per address,
sign-ups and password forms per address, device codes per address whatever the account
(accounts/throttle.py).

Counted in the Redis the test command starts, as in production.
"""

import time

import pytest
import time_machine
from django.conf import settings as django_settings
from django.core import mail
from django.test import Client

from accounts.models import Source
from accounts.services import device_code_start
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

LOCKED = "Too many failed logins for this account or from this address."


@pytest.fixture(autouse=True)
def _real_redis():
    assert django_settings.CACHES["default"]["BACKEND"] == "common.cache.SharedCache"


@pytest.fixture
def window_start():
    """Frozen at the start of an hour, so that no test straddles two windows."""
    now = int(time.time())
    with time_machine.travel(now - now % 3600 + 3600, tick=False) as traveller:
        yield traveller


def _login(email: str, password: str, address: str = "10.0.0.1"):
    client = Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/accounts/login/", {"username": email, "password": password})
    return response, client


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_it_locks_an_account_after_ten_failed_logins_even_for_the_right_password(window_start):
    person = UserFactory(email="ana@example.com")

    failures = [_login("ana@example.com", "wrong")[0].status_code for _ in range(10)]
    locked, client = _login("Ana@Example.com", PASSWORD)

    assert failures == [200] * 10
    assert locked.status_code == 429
    assert LOCKED in locked.content.decode()
    assert not _logged_in(client)
    assert person.last_login is None


def test_it_locks_an_account_whatever_address_the_guesses_come_from(window_start):
    UserFactory(email="ana@example.com")
    for n in range(10):
        _login("ana@example.com", "wrong", address=f"192.0.2.{n}")

    locked, client = _login("ana@example.com", PASSWORD, address="198.51.100.1")

    assert locked.status_code == 429
    assert not _logged_in(client)


def test_it_locks_an_address_that_guesses_across_accounts(window_start):
    UserFactory(email="ana@example.com")
    for n in range(20):
        _login(f"person{n}@example.com", "wrong", address=f"2001:db8:7::{n}")

    locked, _ = _login("ana@example.com", PASSWORD, address="2001:db8:7::99")
    elsewhere, client = _login("ana@example.com", PASSWORD, address="2001:db8:8::1")

    assert locked.status_code == 429
    assert elsewhere.status_code == 302
    assert _logged_in(client)


def test_it_answers_an_unknown_email_exactly_as_a_wrong_password(window_start):
    UserFactory(email="ana@example.com")

    known = [_login("ana@example.com", "wrong")[0] for _ in range(11)]
    unknown = [_login("nadie@example.com", "wrong", address="10.0.0.2")[0] for _ in range(11)]

    assert [r.status_code for r in known] == [r.status_code for r in unknown]
    assert known[0].context["form"].errors == unknown[0].context["form"].errors
    assert LOCKED in unknown[-1].content.decode()


def test_it_lets_the_account_in_again_when_the_window_ends(window_start):
    UserFactory(email="ana@example.com")
    for _ in range(10):
        _login("ana@example.com", "wrong")

    window_start.shift(15 * 60 + 1)
    response, client = _login("ana@example.com", PASSWORD)

    assert response.status_code == 302
    assert _logged_in(client)


def _signup(n: int, address: str = "10.0.0.1", email: str | None = None):
    return Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE="en").post(
        "/accounts/signup/",
        {"email": email or f"new{n}@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )


def test_it_limits_sign_ups_per_address(window_start):
    answers = [_signup(n) for n in range(11)]
    elsewhere = _signup(99, address="10.0.0.2")

    assert [answer.status_code for answer in answers] == [302] * 10 + [429]
    assert "Too many sign-ups from this address." in answers[-1].content.decode()
    assert elsewhere.status_code == 302
    assert len(mail.outbox) == 11  # the refused one sent nothing


def test_it_does_not_let_a_new_account_start_device_code_guessing_afresh(window_start):
    device_code_start(source=Source.CHROME)
    first = Client(REMOTE_ADDR="2001:db8:7::1")
    first.force_login(UserFactory())
    for code in ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "FFFF-FFFF", "GGGG-GGGG"]:
        assert first.post("/device", {"user_code": code}).status_code == 400

    # Another account, from another address of the same /64.
    second = Client(REMOTE_ADDR="2001:db8:7::2")
    second.force_login(UserFactory())

    assert second.post("/device", {"user_code": "HHHH-HHHH"}).status_code == 429


def test_it_throttles_the_admin_login_with_the_same_counts(window_start):
    UserFactory(email="staff@example.com", is_staff=True, is_superuser=True)
    for _ in range(10):
        Client(REMOTE_ADDR=f"192.0.2.{_}").post(
            "/admin/login/", {"username": "staff@example.com", "password": "wrong"}
        )

    admin = Client(REMOTE_ADDR="198.51.100.1")
    admin.post("/admin/login/", {"username": "staff@example.com", "password": PASSWORD})
    website, _ = _login("staff@example.com", PASSWORD, address="198.51.100.2")

    assert not _logged_in(admin)
    assert website.status_code == 429


def _reset(address: str = "10.0.0.1"):
    return Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE="en").post(
        "/accounts/password/reset/", {"email": "ana@example.com"}
    )


def test_it_limits_password_resets_per_address_with_a_message(window_start):
    UserFactory(email="ana@example.com")

    answers = [_reset() for _ in range(11)]
    elsewhere = _reset(address="10.0.0.2")

    assert [answer.status_code for answer in answers] == [302] * 10 + [429]
    assert (
        "Too many password forms from this address or for this account."
        in answers[-1].content.decode()
    )
    assert elsewhere.status_code == 302


def test_it_sends_one_email_at_most_five_mails_an_hour_and_answers_alike(window_start):
    UserFactory(email="ana@example.com")
    answers = []
    for n in range(4):
        answers.append(_reset(address=f"192.0.2.{n}"))
        answers.append(_signup(n, address=f"198.51.100.{n}", email="ana@example.com"))

    assert {(answer.status_code, answer["Location"]) for answer in answers} == {
        (302, "/accounts/password/reset/sent/"),
        (302, "/accounts/signup/sent/"),
    }
    assert [message.to for message in mail.outbox] == [["ana@example.com"]] * 5
    assert _reset(address="10.9.9.9").status_code == 302
    assert len(mail.outbox) == 5
    window_start.shift(3600)
    _reset(address="10.9.9.9")
    assert len(mail.outbox) == 6


def test_it_limits_password_changes_per_address_and_per_account(window_start):
    person = UserFactory(email="ana@example.com")
    guesses = {"old_password": "wrong", "new_password1": "x-y-z-1-2-3-4", "new_password2": "x-y-z"}

    def change(address: str, form: dict):
        client = Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(person)
        return client.post("/accounts/password/change/", form)

    answers = [change(f"192.0.2.{n}", guesses).status_code for n in range(10)]
    right = change(
        "198.51.100.1", {**guesses, "old_password": PASSWORD, "new_password2": "x-y-z-1-2-3-4"}
    )

    assert answers == [200] * 10
    assert right.status_code == 429
    assert (
        "Too many password forms from this address or for this account." in right.content.decode()
    )
    assert 'aria-invalid="true"' not in right.content.decode()  # nothing of the form was checked
    person.refresh_from_db()
    assert person.check_password(PASSWORD)
