"""Request rate limits of the public API: 60 a minute per account, 20 per client IP.

Counted by django-ratelimit (`django_ratelimit.core.get_usage`) from a middleware rather
than a view decorator, because every request under /v1/public counts, unknown paths and
refused methods too. The counts live in Redis, shared by every process (settings refuse
to start without it outside development), in fixed windows that django-ratelimit
staggers per caller so that callers do not all start again in the same second.
django-ratelimit counts in the cache RATELIMIT_USE_CACHE names, common/cache.py's
RateLimitCache, where its add and incr go to Redis as one script: a count is one round
trip, and a token's cached lookup a second. bench/auth.py measures what they add to a
request.

An account has one budget whatever number of tokens it uses: the count is keyed by the
token's owner. So the middleware needs the caller before the view runs: it asks
`bearer_of`, the function DRF's authentication class calls too, which looks the token
up once and keeps the outcome on the request (`request.bearer`); the view's
authentication then reads it from there. A token that turns out refused (unknown,
revoked, expired) counts against the address, like anonymous calls: never against the
account that revoked it.

The Logo Link (/v1/public/img/) has a limit of its own for anonymous callers, per
address: an image tag is fetched by every visitor's browser, a page of 100 logos is 100
requests, and 20 a minute would not show one page. Tokens keep their one limit for
everything. The website's device page counts its wrong codes here too (`usage_of`).

While Redis cannot be reached, the cache counts in each process's own memory
(common/cache.py) and each process allows each caller the whole limit: a caller then
gets up to the limit from every process that serves it, and an honest one is never
refused early. Dividing the limit by the workers would keep the total near the limit,
but sync workers do not share a caller's requests evenly: of ten runs of 60 requests in
a row to 3 workers, two landed 41/10/9 (docs/operations.md), so a caller at half its
limit would be refused. Downloads keep their exact quotas, which live in PostgreSQL.
"""

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django_ratelimit.core import get_usage

from accounts.authentication import bearer_of
from api.client_ip import client_ip
from api.errors import json_error_response, rate_limited, to_api_error
from api.middleware import is_public_api

IMAGE_PREFIX = "/v1/public/img/"


@dataclass(frozen=True)
class Usage:
    count: int
    limit: int
    reset: int  # seconds until the window ends, at least 1

    @property
    def exceeded(self) -> bool:
        return self.count > self.limit


def _uncounted(rate: str) -> Usage:
    # Limits switched off: nothing is counted, nothing refused.
    return Usage(count=0, limit=int(rate.partition("/")[0]), reset=1)


def usage_of(subject: str, rate: str, *, increment: bool) -> Usage:
    """The count of `subject` in its current window of `rate` ("5/15m"), one more if
    `increment`; a count of 0 when limits are switched off (RATELIMIT_ENABLE)."""
    # No request: the key is the subject itself, and every method counts.
    usage = get_usage(
        None, group="api", key=lambda _group, _request: subject, rate=rate, increment=increment
    )
    if usage is None or usage["time_left"] < 0:
        # Off, or (django-ratelimit's word for it) the count could not be read: the
        # counter expired between its add and its incr, which the cache's fallback to
        # memory makes the only way. Not counted rather than refused.
        return _uncounted(rate)
    # django-ratelimit's time_left is 0 in the window's last second; the next window
    # starts a second after it.
    return Usage(count=usage["count"], limit=usage["limit"], reset=usage["time_left"] + 1)


def _subject_and_rate(request: HttpRequest) -> tuple[str, str]:
    """Who the request counts against: the account of a live token, else the address."""
    token = bearer_of(request).token
    if token is not None:
        return f"account:{token.user_id}", settings.API_RATE_AUTHENTICATED
    if request.path.startswith(IMAGE_PREFIX):
        return f"img:{client_ip(request)}", settings.API_RATE_IMAGES_ANONYMOUS
    return f"ip:{client_ip(request)}", settings.API_RATE_ANONYMOUS


class PublicApiRateLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not settings.RATELIMIT_ENABLE or not is_public_api(request):
            return self.get_response(request)
        # Every request counts, OPTIONS too; CORS preflights never get here: the CORS
        # middleware before this one answers them, before any token is looked up.
        try:
            subject, rate = _subject_and_rate(request)
        except Exception as exc:
            # The database unreachable for a token's lookup: a 503 in the envelope.
            return json_error_response(to_api_error(exc))
        usage = usage_of(subject, rate, increment=True)
        if usage.exceeded:
            response = json_error_response(rate_limited(usage.reset))
        else:
            response = self.get_response(request)
        response["X-RateLimit-Limit"] = str(usage.limit)
        response["X-RateLimit-Remaining"] = str(max(0, usage.limit - usage.count))
        response["X-RateLimit-Reset"] = str(usage.reset)
        return response
