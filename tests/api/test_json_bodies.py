"""Malformed JSON bodies are refused with the error envelope, never a 500: a body too
large or nested too deeply is refused before it is parsed."""

import json

import pytest

from api.parsers import MAX_JSON_BYTES, MAX_JSON_DEPTH, json_depth
from tests.factories import bearer, token_for

pytestmark = pytest.mark.django_db

ANONYMOUS = ["/v1/public/device/code", "/v1/public/device/token"]


@pytest.fixture
def palette_auth():
    return bearer(token_for())


def _endpoints(palette_auth):
    palette = ("/v1/public/palettes", palette_auth)
    return [(path, {}) for path in ANONYMOUS] + [palette]


def _post(api, path: str, body: bytes, headers: dict):
    return api.generic("POST", path, body, content_type="application/json", **headers)


def _refused(response) -> dict:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == "INVALID_REQUEST"
    assert set(body) == {"error", "message", "details"}
    return body


def test_it_refuses_json_nested_a_thousand_levels_deep(api, palette_auth):
    body = b"[" * 1000 + b"]" * 1000
    for path, headers in _endpoints(palette_auth):
        refused = _refused(_post(api, path, body, headers))
        assert refused["details"] == {
            "body": [f"The body nests arrays and objects over {MAX_JSON_DEPTH} deep."]
        }


@pytest.mark.parametrize(
    ("size", "limit"), [(MAX_JSON_BYTES + 1, MAX_JSON_BYTES), (3 * 1024 * 1024, 2621440)]
)
def test_it_refuses_a_json_body_over_the_size_limit(api, palette_auth, size, limit):
    body = json.dumps({"source": "FIGMA", "clientName": ""}).encode()
    body = body[:-2] + b"x" * (size - len(body)) + b'"}'
    for path, headers in _endpoints(palette_auth):
        refused = _refused(_post(api, path, body, headers))
        assert refused["details"] == {"body": [f"The body is over {limit:,} bytes."]}


def test_it_refuses_unterminated_and_broken_json_as_invalid(api, palette_auth):
    for body in (b"{", b'{"source": "FIG', b"[1, 2", b"\xff\xfe", b'{"a": NaN}'):
        for path, headers in _endpoints(palette_auth):
            _refused(_post(api, path, body, headers))


def test_it_counts_depth_outside_strings_only():
    assert json_depth(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == 1
    assert json_depth(b'{"a": "\\"[[[["}') == 1
    assert json_depth(b"[[[]], {}]") == 3
    assert json_depth(b"12") == 0
