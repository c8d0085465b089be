"""An account holds at most MAX_LIVE_TOKENS tokens in use, however it makes them."""

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts.models import ApiToken, Source
from accounts.services import (
    MAX_LIVE_TOKENS,
    DeviceFlowError,
    TokenLimitReached,
    device_code_exchange,
    device_code_start,
    token_issue,
    token_revoke,
)
from tests.factories import UserFactory, token_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_account():
    person = UserFactory(email="ana@example.com")
    for n in range(MAX_LIVE_TOKENS):
        token_for(person, name=f"Token {n}")
    return person


def test_it_refuses_a_token_past_the_limit_and_counts_only_tokens_in_use(full_account):
    with pytest.raises(TokenLimitReached):
        token_issue(user=full_account, name="One more", scopes=["read:logos"])

    first, second = ApiToken.objects.filter(user=full_account).order_by("pk")[:2]
    token_revoke(token=first)
    ApiToken.objects.filter(pk=second.pk).update(expires_at=timezone.now() - timedelta(days=1))

    token_issue(user=full_account, name="In place of the revoked", scopes=["read:logos"])
    token_issue(user=full_account, name="In place of the expired", scopes=["read:logos"])
    with pytest.raises(TokenLimitReached):
        token_issue(user=full_account, name="One more", scopes=["read:logos"])


def test_it_says_so_on_the_tokens_page(client, full_account):
    client.force_login(full_account)

    response = client.post(
        "/account/tokens",
        {"name": "One more", "scopes": ["read:logos"], "source": "API", "expires_in_days": ""},
        HTTP_ACCEPT_LANGUAGE="en",
    )

    assert response.status_code == 200
    assert f"Your account has {MAX_LIVE_TOKENS} tokens in use." in response.content.decode()
    assert ApiToken.objects.filter(user=full_account).count() == MAX_LIVE_TOKENS


def test_it_does_not_approve_a_device_for_a_full_account(client, full_account):
    started = device_code_start(source=Source.FIGMA)
    client.force_login(full_account)

    response = client.post(
        "/device",
        {"user_code": started.device_code.user_code, "action": "approve"},
        HTTP_ACCEPT_LANGUAGE="en",
    )

    assert response.status_code == 409
    assert f"Your account has {MAX_LIVE_TOKENS} tokens in use." in response.content.decode()


def test_it_denies_a_device_approved_just_before_the_account_filled_up(client):
    person = UserFactory()
    started = device_code_start(source=Source.FIGMA)
    client.force_login(person)
    client.post("/device", {"user_code": started.device_code.user_code, "action": "approve"})
    for n in range(MAX_LIVE_TOKENS):
        token_for(person, name=f"Token {n}")

    with pytest.raises(DeviceFlowError, match="tokens in use") as refused:
        device_code_exchange(secret=started.secret)

    assert refused.value.error == "access_denied"
    assert not ApiToken.objects.filter(user=person, source=Source.FIGMA).exists()


def test_it_refuses_the_command_past_the_limit(full_account):
    with pytest.raises(CommandError, match="tokens in use already: revoke one first"):
        call_command(
            "issue_token", "ana@example.com", "--scopes", "read:logos", stdout=io.StringIO()
        )
