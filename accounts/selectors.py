"""Reads about people and their credentials, each scoped to whoever may see them."""

import re

from django.db import connection

from accounts.models import USER_CODE_ALPHABET, ApiToken, DeviceCode, User
from accounts.tokens import token_digest
from config.cache import RedisUnavailable, lookup_add, lookup_get

_USER_CODE_SEPARATORS = re.compile(r"[\s\-]+")
_USER_CODE = re.compile(rf"^[{USER_CODE_ALPHABET}]{{8}}$")


# Every API call with a token runs this: one statement written out, since building
# it through the ORM cost three times the database round trip (bench/auth.py).
def _columns(model, wanted: set[str]) -> list[str]:
    # In the model's field order, which is the order Model.from_db expects.
    return [field.attname for field in model._meta.concrete_fields if field.attname in wanted]


_TOKEN_FIELDS = _columns(ApiToken, {field.attname for field in ApiToken._meta.concrete_fields})
_USER_FIELDS = _columns(
    User, {"id", "public_id", "email", "first_name", "plan", "is_active", "is_staff"}
)
# The column and table names come from the models, never from input.
_LOOKUP_SQL = (
    "SELECT "  # noqa: S608
    + ", ".join([*(f"t.{name}" for name in _TOKEN_FIELDS), *(f"u.{name}" for name in _USER_FIELDS)])
    + f" FROM {ApiToken._meta.db_table} t JOIN {User._meta.db_table} u ON u.id = t.user_id"
    + " WHERE t.digest = %s"
)


def _token_row(digest: str) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(_LOOKUP_SQL, [digest])
        return cursor.fetchone()


def _token_from_row(row: tuple) -> ApiToken:
    split = len(_TOKEN_FIELDS)
    token = ApiToken.from_db(connection.alias, _TOKEN_FIELDS, row[:split])
    token.user = User.from_db(connection.alias, _USER_FIELDS, row[split:])
    return token


def token_for_secret(secret: str) -> ApiToken | None:
    """The token with this secret and its user (the user's other fields load on use)."""
    row = _token_row(token_digest(secret))
    return None if row is None else _token_from_row(row)


# Token lookups are cached in Redis, which spares every API call with a token its
# database query. Whatever changes a token or its user leaves a short-lived
# tombstone in its place (accounts/services.py token_forget), and lookups only
# fill an empty slot: a lookup that read the row just before the change cannot
# put it back over the tombstone. While Redis is unreachable every lookup reads the
# database, and none cached before the outage is read after it (config/cache.py).
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
    if isinstance(cached, tuple):
        return _token_from_row(cached)
    row = _token_row(digest)
    if row is None:
        return None
    if cached is None:
        lookup_add(key, row, TOKEN_CACHE_SECONDS)
    return _token_from_row(row)


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
