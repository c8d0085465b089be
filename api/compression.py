"""JSON answers compressed for the clients that ask: Brotli or gzip.

Only JSON of at least COMPRESS_MIN_BYTES (1 KB: below that a few hundred bytes are
saved at most, less than the headers of the answer). Never an answer marked
`Cache-Control: no-store`: those are the ones that carry a secret (a device code, a
new token, a signed download link), and a secret compressed beside text an attacker
can choose leaks through the answer's size (BREACH).

The ETag of a compressed answer is made weak: the compressed bytes are another
representation, whose strong validator would have to differ (RFC 9110, 8.8.1), and
If-None-Match compares weakly, so either form of the tag still revalidates to a 304.
This middleware sits outside Django's ConditionalGetMiddleware, which answers
If-None-Match before anything is compressed.
"""

import gzip
from collections.abc import Callable

import brotli
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

from api.http import weights

# Measured on a 10 MB domain list (bench/compression.py): Brotli 5 is about as fast as
# gzip 6 and a little smaller; higher qualities cost many times the time for 1-2%.
BROTLI_QUALITY = 5
GZIP_LEVEL = 6

CODERS: dict[str, Callable[[bytes], bytes]] = {
    "br": lambda data: brotli.compress(data, quality=BROTLI_QUALITY, mode=brotli.MODE_TEXT),
    "gzip": lambda data: gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0),
}


def accepted_coding(accept_encoding: str) -> str | None:
    """The content coding to answer with: the one of CODERS the client weighs highest
    (Brotli on a tie: it is the smaller), None when it accepts neither."""
    asked = weights(accept_encoding)
    best, best_weight = None, 0.0
    for coding in CODERS:
        weight = asked.get(coding, asked.get("*", 0.0))
        if weight > best_weight:
            best, best_weight = coding, weight
    return best


def _compressible(response: HttpResponse) -> bool:
    if response.streaming or response.has_header("Content-Encoding"):
        return False
    media_type = response.get("Content-Type", "").split(";", 1)[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        return False
    if "no-store" in response.get("Cache-Control", "").lower():
        return False
    return len(response.content) >= settings.COMPRESS_MIN_BYTES


class CompressionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 304:
            # A 304 carries the Vary its 200 would have (RFC 9110, 15.4.5).
            patch_vary_headers(response, ("Accept-Encoding",))
            return response
        if not _compressible(response):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        coding = accepted_coding(request.headers.get("Accept-Encoding", ""))
        if coding is None:
            return response
        response.content = CODERS[coding](response.content)
        response["Content-Encoding"] = coding
        response["Content-Length"] = str(len(response.content))
        etag = response.get("ETag")
        if etag and not etag.startswith("W/"):
            response["ETag"] = "W/" + etag
        return response
