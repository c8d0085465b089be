"""The back office for people, tokens and device codes."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken, DeviceCode, DeviceCodeStatus
from accounts.services import device_code_start, token_issue
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _token(user, name="Figma", scopes=("read:logos",)):
    return token_issue(user=user, name=name, scopes=list(scopes))


def test_it_lists_a_users_tokens_on_their_page_without_the_hash(admin_client):
    user = UserFactory()
    issued = _token(user, name="Chrome at home")

    response = admin_client.get(reverse("admin:accounts_user_change", args=[user.pk]))

    page = response.content.decode()
    assert response.status_code == 200
    assert "Chrome at home" in page
    assert issued.token.prefix in page
    assert issued.token.digest not in page
    assert issued.secret not in page


def test_it_finds_tokens_by_prefix_by_whole_token_and_by_user(admin_client):
    lucia, pedro = UserFactory(email="lucia@example.com"), UserFactory(email="pedro@example.com")
    found = _token(lucia)
    _token(pedro)
    changelist = reverse("admin:accounts_apitoken_changelist")

    by_prefix = admin_client.get(changelist, {"q": found.token.prefix}).context["cl"].queryset
    by_token = admin_client.get(changelist, {"q": found.secret}).context["cl"].queryset
    by_user = admin_client.get(changelist, {"q": "lucia@"}).context["cl"].queryset

    assert list(by_prefix) == list(by_token) == list(by_user) == [found.token]


def test_it_never_shows_the_hash_on_a_tokens_page(admin_client):
    issued = _token(UserFactory())

    response = admin_client.get(reverse("admin:accounts_apitoken_change", args=[issued.token.pk]))

    assert response.status_code == 200
    assert issued.token.digest not in response.content.decode()


def test_it_does_not_make_tokens_in_the_admin(admin_client):
    response = admin_client.get(reverse("admin:accounts_apitoken_add"))

    assert response.status_code == 403


def test_it_revokes_the_selected_tokens(admin_client):
    user = UserFactory()
    chosen, kept = _token(user, "chosen").token, _token(user, "kept").token

    admin_client.post(
        reverse("admin:accounts_apitoken_changelist"),
        {"action": "revoke", "_selected_action": [chosen.pk]},
    )

    assert ApiToken.objects.get(pk=chosen.pk).revoked_at is not None
    assert ApiToken.objects.get(pk=kept.pk).revoked_at is None


def test_it_marks_expired_device_codes(admin_client):
    live = device_code_start(source="FIGMA").device_code
    old = device_code_start(source="CHROME").device_code
    DeviceCode.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(minutes=1))

    response = admin_client.get(reverse("admin:accounts_devicecode_changelist"))

    rows = {row.pk: row for row in response.context["cl"].result_list}
    admin = response.context["cl"].model_admin
    assert admin.expired(rows[old.pk]) is True
    assert admin.expired(rows[live.pk]) is False
    assert live.display_user_code in response.content.decode()


def test_it_finds_a_device_code_as_the_person_reads_it(admin_client):
    code = device_code_start(source="FIGMA").device_code

    response = admin_client.get(
        reverse("admin:accounts_devicecode_changelist"), {"q": code.display_user_code}
    )

    assert list(response.context["cl"].queryset) == [code]


def test_it_approves_a_code_for_the_user_support_set(admin_client):
    user = UserFactory()
    named = device_code_start(source="FIGMA").device_code
    DeviceCode.objects.filter(pk=named.pk).update(user=user)
    unnamed = device_code_start(source="CHROME").device_code

    admin_client.post(
        reverse("admin:accounts_devicecode_changelist"),
        {"action": "approve", "_selected_action": [named.pk, unnamed.pk]},
    )

    named.refresh_from_db()
    unnamed.refresh_from_db()
    assert (named.status, named.user) == (DeviceCodeStatus.APPROVED, user)
    assert unnamed.status == DeviceCodeStatus.PENDING


def test_it_denies_a_code_on_behalf_of_support(admin_client, admin_user):
    code = device_code_start(source="FIGMA").device_code

    admin_client.post(
        reverse("admin:accounts_devicecode_changelist"),
        {"action": "deny", "_selected_action": [code.pk]},
    )

    code.refresh_from_db()
    assert (code.status, code.user) == (DeviceCodeStatus.DENIED, admin_user)
    assert code.decided_at is not None


def test_it_opens_the_pages_of_pending_and_decided_codes(admin_client, admin_user):
    pending = device_code_start(source="FIGMA").device_code
    decided = device_code_start(source="CHROME").device_code
    DeviceCode.objects.filter(pk=decided.pk).update(
        status=DeviceCodeStatus.DENIED, user=admin_user, decided_at=timezone.now()
    )

    for code in (pending, decided):
        url = reverse("admin:accounts_devicecode_change", args=[code.pk])
        assert admin_client.get(url).status_code == 200
