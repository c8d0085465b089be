"""Reads about people and their credentials, each scoped to whoever may see them."""

import re

from accounts.models import USER_CODE_ALPHABET, ApiToken, DeviceCode, User
from accounts.tokens import token_digest

_USER_CODE_SEPARATORS = re.compile(r"[\s\-]+")
_USER_CODE = re.compile(rf"^[{USER_CODE_ALPHABET}]{{8}}$")


def token_for_secret(secret: str) -> ApiToken | None:
    return ApiToken.objects.select_related("user").filter(digest=token_digest(secret)).first()


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
