"""Reads about people and their credentials, each scoped to whoever may see them."""

import re

from accounts.models import USER_CODE_ALPHABET, ApiToken, DeviceCode, User
from accounts.tokens import token_digest
from common.cache import RedisUnavailable, lookup_add, lookup_get

_USER_CODE_SEPARATORS = re.compile(r"[\s\-]+")
_USER_CODE = re.compile(rf"^[{USER_CODE_ALPHABET}]{{8}}$")


# What a token's lookup reads of its user: what requests use (the plan, whether it is
# active or staff, how /me names it). The rest, its password hash among it, is not
# read, and so never sits in the token cache.
_USER_FIELDS = ("public_id", "email", "first_name", "plan", "is_active", "is_staff")
_TOKEN_LOOKUP = ApiToken.objects.select_related("user").only(
    *(field.name for field in ApiToken._meta.get_fields() if field.concrete),
    *(f"user__{name}" for name in _USER_FIELDS),
)


def _token_read(digest: str) -> ApiToken | None:
    return _TOKEN_LOOKUP.filter(digest=digest).first()


def token_for_secret(secret: str) -> ApiToken | None:
    """The token with this secret and its user (the user's other fields load on use)."""
    return _token_read(token_digest(secret))


# Token lookups are cached in Redis, which spares every API call with a token its
# database query. Whatever changes a token or its user leaves a short-lived
# tombstone in its place (accounts/services.py token_forget), and lookups only
# fill an empty slot: a lookup that read the row just before the change cannot
# put it back over the tombstone. While Redis is unreachable every lookup reads the
# database, and none cached before the outage is read after it (common/cache.py).
TOKEN_CACHE_SECONDS = 300
TOKEN_TOMBSTONE = "changed"  # noqa: S105 - a cache marker, not a secret
TOKEN_TOMBSTONE_SECONDS = 30


def token_cache_key(digest: str) -> str:
    return f"token:{digest}"


def token_for_digest(digest: str) -> ApiToken | None:
    """The token with this SHA-256, from the cache when there, else from the database."""
    key = token_cache_key(digest)
    try:
        cached = lookup_get(key)
    except RedisUnavailable:
        cached = TOKEN_TOMBSTONE  # as good as one: read the database, cache nothing
    if isinstance(cached, ApiToken):
        return cached
    token = _token_read(digest)
    if token is not None and cached is None:
        lookup_add(key, token, TOKEN_CACHE_SECONDS)
    return token


def tokens_of(user: User):
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def token_of(user: User, pk: int) -> ApiToken | None:
    """One of this user's tokens; another user's token is as absent as an unknown one."""
    return tokens_of(user).filter(pk=pk).first()


def user_code_normalise(text: str) -> str | None:
    """What a person typed, as stored: any case, with or without the dash or spaces."""
    code = _USER_CODE_SEPARATORS.sub("", text or "").upper()
    return code if _USER_CODE.match(code) else None


def device_code_for_user_code(text: str) -> DeviceCode | None:
    code = user_code_normalise(text)
    if code is None:
        return None
    return DeviceCode.objects.filter(user_code=code).first()
