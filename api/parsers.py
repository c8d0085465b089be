"""JSON request bodies, bounded before they are parsed.

The largest body the API takes (a palette of its most colours, each a gradient of its
most stops) is a few KiB. A body over MAX_JSON_BYTES is refused before a byte of it
is decoded, and one nested deeper than MAX_JSON_DEPTH before the parser recurses into
it (the standard library's parser gives up with RecursionError, not a ValueError, at
about 1,000 levels): both are INVALID_REQUEST, never a 500. A body over Django's
DATA_UPLOAD_MAX_MEMORY_SIZE is refused by its declared length before DRF reads it
(api/errors.py).
"""

import io
import re
from itertools import accumulate

from rest_framework.parsers import JSONParser

from api.errors import BAD_JSON, invalid_request

MAX_JSON_BYTES = 64 * 1024
MAX_JSON_DEPTH = 32
# A JSON string, escapes included: its brackets are text, not nesting.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")


def json_depth(data: bytes) -> int:
    """How deeply the arrays and objects of a JSON text nest (0 for a scalar)."""
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    steps = (1 if byte in b"[{" else -1 for byte in brackets)
    return max(accumulate(steps), default=0)


def _refused(reason: str):
    return invalid_request({"body": [reason]}, BAD_JSON)


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = stream.read(MAX_JSON_BYTES + 1)
        if len(data) > MAX_JSON_BYTES:
            raise _refused(f"The body is over {MAX_JSON_BYTES:,} bytes.")
        if json_depth(data) > MAX_JSON_DEPTH:
            raise _refused(f"The body nests arrays and objects over {MAX_JSON_DEPTH} deep.")
        return super().parse(io.BytesIO(data), media_type, parser_context)
