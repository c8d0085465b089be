"""Request rate limits of the public API: 60 a minute per token, 20 per client IP.

A middleware rather than a view decorator, because every request under
/v1/public counts, unknown paths and refused methods too. Counting is
django-ratelimit's fixed windows in the default cache, which is Redis in any
deployment with more than one process (settings refuse to start without it).
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django_ratelimit.core import get_usage

from accounts.authentication import bearer_of
from config.api.client_ip import client_ip
from config.api.errors import json_error_response, rate_limited, to_api_error
from config.api.middleware import is_public_api

GROUP = "public-api"


def _subject(group: str, request: HttpRequest) -> str:
    token = bearer_of(request).token
    # A refused token is counted against the address it came from, like anonymous calls.
    return f"token:{token.pk}" if token is not None else f"ip:{client_ip(request)}"


def _rate(group: str, request: HttpRequest) -> str:
    if bearer_of(request).token is not None:
        return settings.API_RATE_AUTHENTICATED
    return settings.API_RATE_ANONYMOUS


def rate_usage(request: HttpRequest, *, increment: bool) -> dict | None:
    """This window's count for the caller (None when limits are switched off)."""
    return get_usage(request, group=GROUP, key=_subject, rate=_rate, increment=increment)


class PublicApiRateLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_public_api(request):
            return self.get_response(request)
        # CORS preflights are answered before this middleware; other OPTIONS are not counted either.
        counted = request.method != "OPTIONS"
        try:
            usage = rate_usage(request, increment=counted)
        except Exception as exc:
            # Redis or the database unreachable: a 503 in the envelope, never an unlimited pass.
            return json_error_response(to_api_error(exc))
        if usage is None:
            return self.get_response(request)
        # django-ratelimit's window includes its last second: the next one starts a second later.
        reset = usage["time_left"] + 1
        if counted and usage["should_limit"]:
            response = json_error_response(rate_limited(reset))
        else:
            response = self.get_response(request)
        response["X-RateLimit-Limit"] = str(usage["limit"])
        response["X-RateLimit-Remaining"] = str(max(0, usage["limit"] - usage["count"]))
        response["X-RateLimit-Reset"] = str(reset)
        return response
