"""Writes about people and their credentials: sign-up, tokens and the device-link flow."""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.errors import DeviceFlowErrorCode
from accounts.models import (
    USER_CODE_ALPHABET,
    ApiToken,
    DeviceCode,
    DeviceCodeStatus,
    Plan,
    Scope,
    Source,
    User,
)
from accounts.selectors import TOKEN_TOMBSTONE, TOKEN_TOMBSTONE_SECONDS, token_cache_key
from accounts.tokens import token_digest, token_display_prefix, token_generate
from common.cache import lookup_delete_unless, lookup_set_many

# lastUsedAt is for people deciding which token to revoke; minute precision is
# plenty and spares a write on every request.
LAST_USED_PRECISION = timedelta(minutes=1)

DEVICE_CODE_LIFETIME = timedelta(seconds=900)
DEVICE_POLL_INTERVAL = 5
DEVICE_SLOW_DOWN_STEP = 5
DEVICE_TOKEN_LIFETIME = timedelta(days=365)
DEVICE_TOKEN_NAMES = {Source.FIGMA: "FIGMA plugin", Source.CHROME: "CHROME extension"}


@dataclass(frozen=True)
class IssuedToken:
    """A new token and its secret, which exists only here and in the response that shows it."""

    token: ApiToken
    secret: str


def user_ensure(*, email: str, plan: Plan | None = None) -> User:
    """The user with this email, created without a usable password if missing."""
    email = User.objects.normalize_email(email).lower()
    user = User.objects.filter(email=email).first()
    if user is None:
        user = User.objects.create_user(email, None, **({"plan": plan} if plan else {}))
    elif plan and user.plan != plan:
        user.plan = plan
        user.save(update_fields=["plan"])
        user_tokens_forget(user_ids=[user.pk])
    return user


def user_is_pending(user: User) -> bool:
    """Signed up on the website, its email not confirmed yet: never active, never logged in.
    (An account staff deactivated has logged in before, or was made by staff.)"""
    return not user.is_active and user.last_login is None


def user_signup(*, email: str, password: str, first_name: str | None = None) -> User | None:
    """A sign-up on the website: the account to confirm by email, or None if the email has
    an account already.

    A new account is inactive until its link is opened (user_signup_confirm). A pending
    one takes this sign-up's password and name, which also ends its earlier links (their
    token hashes the password, accounts/mails.py): the email's owner, who may not have
    been the first to sign up with it, confirms the password they chose. For an account
    in use nothing is written, but the password is hashed all the same, so that both
    answers take as long.
    """
    email = User.objects.normalize_email(email).lower()
    user = User.objects.filter(email=email).first()
    if user is None:
        try:
            with transaction.atomic():
                return User.objects.create_user(
                    email, password, first_name=first_name or None, is_active=False
                )
        except IntegrityError:  # the same email signed up a moment before
            user = User.objects.get(email=email)
    if not user_is_pending(user):
        make_password(password)
        return None
    user.set_password(password)
    user.first_name = first_name or None
    user.save(update_fields=["password", "first_name"])
    return user


def user_signup_confirm(*, user: User) -> None:
    user.is_active = True
    user.save(update_fields=["is_active"])


def user_set_password(*, user: User, password: str) -> None:
    user.set_password(password)
    user.save(update_fields=["password"])


# Tokens in use (neither revoked nor expired) an account may hold: far more than its
# tools need, and a bound on what one account can mint. Revoking one makes room.
MAX_LIVE_TOKENS = 50


class TokenLimitReached(Exception):
    def __init__(self) -> None:
        super().__init__(f"the account has {MAX_LIVE_TOKENS} tokens in use already")


def live_token_count(user: User) -> int:
    now = timezone.now()
    return (
        ApiToken.objects.filter(user=user, revoked_at__isnull=True)
        .exclude(expires_at__lte=now)
        .count()
    )


