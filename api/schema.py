"""What the OpenAPI document says about errors, shared by every endpoint."""

from django.utils.module_loading import import_string
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from api.errors import error_codes


class ErrorSerializer(serializers.Serializer):
    error = serializers.ChoiceField(choices=error_codes())
    message = serializers.CharField()


class ValidationErrorSerializer(ErrorSerializer):
    details = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Messages per field (query parameter or body key).",
    )


_DESCRIPTIONS = {
    400: "INVALID_REQUEST: a parameter or the body fails validation.",
    401: "INVALID_TOKEN (malformed, unknown or expired token, or none where one is needed) "
    "or TOKEN_REVOKED, with WWW-Authenticate.",
    403: "INSUFFICIENT_SCOPE, with WWW-Authenticate.",
    404: "The resource does not exist.",
    405: "METHOD_NOT_ALLOWED.",
    409: "A conflict with the current state.",
    429: "RATE_LIMITED, with Retry-After.",
    500: "INTERNAL_ERROR.",
    503: "SERVICE_UNAVAILABLE: a backing service is unreachable, with Retry-After.",
}


def error_responses(*statuses: int, descriptions: dict[int, str] | None = None) -> dict:
    """Error responses for @extend_schema.

    401 (a bad token is refused everywhere), 405, 429, 500 and 503 apply to every endpoint.
    A status without a generic description here (413, 415) needs the endpoint's own.
    """
    descriptions = {**_DESCRIPTIONS, **(descriptions or {})}
    responses = {}
    for status_code in sorted({*statuses, 401, 405, 429, 500, 503}):
        serializer = ValidationErrorSerializer if status_code == 400 else ErrorSerializer
        responses[status_code] = OpenApiResponse(serializer, description=descriptions[status_code])
    return responses


def read_responses(serializer, *error_statuses: int, descriptions: dict[int, str] | None = None):
    """Responses of a GET: the body with its ETag, 304 for a matching If-None-Match, errors."""
    return {
        200: OpenApiResponse(serializer, description="OK. Carries an ETag."),
        304: OpenApiResponse(description="Not modified: the If-None-Match tag still matches."),
        **error_responses(*error_statuses, descriptions=descriptions),
    }


def public_endpoints_only(endpoints):
    """The document describes /v1/public and nothing else (not the admin, not the site)."""
    return [endpoint for endpoint in endpoints if endpoint[0].startswith("/v1/public/")]


_INTEGER = {"type": "integer", "minimum": 0}
_HEADERS = {
    "X-RateLimit-Limit": ("Requests allowed in the current window.", _INTEGER),
    "X-RateLimit-Remaining": ("Requests left in the current window.", _INTEGER),
    "X-RateLimit-Reset": ("Seconds until the current window resets.", _INTEGER),
    "Retry-After": ("Seconds to wait before retrying.", {"type": "integer", "minimum": 1}),
    "WWW-Authenticate": ("The bearer challenge (RFC 6750).", {"type": "string"}),
    "ETag": ("Tag for If-None-Match.", {"type": "string"}),
    "X-Request-ID": (
        "The request's id in the service's logs: the caller's own X-Request-ID when it is "
        "at most 128 characters of A-Z, a-z, 0-9, '.', '_' and '-', else a new one.",
        {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$"},
    ),
}
_RATE_LIMIT = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]
_HEADERS_BY_STATUS = {
    "401": ["WWW-Authenticate"],
    "403": ["WWW-Authenticate"],
    "429": ["Retry-After"],
    "503": ["Retry-After"],
}


def _header(name: str, *, required: bool) -> dict:
    description, schema = _HEADERS[name]
    return {"description": description, "required": required, "schema": schema}


def response_headers(result, generator, request, public):
    """Every response carries its request id and the rate-limit headers; some statuses
    add their own.

    A 503 may come from the rate limiter's own store being down, when there is no
    count to report: there, and only there, the rate-limit headers are optional.
    """
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            for status_code, response in operation.get("responses", {}).items():
                headers = {
                    name: _header(name, required=status_code != "503") for name in _RATE_LIMIT
                }
                headers["X-Request-ID"] = _header("X-Request-ID", required=True)
                for name in _HEADERS_BY_STATUS.get(status_code, []):
                    headers[name] = _header(name, required=True)
                if method == "get" and status_code in ("200", "304"):
                    headers["ETag"] = _header("ETag", required=True)
                # Headers an endpoint documents itself (the Logo Link's) are kept.
                response["headers"] = {**response.get("headers", {}), **headers}
    return result


class EitherShape(OpenApiSerializerExtension):
    """A body that needs one field or another (checked in validate()): one shape each.

    anyOf, not oneOf: a body may give both fields.
    """

    shapes: tuple[str, str]

    def map_serializer(self, auto_schema, direction):
        shapes = [import_string(path) for path in self.shapes]
        return {"anyOf": [auto_schema.resolve_serializer(s, direction).ref for s in shapes]}


def required_request_bodies(result, generator=None, request=None, public=None) -> dict:
    """Every POST body of this API has a field it cannot do without.

    drf-spectacular marks a body required only when its one schema lists required
    fields, which a choice of shapes (anyOf, oneOf) does not.
    """
    for operations in result.get("paths", {}).values():
        body = operations.get("post", {}).get("requestBody")
        if body is not None:
            body["required"] = True
    return result
