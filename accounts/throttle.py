"""The website's limits on guessing: failed logins, sign-ups and the password forms,
counted by django-ratelimit.

django-ratelimit rather than django-axes: the same library counts logins per account and
per address and sign-ups per address, in the Redis every process shares (the default
cache, common/cache.py), with nothing written to the database; django-axes covers
logins only. Its system checks are not installed (the app is not in INSTALLED_APPS): they
refuse the per-process cache of development without Redis, which accounts/checks.py
already warns about.

Failures are counted, not attempts: after the 10th wrong password for an account within
its window, or the 20th from one address, every login for it is refused until the window
ends, the right password too, with the same message whether or not the email has an
account. Sign-ups and the password forms (reset, new password from a reset link, change)
count every form sent from an address; a password change counts for the account too, as
its old password is a guess. At most 5 mails an hour go to one email. The address is
api.client_ip's, so every spelling of it, and every address of one IPv6 /64, is
one key.
"""

import math
from dataclasses import dataclass

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django_ratelimit.core import get_usage

from accounts.forms import email_of
from api.client_ip import client_ip

LOGIN_FAILURES_PER_ACCOUNT = "10/15m"
LOGIN_FAILURES_PER_ADDRESS = "20/15m"
SIGNUPS_PER_ADDRESS = "10/h"
PASSWORD_PAGE_FORMS_PER_ADDRESS = "10/h"  # noqa: S105 - a rate, not a password
PASSWORD_PAGE_FORMS_PER_ACCOUNT = "10/h"  # noqa: S105
MAILS_PER_RECIPIENT = "5/h"


@dataclass(frozen=True)
class Limit:
    group: str
    rate: str
    value: str


def _usage(limit: Limit, request, *, increment: bool) -> dict | None:
    return get_usage(
        request,
        group=limit.group,
        key=lambda _group, _request: limit.value,
        rate=limit.rate,
        increment=increment,
    )


def _wait_minutes(limits: list[Limit], request, *, increment: bool) -> int | None:
    """Minutes until every limit allows another try (at least 1); None if they all do now.

    With `increment`, this try is counted first."""
    waits = []
    for limit in limits:
        usage = _usage(limit, request, increment=increment)
        if usage is not None and usage["count"] >= usage["limit"] + (1 if increment else 0):
            waits.append(usage["time_left"])
    return math.ceil(max(waits) / 60) if waits else None


def _login_limits(request, email: str) -> list[Limit]:
    return [
        Limit("login-failures-account", LOGIN_FAILURES_PER_ACCOUNT, email),
        Limit("login-failures-address", LOGIN_FAILURES_PER_ADDRESS, client_ip(request)),
    ]


def login_locked_minutes(request, email: str) -> int | None:
    """Minutes until a login for this email from this address may be tried again."""
    return _wait_minutes(_login_limits(request, email), request, increment=False)


def login_failed(request, email: str) -> None:
    for limit in _login_limits(request, email):
        _usage(limit, request, increment=True)


def signup_wait_minutes(request) -> int | None:
    """Counts a sign-up attempt; the minutes to wait when it is one too many."""
    limit = Limit("signups-address", SIGNUPS_PER_ADDRESS, client_ip(request))
    return _wait_minutes([limit], request, increment=True)


def password_form_wait_minutes(request, form: str) -> int | None:
    """Counts a password form sent (`form`: reset, set, change); the minutes to wait when it
    is one too many, from this address or, for a change, for this account."""
    address = client_ip(request)
    limits = [Limit(f"password-{form}-address", PASSWORD_PAGE_FORMS_PER_ADDRESS, address)]
    if request.user.is_authenticated:
        account = str(request.user.pk)
        limits.append(Limit(f"password-{form}-account", PASSWORD_PAGE_FORMS_PER_ACCOUNT, account))
    return _wait_minutes(limits, request, increment=True)


def mail_allowed(request, email: str) -> bool:
    """Counts a sign-up or reset mail to this email; False from the one too many in its
    window. The mail is then not sent, and the page answers as if it were: the limit keeps
    anyone from filling an inbox from many addresses, and says nothing about the email."""
    limit = Limit("mails-recipient", MAILS_PER_RECIPIENT, email)
    return _wait_minutes([limit], request, increment=True) is None


class ThrottledModelBackend(ModelBackend):
    """Django's password check, behind the login limits: every login form (the website's
    and the admin's) counts its failures, and while an email or an address is locked no
    password is checked. The website's page says why (accounts/pages.py); the admin
    shows its usual refusal."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:  # not a login form (a shell, a command): nothing to throttle
            return super().authenticate(request, username, password, **kwargs)
        email = email_of(username or "")
        if login_locked_minutes(request, email) is not None:
            raise PermissionDenied  # authenticate() stops here, as for a wrong password
        user = super().authenticate(request, username, password, **kwargs)
        if user is None:
            login_failed(request, email)
        return user
