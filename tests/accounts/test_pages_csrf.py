"""An account form sent without its CSRF token, or with a forged one: the same page
comes back with status 403 and an error in the visitor's language that says to send it
again, nothing is done (no account, no session, no token, no login failure counted) and
a password is never sent back (website/csrf.py)."""

import time

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import ApiToken, DeviceCodeStatus, Source
from accounts.services import device_code_start, token_issue
from tests.csrf import FORGED, REFUSALS, refusal_page
from tests.csrf import post_with as _post
from tests.csrf import token_of as _token_of
from tests.csrf import visitor_of as _visitor
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-and-longer-passphrase-9"


@pytest.fixture(params=REFUSALS)
def refused(request):
    """How the form is refused (no token, a forged one) and the visitor's language."""
    return request.param


@pytest.fixture
def window_start():
    """Frozen at the start of an hour, so that no test straddles two throttle windows."""
    now = int(time.time())
    with time_machine.travel(now - now % 3600 + 3600, tick=False) as traveller:
        yield traveller


def _refusal(response, language: str) -> str:
    page = refusal_page(response, language)
    assert PASSWORD not in page and NEW_PASSWORD not in page
    return page


def _logged_in(visitor: Client) -> bool:
    return "_auth_user_id" in visitor.session


def test_it_shows_the_login_page_again_and_logs_nobody_in(refused):
    token, language = refused
    UserFactory(email="ana@example.com")
    visitor = _visitor(language)

    data = {"username": "ana@example.com", "password": PASSWORD}
    response = _post(visitor, "/accounts/login/", data, token)

    page = _refusal(response, language)
    assert 'value="ana@example.com"' in page
    assert not _logged_in(visitor)


def test_it_counts_no_failed_login_for_a_refused_login(window_start):
    UserFactory(email="ana@example.com")
    visitor = _visitor("en")
    wrong = {"username": "ana@example.com", "password": "wrong"}
    for _ in range(10):  # the account's limit of failed logins (accounts/throttle.py)
        page = _refusal(_post(visitor, "/accounts/login/", wrong, FORGED), "en")

    right = {"username": "ana@example.com", "password": PASSWORD}
    again = _post(visitor, "/accounts/login/", right, _token_of(page))

    assert again.status_code == 302
    assert _logged_in(visitor)


def test_it_shows_the_signup_page_again_and_makes_no_account(refused):
    token, language = refused
    visitor = _visitor(language)
    data = {"email": "eva@example.com", "first_name": "Eva", "password1": PASSWORD}

    response = _post(visitor, "/accounts/signup/", {**data, "password2": PASSWORD}, token)

    page = _refusal(response, language)
    assert 'value="eva@example.com"' in page and 'value="Eva"' in page
    assert not get_user_model().objects.filter(email="eva@example.com").exists()


def test_it_signs_up_when_the_refused_form_is_sent_again():
    visitor = _visitor("en")
    data = {"email": "eva@example.com", "first_name": "Eva", "password1": PASSWORD}
    data["password2"] = PASSWORD
    page = _refusal(_post(visitor, "/accounts/signup/", data, None), "en")

    again = _post(visitor, "/accounts/signup/", data, _token_of(page))

    assert again.status_code == 302
    assert get_user_model().objects.filter(email="eva@example.com").exists()


def test_it_keeps_what_was_typed_into_a_refused_new_token_and_makes_none(refused, person):
    token, language = refused
    visitor = _visitor(language, person)
    data = {"name": "Laptop", "scopes": ["read:logos", "read:palettes"], "source": Source.API}

    response = _post(visitor, "/account/tokens", {**data, "expires_in_days": "30"}, token)

    page = _refusal(response, language)
    assert 'value="Laptop"' in page
    assert not ApiToken.objects.exists()


def test_it_makes_the_refused_token_when_it_is_sent_again(person):
    visitor = _visitor("en", person)
    data = {
        "name": "Laptop",
        "scopes": ["read:logos"],
        "source": Source.API,
        "expires_in_days": "30",
    }
    page = _refusal(_post(visitor, "/account/tokens", data, FORGED), "en")

    again = _post(visitor, "/account/tokens", data, _token_of(page))

    assert again.status_code == 200
    assert ApiToken.objects.get().name == "Laptop"


