"""Who is calling the public API: `Authorization: Bearer lgd_...`, looked up once per request.

`BearerTokenAuthentication` is DRF's authentication class of the API
(DEFAULT_AUTHENTICATION_CLASSES). The rate limiter, a middleware that must count
unknown paths too, needs the caller before any view runs; both call `bearer_of`, which
looks the token up once and keeps the outcome on the request. A token that fails the
checksum is refused before any lookup; a well-formed one is looked up in the token
cache (accounts/selectors.py), and in the database when not there.
"""

from dataclasses import dataclass

from django.http import HttpRequest
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication

from accounts.models import ApiToken, Source
from accounts.permissions import token_required
from accounts.selectors import token_for_digest
from accounts.services import token_touch
from accounts.tokens import token_digest, token_well_formed
from api.errors import ApiError, invalid_token, token_revoked


@dataclass(frozen=True)
class Bearer:
    """The outcome of reading the Authorization header: a live token, a refusal, or neither."""

    token: ApiToken | None = None
    refusal: ApiError | None = None


ANONYMOUS = Bearer()


def bearer_of(request) -> Bearer:
    """The caller of this request (a Django or a DRF request): its token is looked up
    once, and the outcome kept on the request as `request.bearer`.

    The rate limiter, a middleware, calls this before the view to count the request
    against the token's account; DRF's authentication then finds the outcome there
    (a DRF request reads the attributes of the Django request it wraps).
    """
    bearer = getattr(request, "bearer", None)
    if bearer is None:
        bearer = request.bearer = _judge(request.META.get("HTTP_AUTHORIZATION"))
    return bearer


def _judge(header: str | None) -> Bearer:
    """Reads the Authorization header: a token that fails its checksum is refused before
    any lookup; a well-formed one is looked up (the token cache, else the database)."""
    if header is None:
        return ANONYMOUS
    scheme, _, secret = header.strip().partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret:
        return Bearer(refusal=invalid_token("Send the token as Authorization: Bearer <token>."))
    if not token_well_formed(secret):
        return Bearer(refusal=invalid_token("The token is malformed or mistyped."))
    token = token_for_digest(token_digest(secret))
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
        bearer = bearer_of(request)
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
