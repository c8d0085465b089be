"""Who is calling the public API: the bearer token, read once per request.

The rate limiter (a middleware, it must count unknown paths too) and DRF's
authentication both need the answer; it is worked out once and kept on the
request. A token that fails the checksum is refused before any lookup; a
well-formed one is looked up in the token cache, which the rate limiter reads in
the same round trip as its count, and in the database when not there.
"""

from dataclasses import dataclass

from django.http import HttpRequest
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication

from accounts.models import ApiToken, Source
from accounts.permissions import token_required
from accounts.selectors import NOT_READ, token_for_digest
from accounts.services import token_touch
from accounts.tokens import token_digest, token_well_formed
from config.api.errors import ApiError, invalid_token, token_revoked


@dataclass(frozen=True)
class Bearer:
    """The outcome of reading the Authorization header: a live token, a refusal, or neither."""

    token: ApiToken | None = None
    refusal: ApiError | None = None


@dataclass(frozen=True)
class Claim:
    """What the Authorization header claims, before any lookup: a well-formed token's
    SHA-256, a refusal, or nothing (anonymous)."""

    digest: str | None = None
    refusal: ApiError | None = None


ANONYMOUS = Bearer()
_ATTRIBUTE = "_logodir_bearer"


def claim_of(request: HttpRequest) -> Claim:
    header = request.META.get("HTTP_AUTHORIZATION")
    if header is None:
        return Claim()
    scheme, _, secret = header.strip().partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret:
        return Claim(refusal=invalid_token("Send the token as Authorization: Bearer <token>."))
    if not token_well_formed(secret):
        return Claim(refusal=invalid_token("The token is malformed or mistyped."))
    return Claim(digest=token_digest(secret))


def bearer_resolve(request: HttpRequest, claim: Claim, *, cached: object = NOT_READ) -> Bearer:
    """Looks the claimed token up (`cached`: what the caller already read from the
    token cache) and keeps the outcome on the request."""
    bearer = _judge(claim, cached)
    setattr(request, _ATTRIBUTE, bearer)
    return bearer


def bearer_of(request: HttpRequest) -> Bearer:
    bearer = getattr(request, _ATTRIBUTE, None)
    if bearer is None:
        bearer = bearer_resolve(request, claim_of(request))
    return bearer


def _judge(claim: Claim, cached: object) -> Bearer:
    if claim.refusal is not None:
        return Bearer(refusal=claim.refusal)
    if claim.digest is None:
        return ANONYMOUS
    token = token_for_digest(claim.digest, cached=cached)
    if token is None or not token.user.is_active:
        return Bearer(refusal=invalid_token("The token is not known."))
    if token.revoked_at is not None:
        return Bearer(refusal=token_revoked())
    if token.is_expired(timezone.now()):
        return Bearer(refusal=invalid_token("The token has expired."))
    return Bearer(token=token)


class BearerTokenAuthentication(BaseAuthentication):
    """`Authorization: Bearer lgd_...`. A bad token is refused, never taken as anonymous."""

    def authenticate(self, request):
        bearer = bearer_of(request._request)
        if bearer.refusal is not None:
            raise bearer.refusal
        if bearer.token is None:
            return None
        token_touch(token=bearer.token)
        return bearer.token.user, bearer.token

    def authenticate_header(self, request) -> str:
        return "Bearer"


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = BearerTokenAuthentication
    name = "bearerToken"

    def get_security_requirement(self, auto_schema):
        requirement = {self.name: []}
        # An empty requirement is OpenAPI's way of saying "or no token at all".
        return [requirement] if token_required(auto_schema.view) else [requirement, {}]

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "An API token (lgd_...) made in the account area or through the device-link flow."
            ),
        }


def source_of(request: HttpRequest) -> str:
    """Where a request comes from: the token's origin, or X-Service-Source when anonymous.

    The header is the client's word and is taken only when there is no token; an
    unknown value counts as API.
    """
    token = bearer_of(request).token
    if token is not None:
        return token.source
    claimed = request.META.get("HTTP_X_SERVICE_SOURCE", "").strip().upper()
    return claimed if claimed in Source.values else Source.API