def test_it_revokes_no_token_for_a_refused_revoke(refused, person):
    token, language = refused
    issued = token_issue(user=person, name="Laptop", scopes=["read:logos"], source=Source.API)
    visitor = _visitor(language, person)

    response = _post(visitor, f"/account/tokens/{issued.token.pk}/revoke", {}, token)

    _refusal(response, language)
    issued.token.refresh_from_db()
    assert issued.token.revoked_at is None


def test_it_revokes_the_token_when_the_refused_revoke_is_sent_again(person):
    issued = token_issue(user=person, name="Laptop", scopes=["read:logos"], source=Source.API)
    visitor = _visitor("en", person)
    path = f"/account/tokens/{issued.token.pk}/revoke"
    page = _refusal(_post(visitor, path, {}, None), "en")

    again = _post(visitor, path, {}, _token_of(page))

    assert again.status_code == 302
    issued.token.refresh_from_db()
    assert issued.token.revoked_at is not None


def test_it_approves_no_device_for_a_refused_confirmation(refused, person):
    token, language = refused
    started = device_code_start(source=Source.FIGMA).device_code
    visitor = _visitor(language, person)
    data = {"user_code": started.user_code, "action": "approve"}

    response = _post(visitor, "/device", data, token)

    page = _refusal(response, language)
    assert started.user_code not in page  # typed again, from the plugin
    started.refresh_from_db()
    assert started.status == DeviceCodeStatus.PENDING


def test_it_approves_the_device_when_the_refused_confirmation_is_sent_again(person):
    started = device_code_start(source=Source.FIGMA).device_code
    visitor = _visitor("en", person)
    data = {"user_code": started.user_code, "action": "approve"}
    page = _refusal(_post(visitor, "/device", data, FORGED), "en")

    again = _post(visitor, "/device", data, _token_of(page))

    assert again.status_code == 200
    started.refresh_from_db()
    assert started.status == DeviceCodeStatus.APPROVED


def _change(password: str) -> dict:
    return {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}


def test_it_keeps_the_password_for_a_refused_change(refused, person):
    token, language = refused
    visitor = _visitor(language, person)

    response = _post(visitor, "/accounts/password/change/", _change(PASSWORD), token)

    _refusal(response, language)
    person.refresh_from_db()
    assert person.check_password(PASSWORD)


def test_it_changes_the_password_when_the_refused_change_is_sent_again(person):
    visitor = _visitor("en", person)
    path = "/accounts/password/change/"
    page = _refusal(_post(visitor, path, _change(PASSWORD), FORGED), "en")

    again = _post(visitor, path, _change(PASSWORD), _token_of(page))

    assert again.status_code == 302
    person.refresh_from_db()
    assert person.check_password(NEW_PASSWORD)


def test_it_sends_no_reset_link_for_a_refused_reset(refused, mailoutbox):
    token, language = refused
    UserFactory(email="ana@example.com")
    visitor = _visitor(language)

    response = _post(visitor, "/accounts/password/reset/", {"email": "ana@example.com"}, token)

    page = _refusal(response, language)
    assert 'value="ana@example.com"' in page
    assert mailoutbox == []


def _set_password_page(user) -> str:
    """Where the reset link leads, once Django has moved its token into the session."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return f"/accounts/password/reset/{uid}/{default_token_generator.make_token(user)}/"


def test_it_keeps_the_password_for_a_refused_new_one(refused, person):
    token, language = refused
    visitor = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    form_path = visitor.get(_set_password_page(person))["Location"]
    visitor.get(form_path)
    data = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}

    response = _post(visitor, form_path, data, token)

    _refusal(response, language)
    person.refresh_from_db()
    assert person.check_password(PASSWORD)

    again = _post(visitor, form_path, data, _token_of(response.content.decode()))

    assert again.status_code == 302
    person.refresh_from_db()
    assert person.check_password(NEW_PASSWORD)