def token_issue(
    *,
    user: User,
    name: str,
    scopes: list[str],
    source: str = Source.API,
    expires_at: datetime | None = None,
) -> IssuedToken:
    """A new token; TokenLimitReached when the account holds MAX_LIVE_TOKENS in use."""
    secret = token_generate()
    with transaction.atomic():
        # The account's row is the lock: simultaneous issues count one at a time.
        list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))
        if live_token_count(user) >= MAX_LIVE_TOKENS:
            raise TokenLimitReached
        token = ApiToken.objects.create(
            user=user,
            name=name,
            prefix=token_display_prefix(secret),
            digest=token_digest(secret),
            scopes=sorted(set(scopes), key=Scope.values.index),
            source=source,
            expires_at=expires_at,
        )
    return IssuedToken(token=token, secret=secret)


def token_revoke(*, token: ApiToken) -> None:
    """Revoke once: a second revocation keeps the first time."""
    now = timezone.now()
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=now)
    token.revoked_at = token.revoked_at or now
    token_forget(digests=[token.digest])


def token_touch(*, token: ApiToken) -> None:
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < LAST_USED_PRECISION:
        return
    touched = ApiToken.objects.filter(
        Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_PRECISION), pk=token.pk
    ).update(last_used_at=now)
    token.last_used_at = now
    if touched:
        # The next lookup reads the new time from the database, once a minute per
        # token. A tombstone stays: it stands for a change that matters more.
        lookup_delete_unless(token_cache_key(token.digest), TOKEN_TOMBSTONE)


def user_tokens_forget(*, user_ids: list[int]) -> None:
    """token_forget for every token of these users, for a change to what a lookup
    carries about them (plan, active flag) or to their existence."""
    token_forget(
        digests=list(ApiToken.objects.filter(user__in=user_ids).values_list("digest", flat=True))
    )


def token_forget(*, digests: list[str]) -> None:
    """Drops cached lookups of these tokens, for the change to them being made.

    Call it for every write to a token or to its user's fields that a lookup
    carries (accounts/selectors.py); the cache would otherwise serve the old row
    for up to TOKEN_CACHE_SECONDS. The tombstone goes in at once, so that no lookup
    caches the row while the change is on its way, and again after the commit, in
    case the transaction outlived the first one. A rolled-back change costs no more
    than a few uncached lookups. With Redis unreachable the tombstones are lost, and
    the new lookup epoch that ends the outage stands for them (common/cache.py).
    """
    if not digests:
        return
    tombstones = dict.fromkeys(map(token_cache_key, digests), TOKEN_TOMBSTONE)
    lookup_set_many(tombstones, TOKEN_TOMBSTONE_SECONDS)
    transaction.on_commit(lambda: lookup_set_many(tombstones, TOKEN_TOMBSTONE_SECONDS))


def _device_digest(device_code: str) -> str:
    return hashlib.sha256(device_code.encode()).hexdigest()


@dataclass(frozen=True)
class StartedDeviceCode:
    device_code: DeviceCode
    secret: str


def device_code_start(*, source: str, client_name: str = "") -> StartedDeviceCode:
    now = timezone.now()
    secret = secrets.token_urlsafe(32)  # 43 URL-safe characters
    while True:
        user_code = "".join(secrets.choice(USER_CODE_ALPHABET) for _ in range(8))
        try:
            with transaction.atomic():
                device_code = DeviceCode.objects.create(
                    digest=_device_digest(secret),
                    user_code=user_code,
                    source=source,
                    client_name=client_name,
                    interval=DEVICE_POLL_INTERVAL,
                    created_at=now,
                    expires_at=now + DEVICE_CODE_LIFETIME,
                )
        except IntegrityError:
            # 20^8 codes: a clash with a stored code is rare, and a new draw fixes it.
            continue
        return StartedDeviceCode(device_code=device_code, secret=secret)


class DeviceCodeNotPending(Exception):
    """The code was already decided, or it expired, before this decision."""

    def __init__(self, device_code: DeviceCode, reason: str) -> None:
        super().__init__(reason)
        self.device_code = device_code
        self.reason = reason


