"""Request rate limits of the public API: 60 a minute per account, 20 per client IP.

An account has one budget whatever number of tokens it uses: the count is keyed by the
token's owner. Which account owns a token never changes, so each process remembers it
after the token's first lookup, and from then on counts the account and reads the
token's cached lookup in one round trip, as before.

The Logo Link (/v1/public/img/) has a limit of its own for anonymous callers, per
address: an image tag is fetched by every visitor's browser, a page of 100 logos is 100
requests, and 20 a minute would not show one page. Tokens keep their one limit for
everything.

A middleware rather than a view decorator, because every request under
/v1/public counts, unknown paths and refused methods too. Counts live in Redis,
shared by every process (settings refuse to start without it outside development),
in fixed windows staggered per caller so that callers do not all start again in the
same second. One script counts and reads the caller's cached token together
(config/cache.py): a request with a token makes one round trip, not the two or three
of a counting library's add-then-increment. The website's device page counts its
wrong codes here too.

While Redis cannot be reached, each process counts in its own memory and allows
each caller the whole limit: a caller then gets up to the limit from every process
that serves it, and an honest one is never refused early. Dividing the limit by the
workers would keep the total near the limit, but sync workers do not share a
caller's requests evenly: of ten runs of 60 requests in a row to 3 workers, two
landed 41/10/9 (docs/operations.md), so a caller at half its limit would be
refused. Downloads keep their exact quotas, which live in PostgreSQL.
"""

import time
import zlib
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from accounts.authentication import Claim, bearer_resolve, claim_of
from accounts.selectors import NOT_READ, token_cache_key
from config.api.client_ip import client_ip
from config.api.errors import json_error_response, rate_limited, to_api_error
from config.api.middleware import is_public_api
from config.cache import RedisUnavailable, count_and_get, local_count, uncount

# A counter outlives its window by a little, so that a clock a second or two apart
# between app processes still finds it.
_EXPIRY_MARGIN = 5
_PERIODS = {"s": 1, "m": 60, "h": 3600}
IMAGE_PREFIX = "/v1/public/img/"
# Token digest -> the id of the account that owns it, per process. Bounded: past the
# bound it starts again, and a forgotten owner costs one more round trip.
_OWNERS: dict[str, int] = {}
_MAX_OWNERS = 10_000


@dataclass(frozen=True)
class Usage:
    count: int
    limit: int
    reset: int  # seconds until the window ends, at least 1

    @property
    def exceeded(self) -> bool:
        return self.count > self.limit


def _rate(setting: str) -> tuple[int, int]:
    limit, _, period = setting.partition("/")
    return int(limit), _PERIODS[period[-1]] * int(period[:-1] or 1)


def _window_end(subject: str, period: int, now: int) -> int:
    # The crc32 of the subject staggers the windows, so that callers do not all
    # start again in the same second.
    end = now - now % period + zlib.crc32(subject.encode()) % period
    return end + period if end < now else end


def _count(
    subject: str, rate: str, *, increment: bool, token_digest: str | None = None
) -> tuple[Usage, object, str]:
    limit, period = _rate(rate)
    now = int(time.time())
    end = _window_end(subject, period, now)
    counter, timeout = f"rate:{subject}:{end}", period + _EXPIRY_MARGIN
    try:
        count, cached = count_and_get(
            counter,
            timeout=timeout,
            increment=increment,
            key=token_cache_key(token_digest) if token_digest is not None else None,
        )
    except RedisUnavailable:
        count, cached = local_count(counter, timeout=timeout, increment=increment), NOT_READ
    # The window includes its last second: the next one starts a second after `end`.
    return Usage(count=count, limit=limit, reset=end - now + 1), cached, counter


def usage_of(subject: str, rate: str, *, increment: bool) -> Usage:
    """The count of `subject` in its current window of `rate` ("5/15m"), one more if
    `increment`."""
    return _count(subject, rate, increment=increment)[0]


def _account_subject(user_id: int) -> str:
    return f"account:{user_id}"


def _remember_owner(digest: str, user_id: int) -> None:
    if len(_OWNERS) >= _MAX_OWNERS:
        _OWNERS.clear()
    _OWNERS[digest] = user_id


def _token_usage(request: HttpRequest, claim: Claim) -> Usage | None:
    """The usage of the account that owns the claimed token, or None when the token is
    refused (then nothing stays counted against the account)."""
    rate = settings.API_RATE_AUTHENTICATED
    owner = _OWNERS.get(claim.digest)
    if owner is None:
        # The token's first request in this process: looked up first, then counted.
        token = bearer_resolve(request, claim).token
        if token is None:
            return None
        _remember_owner(claim.digest, token.user_id)
        return usage_of(_account_subject(token.user_id), rate, increment=True)
    usage, cached, counter = _count(
        _account_subject(owner), rate, increment=True, token_digest=claim.digest
    )
    if bearer_resolve(request, claim, cached=cached).token is not None:
        return usage
    # A revoked or expired token of the account: its requests count against the
    # address, never against the account that revoked it.
    uncount(counter)
    return None


def rate_usage(request: HttpRequest) -> Usage | None:
    """Counts the request against its caller and works out who the caller is.

    A live token is counted against its account, its cached lookup read along; a token
    that turns out refused is counted against the address instead, like anonymous
    calls. None when limits are switched off.
    """
    if not settings.RATELIMIT_ENABLE:
        return None
    claim = claim_of(request)
    if claim.digest is not None:
        usage = _token_usage(request, claim)
        if usage is not None:
            return usage
    else:
        bearer_resolve(request, claim)  # anonymous, or refused without a lookup
    if request.path.startswith(IMAGE_PREFIX):
        subject, rate = f"img:{client_ip(request)}", settings.API_RATE_IMAGES_ANONYMOUS
    else:
        subject, rate = f"ip:{client_ip(request)}", settings.API_RATE_ANONYMOUS
    return _count(subject, rate, increment=True)[0]


class PublicApiRateLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_public_api(request):
            return self.get_response(request)
        # Every request counts, OPTIONS too; CORS preflights never get here: the CORS
        # middleware before this one answers them, before any token is looked up.
        try:
            usage = rate_usage(request)
        except Exception as exc:
            # The database unreachable for a token's lookup: a 503 in the envelope.
            return json_error_response(to_api_error(exc))
        if usage is None:
            return self.get_response(request)
        if usage.exceeded:
            response = json_error_response(rate_limited(usage.reset))
        else:
            response = self.get_response(request)
        response["X-RateLimit-Limit"] = str(usage.limit)
        response["X-RateLimit-Remaining"] = str(max(0, usage.limit - usage.count))
        response["X-RateLimit-Reset"] = str(usage.reset)
        return response
