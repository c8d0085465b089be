"""The one error type of the public API and the one handler that renders it.

Every error under /v1/public leaves as {"error": CODE, "message": text}, plus
"details" for validation errors and any extra keys an error carries (the
download quota, for example).

ErrorCode holds the codes any endpoint may answer with (the token, validation, not
found, rate limits, failures); each app declares its own beside its views
(directory/errors.py, palettes/errors.py, proposals/errors.py) and names them in its
AppConfig's `error_codes`, where error_codes() finds them for the OpenAPI document.
"""

import logging
from enum import StrEnum
from typing import Any

from botocore.exceptions import ClientError as StoreClientError
from botocore.exceptions import ConnectionError as StoreConnectionError
from botocore.exceptions import HTTPClientError as StoreHttpError
from django.apps import apps
from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpResponse
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from urllib3.exceptions import HTTPError as StoreProbeError

from common.cache import REDIS_UNREACHABLE

logger = logging.getLogger(__name__)

RETRY_AFTER_UNAVAILABLE = 5
BAD_JSON = "The request body is not valid JSON."


class ErrorCode(StrEnum):
    INVALID_TOKEN = "INVALID_TOKEN"  # noqa: S105 - an error code, not a secret
    TOKEN_REVOKED = "TOKEN_REVOKED"  # noqa: S105
    INSUFFICIENT_SCOPE = "INSUFFICIENT_SCOPE"
    INVALID_REQUEST = "INVALID_REQUEST"
    RATE_LIMITED = "RATE_LIMITED"
    NOT_FOUND = "NOT_FOUND"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"


def error_codes() -> list[str]:
    """Every code an error body may carry: the generic ones, then each app's (its
    AppConfig's `error_codes`), in INSTALLED_APPS order."""
    codes = [code.value for code in ErrorCode]
    for app_config in apps.get_app_configs():
        codes += [code.value for code in getattr(app_config, "error_codes", ())]
    return codes


