"""Who is calling, by address: the one place that reads X-Forwarded-For."""

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The socket address, or with TRUSTED_PROXY_COUNT = N the Nth address from the right
    of X-Forwarded-For: each trusted proxy appends the address it received from, so the
    entries left of that one are whatever the client chose to send."""
    trusted = settings.TRUSTED_PROXY_COUNT
    remote = request.META.get("REMOTE_ADDR", "")
    if trusted == 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    # Fewer entries than proxies: the request did not come through all of them.
    return forwarded[-trusted] if len(forwarded) >= trusted else remote
