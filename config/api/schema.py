"""What the OpenAPI document says about errors, shared by every endpoint."""

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from config.api.errors import ErrorCode


class ErrorSerializer(serializers.Serializer):
    error = serializers.ChoiceField(choices=[code.value for code in ErrorCode])
    message = serializers.CharField()


class ValidationErrorSerializer(ErrorSerializer):
    details = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Messages per field (query parameter or body key).",
    )


_DESCRIPTIONS = {
    400: "INVALID_REQUEST: a parameter or the body fails validation.",
    401: "INVALID_TOKEN or TOKEN_REVOKED.",
    403: "INSUFFICIENT_SCOPE.",
    404: "The resource does not exist.",
    405: "METHOD_NOT_ALLOWED.",
    429: "RATE_LIMITED, with Retry-After.",
    500: "INTERNAL_ERROR.",
    503: "SERVICE_UNAVAILABLE: a backing service is unreachable, with Retry-After.",
}


def error_responses(*statuses: int, descriptions: dict[int, str] | None = None) -> dict:
    """Error responses for @extend_schema; 405, 500 and 503 apply to every endpoint."""
    descriptions = {**_DESCRIPTIONS, **(descriptions or {})}
    responses = {}
    for status_code in sorted({*statuses, 405, 500, 503}):
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