class ApiError(Exception):
    """An error the API reports to its client, with its HTTP status."""

    def __init__(
        self,
        code: StrEnum,
        message: str,
        *,
        status_code: int,
        details: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status_code = status_code
        self.details = details
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": str(self.code), "message": self.message}
        if self.details is not None:
            body["details"] = self.details
        body.update(self.extra)
        return body


def invalid_request(details: dict[str, list[str]], message: str | None = None) -> ApiError:
    return ApiError(
        ErrorCode.INVALID_REQUEST,
        message or "The request is not valid; see details.",
        status_code=status.HTTP_400_BAD_REQUEST,
        details=details,
    )


def not_found(code: StrEnum, message: str) -> ApiError:
    return ApiError(code, message, status_code=status.HTTP_404_NOT_FOUND)


def invalid_token(message: str) -> ApiError:
    return ApiError(
        ErrorCode.INVALID_TOKEN,
        message,
        status_code=status.HTTP_401_UNAUTHORIZED,
        headers={
            "WWW-Authenticate": f'Bearer error="invalid_token", error_description="{message}"'
        },
    )


def token_missing() -> ApiError:
    # RFC 6750 §3.1: a request without credentials gets the challenge without an error code.
    return ApiError(
        ErrorCode.INVALID_TOKEN,
        "This endpoint needs a bearer token: Authorization: Bearer <token>.",
        status_code=status.HTTP_401_UNAUTHORIZED,
        headers={"WWW-Authenticate": "Bearer"},
    )


def token_revoked() -> ApiError:
    return ApiError(
        ErrorCode.TOKEN_REVOKED,
        "The token was revoked.",
        status_code=status.HTTP_401_UNAUTHORIZED,
        headers={"WWW-Authenticate": 'Bearer error="invalid_token", error_description="revoked"'},
    )


def insufficient_scope(scope: str) -> ApiError:
    return ApiError(
        ErrorCode.INSUFFICIENT_SCOPE,
        f"The token lacks the {scope} scope this endpoint needs.",
        status_code=status.HTTP_403_FORBIDDEN,
        headers={"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{scope}"'},
    )


def rate_limited(retry_after: int) -> ApiError:
    return ApiError(
        ErrorCode.RATE_LIMITED,
        f"Too many requests; retry in {retry_after} s.",
        status_code=status.HTTP_429_TOO_MANY_REQUESTS,
        headers={"Retry-After": str(retry_after)},
    )


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested ValidationError detail as {"field.sub": ["message", ...]}."""
    if isinstance(detail, dict):
        flat: dict[str, list[str]] = {}
        for key, value in detail.items():
            if key == "non_field_errors":  # about the object itself, not one of its keys
                path = prefix or "body"
            elif isinstance(key, int):  # an item of a list
                path = f"{prefix}[{key}]"
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            flat.update(_flatten(value, path))
        return flat
    if isinstance(detail, list) and detail and isinstance(detail[0], dict | list):
        flat = {}
        for index, value in enumerate(detail):
            flat.update(_flatten(value, f"{prefix}[{index}]"))
        return flat
    messages = detail if isinstance(detail, list) else [detail]
    return {prefix or "body": [str(message) for message in messages]}


def to_api_error(exc: Exception) -> ApiError:
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, exceptions.ValidationError):
        return invalid_request(_flatten(exc.detail))
    if isinstance(exc, RequestDataTooBig):
        # Refused by its declared length, before a byte of it is read.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return invalid_request({"body": [f"The body is over {limit:,} bytes."]}, BAD_JSON)
    if isinstance(exc, exceptions.ParseError):
        return invalid_request({"body": [str(exc.detail)]}, BAD_JSON)
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return invalid_request({"body": [str(exc.detail)]}, "Unsupported request content type.")
    if isinstance(exc, exceptions.MethodNotAllowed):
        return ApiError(
            ErrorCode.METHOD_NOT_ALLOWED,
            str(exc.detail),
            status_code=status.HTTP_405_METHOD_NOT_ALLOWED,
        )
    if isinstance(exc, exceptions.NotFound | Http404):
        return not_found(ErrorCode.NOT_FOUND, "No such endpoint or resource.")
    if isinstance(exc, exceptions.NotAuthenticated):
        return token_missing()
    if isinstance(exc, exceptions.AuthenticationFailed):
        return invalid_token("The token is not valid.")
    if isinstance(exc, exceptions.PermissionDenied | PermissionDenied):
        return ApiError(
            ErrorCode.INSUFFICIENT_SCOPE,
            "The token lacks the permission this endpoint needs.",
            status_code=status.HTTP_403_FORBIDDEN,
        )
    if isinstance(exc, exceptions.Throttled):
        return rate_limited(max(1, int(exc.wait or 1)))
    if isinstance(exc, (OperationalError, InterfaceError, *REDIS_UNREACHABLE)):
        logger.warning("backing service unavailable: %s", exc)
        return service_unavailable()
    if isinstance(exc, StoreConnectionError | StoreHttpError | StoreProbeError) or (
        _store_overloaded(exc)
    ):
        # The object store unreachable, timing out or answering 5xx (S3's SlowDown is 503),
        # through boto3 or through the download's look at it (directory/downloads/services.py).
        logger.warning("object store unavailable: %s", exc)
        return service_unavailable()
    if isinstance(exc, DatabaseError):
        logger.exception("database error")
        return internal_error()
    logger.exception("unhandled error in the public API", exc_info=exc)
    return internal_error()


def _store_overloaded(exc: Exception) -> bool:
    if not isinstance(exc, StoreClientError):
        return False
    status_code = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
    return status_code >= 500


def internal_error() -> ApiError:
    return ApiError(
        ErrorCode.INTERNAL_ERROR,
        "Something went wrong on our side; it has been logged.",
        status_code=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def service_unavailable() -> ApiError:
    return ApiError(
        ErrorCode.SERVICE_UNAVAILABLE,
        "A backing service is unavailable; retry shortly.",
        status_code=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)},
    )


def exception_handler(exc: Exception, context: dict) -> Response:
    # Imported here: DRF's views module loads the authentication classes, which use this module.
    from rest_framework.views import set_rollback

    error = to_api_error(exc)
    set_rollback()
    return Response(error.body(), status=error.status_code, headers=error.headers)


def json_error_response(error: ApiError) -> HttpResponse:
    """The same body outside DRF views (Django's handler404/500, middleware), written by
    the renderer DRF's views use: the same bytes for the same error wherever it arises."""
    response = HttpResponse(
        JSONRenderer().render(error.body()),
        status=error.status_code,
        content_type="application/json",
    )
    for name, value in error.headers.items():
        response[name] = value
    return response
