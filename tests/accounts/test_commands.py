"""Operator commands: issue_token, set_password, prune_device_codes."""

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts.models import ApiToken, DeviceCode, Plan, User
from accounts.services import device_code_start
from accounts.tokens import token_digest, token_well_formed
from tests.factories import PASSWORD, UserFactory, bearer

pytestmark = pytest.mark.django_db


def issue_token(*args) -> str:
    out = io.StringIO()
    call_command("issue_token", *args, stdout=out)
    return out.getvalue()


def test_it_prints_the_new_token_alone(api):
    out = issue_token("ops@example.com", "--scopes", "read:logos,write:palettes")

    secret = out.strip()
    assert out == secret + "\n"
    assert token_well_formed(secret)
    token = ApiToken.objects.get()
    assert token.digest == token_digest(secret)
    assert token.scopes == ["read:logos", "write:palettes"]
    assert (token.source, token.expires_at) == ("API", None)
    assert api.get("/v1/public/me", **bearer(secret)).json()["authenticated"] is True


def test_it_creates_the_user_without_a_usable_password():
    issue_token("New.Person@Example.com", "--scopes", "read:logos")

    user = User.objects.get()
    assert user.email == "new.person@example.com"
    assert not user.has_usable_password()
    assert user.plan == Plan.FREE


def test_it_uses_an_existing_user_and_sets_the_plan_when_given():
    user = UserFactory(email="lucia@example.com")

    issue_token("lucia@example.com", "--scopes", "read:logos", "--plan", "PRO")

    user.refresh_from_db()
    assert user.plan == Plan.PRO
    assert user.check_password(PASSWORD)
    assert ApiToken.objects.get().user == user


def test_it_records_source_name_and_expiry():
    before = timezone.now()

    issue_token(
        "a@example.com",
        "--scopes",
        "write:proposals",
        "--source",
        "MCP",
        "--name",
        "Agent",
        "--expires-in-days",
        "30",
    )

    token = ApiToken.objects.get()
    assert (token.source, token.name) == ("MCP", "Agent")
    assert before + timedelta(days=30) <= token.expires_at <= timezone.now() + timedelta(days=30)


def test_it_makes_an_already_expired_token_for_drills(api):
    secret = issue_token("a@example.com", "--scopes", "read:logos", "--expires-in-days", "0")

    response = api.get("/v1/public/me", **bearer(secret.strip()))

    assert response.status_code == 401
    assert response.json()["error"] == "INVALID_TOKEN"


@pytest.mark.parametrize(
    "args",
    [
        ["a@example.com", "--scopes", "read:everything"],
        ["a@example.com", "--scopes", ""],
        ["not-an-email", "--scopes", "read:logos"],
        ["a@example.com", "--scopes", "read:logos", "--expires-in-days", "-1"],
    ],
)
def test_it_refuses_bad_arguments_and_creates_nothing(args):
    with pytest.raises(CommandError):
        issue_token(*args)

    assert not User.objects.exists()
    assert not ApiToken.objects.exists()


def test_it_sets_a_password_read_from_stdin(monkeypatch):
    user = UserFactory(email="lucia@example.com")
    monkeypatch.setattr("sys.stdin", io.StringIO("a brand new passphrase\n"))
    out = io.StringIO()

    call_command("set_password", "Lucia@Example.com", stdout=out)

    user.refresh_from_db()
    assert user.check_password("a brand new passphrase")
    assert out.getvalue() == "password set for lucia@example.com\n"


@pytest.mark.parametrize(
    ("email", "stdin"),
    [
        ("nobody@example.com", "long enough pw"),
        ("lucia@example.com", "\n"),
        ("lucia@example.com", "123\n"),
    ],
)
def test_it_refuses_an_unknown_user_or_a_weak_password(monkeypatch, email, stdin):
    user = UserFactory(email="lucia@example.com")
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))

    with pytest.raises(CommandError):
        call_command("set_password", email)

    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_it_prunes_device_codes_long_expired():
    old = device_code_start(source="FIGMA").device_code
    DeviceCode.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(days=8))
    recent = device_code_start(source="CHROME").device_code
    out = io.StringIO()

    call_command("prune_device_codes", stdout=out)

    assert list(DeviceCode.objects.all()) == [recent]
    assert out.getvalue() == "deleted 1 expired device codes\n"


def test_it_makes_a_staff_account_without_a_terminal_from_the_environment(monkeypatch):
    """The non-interactive form README gives: Django's createsuperuser --noinput."""
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "staff@example.com")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a long passphrase")

    call_command("createsuperuser", "--noinput", stdout=io.StringIO())

    user = User.objects.get(email="staff@example.com")
    assert user.is_staff and user.is_superuser and user.check_password("a long passphrase")
