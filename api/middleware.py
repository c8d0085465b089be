from django.http import HttpRequest, HttpResponse
from django.views import defaults

from api.errors import (
    ErrorCode,
    internal_error,
    invalid_request,
    json_error_response,
    not_found,
    to_api_error,
)

PUBLIC_PREFIX = "/v1/public/"


def is_public_api(request: HttpRequest) -> bool:
    return request.path.startswith(PUBLIC_PREFIX)


class PublicApiMiddleware:
    """Keeps /v1/public cookie-free and its errors in the JSON envelope.

    Errors raised inside DRF views are rendered by the exception handler; this
    catches what escapes elsewhere (other middleware, URL resolution).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if is_public_api(request):
            # The public API authenticates by bearer token only; a cookie would
            # make responses user-specific for caches and invite CSRF.
            response.cookies.clear()
        return response

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not is_public_api(request):
            return None
        return json_error_response(to_api_error(exception))


def api_handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_public_api(request):
        return json_error_response(invalid_request({"request": ["Bad request."]}))
    return defaults.bad_request(request, exception)


def api_handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_public_api(request):
        return json_error_response(not_found(ErrorCode.NOT_FOUND, "No such endpoint or resource."))
    return defaults.page_not_found(request, exception)


def api_handler500(request: HttpRequest) -> HttpResponse:
    if is_public_api(request):
        return json_error_response(internal_error())
    return defaults.server_error(request)