def device_code_decide(*, device_code: DeviceCode, user: User, approve: bool) -> DeviceCode:
    """Approve or deny for this user: the grant is bound to the person who decided."""
    with transaction.atomic():
        locked = DeviceCode.objects.select_for_update().get(pk=device_code.pk)
        now = timezone.now()
        if locked.status != DeviceCodeStatus.PENDING:
            raise DeviceCodeNotPending(locked, "already decided")
        if locked.is_expired(now):
            raise DeviceCodeNotPending(locked, "expired")
        locked.status = DeviceCodeStatus.APPROVED if approve else DeviceCodeStatus.DENIED
        locked.user = user
        locked.decided_at = now
        locked.save(update_fields=["status", "user", "decided_at"])
    return locked


class DeviceFlowError(Exception):
    """An RFC 8628 §3.5 answer to a poll that does not get a token."""

    def __init__(self, error: DeviceFlowErrorCode, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message


def device_code_exchange(*, secret: str) -> IssuedToken:
    """One poll of the plugin: a token exactly once, after approval.

    The row is locked for the whole check-and-issue, so simultaneous polls are
    answered one after the other and only the first after approval gets the token.
    """
    with transaction.atomic():
        device_code = (
            DeviceCode.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(digest=_device_digest(secret))
            .first()
        )
        if device_code is None or device_code.status == DeviceCodeStatus.EXCHANGED:
            raise DeviceFlowError(
                DeviceFlowErrorCode.INVALID_GRANT,
                "Unknown device code, or already exchanged for a token.",
            )
        now = timezone.now()
        if device_code.is_expired(now):
            raise DeviceFlowError(
                DeviceFlowErrorCode.EXPIRED_TOKEN, "The device code expired; start again."
            )
        refusal = _device_poll_refusal(device_code, now)
        if refusal is None:
            try:
                issued = token_issue(
                    user=device_code.user,
                    name=device_code.client_name or DEVICE_TOKEN_NAMES[device_code.source],
                    scopes=Scope.values,
                    source=device_code.source,
                    expires_at=now + DEVICE_TOKEN_LIFETIME,
                )
            except TokenLimitReached:
                # Approved while the account was full: no token, and the plugin stops.
                device_code.status = DeviceCodeStatus.DENIED
                refusal = DeviceFlowError(
                    DeviceFlowErrorCode.ACCESS_DENIED,
                    f"The account has {MAX_LIVE_TOKENS} tokens in use; revoke one on the "
                    "website and start again.",
                )
            else:
                device_code.status = DeviceCodeStatus.EXCHANGED
                device_code.token = issued.token
        device_code.save(update_fields=["last_polled_at", "interval", "status", "token"])
    # Raised after the commit: the poll time and a slowed-down interval must be kept.
    if refusal is not None:
        raise refusal
    return issued


def _device_poll_refusal(device_code: DeviceCode, now: datetime) -> DeviceFlowError | None:
    """Records this poll on the (locked) row and says why it gets no token, if it does not."""
    last_polled_at, device_code.last_polled_at = device_code.last_polled_at, now
    if last_polled_at is not None and now - last_polled_at < timedelta(
        seconds=device_code.interval
    ):
        # RFC 8628 §3.5: the interval grows by 5 s for this and every later poll.
        device_code.interval += DEVICE_SLOW_DOWN_STEP
        return DeviceFlowError(
            DeviceFlowErrorCode.SLOW_DOWN,
            f"Polling too fast: wait at least {device_code.interval} s between polls.",
        )
    if device_code.status == DeviceCodeStatus.DENIED:
        return DeviceFlowError(DeviceFlowErrorCode.ACCESS_DENIED, "The user denied the request.")
    if device_code.status == DeviceCodeStatus.PENDING:
        return DeviceFlowError(
            DeviceFlowErrorCode.AUTHORIZATION_PENDING, "The user has not confirmed yet."
        )
    return None


def device_codes_prune(*, older_than: timedelta) -> int:
    """Delete codes that expired more than `older_than` ago; their user codes become free."""
    deleted, _ = DeviceCode.objects.filter(expires_at__lt=timezone.now() - older_than).delete()
    return deleted
