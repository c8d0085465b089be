"""Token lookups cached in Redis: no database query for a known token, and no stale answer.

Every change to a token or to what its lookup carries about the user (plan,
active flag, the user itself) reaches the next request, wherever it was made.
"""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import ApiToken, Plan
from accounts.selectors import TOKEN_TOMBSTONE, token_cache_key, token_for_digest
from accounts.services import token_forget
from accounts.tokens import token_digest
from common.cache import lookup_get
from tests.factories import UserFactory, bearer, token_for

pytestmark = pytest.mark.django_db


def _warm(api, secret: str) -> None:
    # The first call records the token's last use, which sends the next lookup to
    # the database once more; from the third on, the cache answers.
    for _ in range(2):
        assert api.get("/v1/public/me", **bearer(secret)).status_code == 200


def test_it_answers_a_known_token_without_a_database_query(api, django_assert_num_queries):
    secret = token_for(UserFactory(plan=Plan.PRO))
    _warm(api, secret)

    with django_assert_num_queries(0):
        response = api.get("/v1/public/me", **bearer(secret))

    assert response.json()["user"]["plan"] == "PRO"


def test_it_reads_an_unknown_token_from_the_database_every_time(api, django_assert_num_queries):
    secret = token_for()
    ApiToken.objects.all().delete()

    for _ in range(2):
        with django_assert_num_queries(1):
            response = api.get("/v1/public/me", **bearer(secret))
        assert response.json()["error"] == "INVALID_TOKEN"


def test_it_refuses_a_token_revoked_in_the_admin_on_the_next_request(api, admin_client):
    secret = token_for()
    _warm(api, secret)

    admin_client.post(
        reverse("admin:accounts_apitoken_changelist"),
        {"action": "revoke", "_selected_action": [ApiToken.objects.get().pk]},
    )

    assert api.get("/v1/public/me", **bearer(secret)).json()["error"] == "TOKEN_REVOKED"


def _admin_edit(admin_client, user, **changes) -> None:
    form = {
        "email": user.email,
        "first_name": user.first_name or "",
        "plan": user.plan,
        "is_active": "on" if user.is_active else "",
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
        "api_tokens-TOTAL_FORMS": "0",
        "api_tokens-INITIAL_FORMS": "0",
        **changes,
    }
    response = admin_client.post(reverse("admin:accounts_user_change", args=[user.pk]), form)
    assert response.status_code == 302, response.context["adminform"].form.errors


def test_it_shows_a_plan_changed_in_the_admin_on_the_next_request(api, admin_client):
    user = UserFactory(plan=Plan.FREE)
    secret = token_for(user)
    _warm(api, secret)

    _admin_edit(admin_client, user, plan=Plan.PRO)

    assert api.get("/v1/public/me", **bearer(secret)).json()["user"]["plan"] == "PRO"


def test_it_refuses_the_tokens_of_a_user_deactivated_in_the_admin(api, admin_client):
    user = UserFactory()
    secret = token_for(user)
    _warm(api, secret)

    _admin_edit(admin_client, user, is_active="")

    assert api.get("/v1/public/me", **bearer(secret)).json()["error"] == "INVALID_TOKEN"


@pytest.mark.parametrize("how", ["page", "bulk action"])
def test_it_refuses_the_tokens_of_a_user_deleted_in_the_admin(api, admin_client, how):
    user = UserFactory()
    secret = token_for(user)
    _warm(api, secret)

    if how == "page":
        admin_client.post(reverse("admin:accounts_user_delete", args=[user.pk]), {"post": "yes"})
    else:
        admin_client.post(
            reverse("admin:accounts_user_changelist"),
            {"action": "delete_selected", "_selected_action": [user.pk], "post": "yes"},
        )

    assert not ApiToken.objects.exists()
    assert api.get("/v1/public/me", **bearer(secret)).json()["error"] == "INVALID_TOKEN"


def test_it_shows_a_plan_set_by_the_issue_token_command_on_the_next_request(api):
    user = UserFactory(plan=Plan.FREE)
    secret = token_for(user)
    _warm(api, secret)

    call_command(
        "issue_token", user.email, "--scopes", "read:logos", "--plan", "PRO", stdout=io.StringIO()
    )

    assert api.get("/v1/public/me", **bearer(secret)).json()["user"]["plan"] == "PRO"


def test_it_does_not_cache_a_lookup_over_a_tombstone():
    secret = token_for()
    digest = token_digest(secret)
    token_forget(digests=[digest])

    assert token_for_digest(digest) is not None

    assert lookup_get(token_cache_key(digest)) == TOKEN_TOMBSTONE


def test_it_keeps_the_tombstone_when_the_token_is_touched(api):
    secret = token_for()
    digest = token_digest(secret)
    token_forget(digests=[digest])

    api.get("/v1/public/me", **bearer(secret))  # the first use is recorded

    assert ApiToken.objects.get().last_used_at is not None
    assert lookup_get(token_cache_key(digest)) == TOKEN_TOMBSTONE
