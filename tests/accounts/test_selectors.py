"""The hand-written token lookup loads exactly what the ORM would."""

from datetime import timedelta

import pytest
from django.forms.models import model_to_dict
from django.utils import timezone

from accounts.models import ApiToken, Plan, Source, User
from accounts.selectors import token_for_secret
from accounts.tokens import token_generate
from tests.factories import UserFactory, token_for

pytestmark = pytest.mark.django_db


def test_it_loads_the_token_and_its_user_field_for_field():
    user = UserFactory(first_name="Lucía", plan=Plan.ENTERPRISE, is_staff=True, is_active=True)
    secret = token_for(
        user, source=Source.MCP, expires_at=timezone.now() + timedelta(days=3), name="agent"
    )
    ApiToken.objects.update(last_used_at=timezone.now(), revoked_at=timezone.now())

    token = token_for_secret(secret)

    expected = ApiToken.objects.get()
    assert model_to_dict(token) == model_to_dict(expected)
    assert (token.created_at, token.revoked_at, token.last_used_at) == (
        expected.created_at,
        expected.revoked_at,
        expected.last_used_at,
    )
    loaded = {name: getattr(token.user, name) for name in ("id", "public_id", "email")}
    assert loaded == {"id": user.id, "public_id": user.public_id, "email": user.email}
    assert (token.user.first_name, token.user.plan) == ("Lucía", Plan.ENTERPRISE)
    assert (token.user.is_active, token.user.is_staff) == (True, True)
    assert token.user == User.objects.get()


def test_it_tells_an_inactive_user():
    user = UserFactory(is_active=False)

    assert token_for_secret(token_for(user)).user.is_active is False


def test_it_finds_nothing_for_an_unknown_token():
    assert token_for_secret(token_generate()) is None
