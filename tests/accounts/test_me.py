"""GET /me: who the token belongs to, or that the request is anonymous."""

from datetime import UTC, datetime

import pytest

from accounts.models import Plan, Scope, Source
from tests.factories import UserFactory, bearer, token_for

pytestmark = pytest.mark.django_db


def test_it_says_an_anonymous_request_is_anonymous(api, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = api.get("/v1/public/me")

    assert response.status_code == 200
    assert response.json() == {"authenticated": False}


def test_it_describes_the_user_and_the_token(api):
    user = UserFactory(first_name="Lucía", plan=Plan.PRO)
    secret = token_for(
        user,
        name="Figma at work",
        scopes=[Scope.WRITE_PALETTES, Scope.READ_LOGOS],
        source=Source.FIGMA,
        expires_at=datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC),
    )

    response = api.get("/v1/public/me", **bearer(secret))

    assert response.status_code == 200
    assert response.json() == {
        "authenticated": True,
        "user": {"id": str(user.public_id), "firstName": "Lucía", "plan": "PRO"},
        "token": {
            "name": "Figma at work",
            "prefix": secret[:12],
            "scopes": ["read:logos", "write:palettes"],
            "source": "FIGMA",
            "expiresAt": "2030-01-02T03:04:05.000Z",
        },
    }


def test_it_shows_a_missing_first_name_and_expiry_as_null(api):
    secret = token_for(UserFactory(first_name=None))

    body = api.get("/v1/public/me", **bearer(secret)).json()

    assert body["user"]["firstName"] is None
    assert body["token"]["expiresAt"] is None


def test_it_is_never_stored_by_shared_caches(api):
    response = api.get("/v1/public/me", **bearer(token_for()))

    assert response["Cache-Control"] == "private, no-cache"
