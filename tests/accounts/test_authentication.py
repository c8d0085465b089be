"""Bearer tokens everywhere: refused when bad, scoped per endpoint, never taken as anonymous."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import ApiToken, Scope
from accounts.tokens import token_generate
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    UserFactory,
    bearer,
    make_current,
    token_for,
)

pytestmark = pytest.mark.django_db

CATALOGUE_READS = [
    "/v1/public/companies",
    "/v1/public/companies/acme",
    "/v1/public/logos",
    "/v1/public/logos/acme-logo",
    "/v1/public/domains",
]
EVERY_ENDPOINT = [
    *(("get", path) for path in CATALOGUE_READS),
    ("get", "/v1/public/me"),
    ("delete", "/v1/public/me/token"),
    ("post", "/v1/public/device/code"),
    ("post", "/v1/public/device/token"),
    ("get", "/v1/public/openapi.json"),
    ("get", "/v1/public/no-such-thing"),
]


@pytest.fixture
def catalogue():
    company = CompanyFactory(slug="acme", name="Acme", website="https://acme.es")
    make_current(LogoFactory(company=company, slug="acme-logo", title="Acme"))


def _refusal(response, code: str) -> dict:
    assert response.status_code == (403 if code == "INSUFFICIENT_SCOPE" else 401)
    body = response.json()
    assert body["error"] == code
    assert set(body) == {"error", "message"}
    return body


@pytest.mark.parametrize("path", CATALOGUE_READS)
def test_it_serves_the_catalogue_without_a_token(api, catalogue, path):
    assert api.get(path).status_code == 200


@pytest.mark.parametrize("path", CATALOGUE_READS)
def test_it_serves_the_catalogue_to_a_token_with_read_logos(api, catalogue, path):
    secret = token_for(scopes=[Scope.READ_LOGOS])

    assert api.get(path, **bearer(secret)).status_code == 200


@pytest.mark.parametrize("path", CATALOGUE_READS)
def test_it_refuses_the_catalogue_to_a_token_without_read_logos(api, catalogue, path):
    secret = token_for(scopes=[Scope.READ_PALETTES, Scope.WRITE_PALETTES, Scope.WRITE_PROPOSALS])

    response = api.get(path, **bearer(secret))

    assert _refusal(response, "INSUFFICIENT_SCOPE")["message"] == (
        "The token lacks the read:logos scope this endpoint needs."
    )
    assert response["WWW-Authenticate"] == 'Bearer error="insufficient_scope", scope="read:logos"'


@pytest.mark.parametrize(("method", "path"), EVERY_ENDPOINT)
@pytest.mark.parametrize(
    "header",
    [
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "Bearer lgd_short",
        "Token " + "lgd_" + "a" * 42,
        "",
    ],
)
def test_it_refuses_a_malformed_authorization_header_everywhere(api, method, path, header):
    response = getattr(api, method)(path, HTTP_AUTHORIZATION=header)

    _refusal(response, "INVALID_TOKEN")
    assert response["WWW-Authenticate"].startswith('Bearer error="invalid_token"')


@pytest.mark.parametrize(("method", "path"), EVERY_ENDPOINT)
def test_it_refuses_a_revoked_token_everywhere(api, method, path):
    secret = token_for()
    ApiToken.objects.update(revoked_at=timezone.now())

    _refusal(getattr(api, method)(path, **bearer(secret)), "TOKEN_REVOKED")


def test_it_refuses_a_mistyped_token_without_reading_the_database(api, django_assert_num_queries):
    secret = token_for()
    mistyped = secret[:-1] + ("0" if secret[-1] != "0" else "1")

    with django_assert_num_queries(0):
        response = api.get("/v1/public/me", **bearer(mistyped))

    assert _refusal(response, "INVALID_TOKEN")["message"] == "The token is malformed or mistyped."


def test_it_refuses_a_well_formed_token_it_never_issued(api):
    response = api.get("/v1/public/me", **bearer(token_generate()))

    assert _refusal(response, "INVALID_TOKEN")["message"] == "The token is not known."


def test_it_refuses_an_expired_token_as_invalid(api):
    secret = token_for(expires_at=timezone.now() + timedelta(hours=1))
    assert api.get("/v1/public/me", **bearer(secret)).status_code == 200

    with time_machine.travel(timezone.now() + timedelta(hours=1, seconds=1)):
        response = api.get("/v1/public/me", **bearer(secret))

    assert _refusal(response, "INVALID_TOKEN")["message"] == "The token has expired."


def test_it_refuses_the_token_of_a_deactivated_user(api):
    user = UserFactory()
    secret = token_for(user)
    user.is_active = False
    user.save()

    _refusal(api.get("/v1/public/me", **bearer(secret)), "INVALID_TOKEN")


def test_it_refuses_a_revoked_token_on_the_very_next_request(api):
    secret = token_for()

    assert api.delete("/v1/public/me/token", **bearer(secret)).status_code == 204
    response = api.get("/v1/public/companies", **bearer(secret))

    assert _refusal(response, "TOKEN_REVOKED")["message"] == "The token was revoked."
    assert (
        response["WWW-Authenticate"] == 'Bearer error="invalid_token", error_description="revoked"'
    )


def test_it_lets_a_token_with_any_scope_revoke_itself(api):
    secret = token_for(scopes=[Scope.READ_PALETTES])

    response = api.delete("/v1/public/me/token", **bearer(secret))

    assert response.status_code == 204
    assert response.content == b""
    assert ApiToken.objects.get().revoked_at is not None


def test_it_keeps_the_first_revocation_time(api):
    secret = token_for()
    api.delete("/v1/public/me/token", **bearer(secret))
    first = ApiToken.objects.get().revoked_at

    response = api.delete("/v1/public/me/token", **bearer(secret))

    assert response.json()["error"] == "TOKEN_REVOKED"
    assert ApiToken.objects.get().revoked_at == first


def test_it_revokes_only_the_token_of_the_request(api):
    user = UserFactory()
    used, other = token_for(user, name="used"), token_for(user, name="other")

    api.delete("/v1/public/me/token", **bearer(used))

    assert api.get("/v1/public/me", **bearer(other)).json()["authenticated"] is True
    assert list(
        ApiToken.objects.filter(revoked_at__isnull=True).values_list("name", flat=True)
    ) == ["other"]


def test_it_needs_a_token_to_revoke_one(api):
    response = api.delete("/v1/public/me/token")

    assert _refusal(response, "INVALID_TOKEN")["message"] == (
        "This endpoint needs a bearer token: Authorization: Bearer <token>."
    )
    assert response["WWW-Authenticate"] == "Bearer"


def test_it_records_the_last_use_at_most_once_a_minute(api, django_assert_num_queries):
    secret = token_for()
    start = timezone.now().replace(microsecond=0)

    # The token with its user, then the lastUsedAt update, but only once a minute.
    with time_machine.travel(start, tick=False), django_assert_num_queries(2):
        api.get("/v1/public/me", **bearer(secret))
    later = start + timedelta(seconds=59)
    with time_machine.travel(later, tick=False), django_assert_num_queries(1):
        api.get("/v1/public/me", **bearer(secret))
    assert ApiToken.objects.get().last_used_at == start

    with time_machine.travel(start + timedelta(seconds=61), tick=False):
        api.get("/v1/public/me", **bearer(secret))
    assert ApiToken.objects.get().last_used_at == start + timedelta(seconds=61)
