"""The token format: lgd_, 36 random base62 characters, a base62 CRC32 of them."""

import hashlib
import re
import zlib

from accounts.tokens import (
    ALPHABET,
    token_digest,
    token_display_prefix,
    token_generate,
    token_well_formed,
)


def _base62(number: int) -> str:
    digits = ""
    while number:
        number, remainder = divmod(number, 62)
        digits = ALPHABET[remainder] + digits
    return digits.rjust(6, "0")


def test_it_makes_tokens_of_the_documented_shape():
    token = token_generate()

    assert re.fullmatch(r"lgd_[0-9A-Za-z]{42}", token)
    assert token[-6:] == _base62(zlib.crc32(token[4:40].encode()))


def test_it_never_makes_the_same_token_twice():
    assert len({token_generate() for _ in range(1000)}) == 1000


def test_it_accepts_what_it_makes():
    assert all(token_well_formed(token_generate()) for _ in range(200))


def test_it_refuses_a_token_with_one_character_changed():
    token = token_generate()
    changed = token[:10] + ("A" if token[10] != "A" else "B") + token[11:]

    assert not token_well_formed(changed)


def test_it_refuses_other_shapes():
    token = token_generate()

    assert not token_well_formed(token[:-1])
    assert not token_well_formed(token + "0")
    assert not token_well_formed("ghp_" + token[4:])
    assert not token_well_formed(token[:20] + "-" + token[21:])
    assert not token_well_formed("")


def test_it_stores_a_sha256_and_shows_the_first_eight_characters():
    token = "lgd_" + "a" * 36 + _base62(zlib.crc32(b"a" * 36))

    assert token_digest(token) == hashlib.sha256(token.encode()).hexdigest()
    assert token_display_prefix(token) == "lgd_aaaaaaaa"
