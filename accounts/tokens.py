"""The API token format: `lgd_`, 36 random base62 characters, a 6-character base62 CRC32.

The checksum is GitHub's scheme: a mistyped or made-up token is refused without a
database read, and secret scanners can tell our tokens from random strings. Only
the SHA-256 of a token is stored; the token itself exists once, in the response
that creates it.
"""

import hashlib
import secrets
import string
import zlib

PREFIX = "lgd_"
ALPHABET = string.digits + string.ascii_uppercase + string.ascii_lowercase
RANDOM_LENGTH = 36
CHECKSUM_LENGTH = 6
LENGTH = len(PREFIX) + RANDOM_LENGTH + CHECKSUM_LENGTH
# What people see to recognise a token: the prefix and the first 8 random characters.
DISPLAY_LENGTH = len(PREFIX) + 8
_ALPHABET_SET = frozenset(ALPHABET)


def _base62(number: int, width: int) -> str:
    digits = []
    while number:
        number, remainder = divmod(number, 62)
        digits.append(ALPHABET[remainder])
    return "".join(reversed(digits)).rjust(width, ALPHABET[0])


def _checksum(random_part: str) -> str:
    return _base62(zlib.crc32(random_part.encode("ascii")), CHECKSUM_LENGTH)


def token_generate() -> str:
    random_part = "".join(secrets.choice(ALPHABET) for _ in range(RANDOM_LENGTH))
    return PREFIX + random_part + _checksum(random_part)


def token_well_formed(token: str) -> bool:
    """The prefix, the length, the alphabet and the checksum: everything short of a lookup."""
    if len(token) != LENGTH or not token.startswith(PREFIX):
        return False
    body = token[len(PREFIX) :]
    if not _ALPHABET_SET.issuperset(body):
        return False
    random_part, checksum = body[:RANDOM_LENGTH], body[RANDOM_LENGTH:]
    return secrets.compare_digest(_checksum(random_part), checksum)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def token_display_prefix(token: str) -> str:
    return token[:DISPLAY_LENGTH]
