"""JSON answers over 1 KB are compressed for the clients that ask, with ETags that still
revalidate, and never when they carry a secret (BREACH)."""

import gzip
import json

import brotli
import pytest

from accounts.models import DeviceCode
from accounts.services import device_code_decide
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    UserFactory,
    add_file,
    bearer,
    svg_bytes,
    token_for,
)

pytestmark = pytest.mark.django_db

DOMAINS = "/v1/public/domains"
DECODERS = {"br": brotli.decompress, "gzip": gzip.decompress}


@pytest.fixture
def domains():
    """A domain list of about 4 KB."""
    for number in range(60):
        CompanyFactory(slug=f"empresa-{number}", website=f"https://www.empresa-{number}.es")


def _vary(response) -> set[str]:
    return {value.strip().lower() for value in response.get("Vary", "").split(",")}


@pytest.mark.parametrize(
    ("accepted", "coding"),
    [
        ("br", "br"),
        ("gzip", "gzip"),
        ("gzip, deflate, br, zstd", "br"),
        ("br;q=0.5, gzip", "gzip"),
        ("gzip;q=0, br;q=0.1", "br"),
        ("*", "br"),
        ("deflate", None),
        ("identity", None),
        ("", None),
    ],
)
def test_it_compresses_a_large_json_answer_as_the_client_asks(client, domains, accepted, coding):
    plain = client.get(DOMAINS)

    response = client.get(DOMAINS, HTTP_ACCEPT_ENCODING=accepted)

    assert response.status_code == 200
    assert len(plain.content) > 1024
    assert "accept-encoding" in _vary(response)
    assert response.get("Content-Encoding") == coding
    body = DECODERS[coding](response.content) if coding else response.content
    assert json.loads(body)["data"] == plain.json()["data"]
    if coding:
        assert int(response["Content-Length"]) == len(response.content) < len(plain.content) / 3


def test_it_compresses_the_openapi_document(client):
    response = client.get("/v1/public/openapi.json", HTTP_ACCEPT_ENCODING="gzip, br")

    assert response["Content-Encoding"] == "br"
    assert json.loads(brotli.decompress(response.content))["openapi"] == "3.0.3"


def test_it_leaves_a_small_answer_alone(client):
    response = client.get("/v1/public/me", HTTP_ACCEPT_ENCODING="gzip, br")

    assert response.json() == {"authenticated": False}
    assert not response.has_header("Content-Encoding")
    assert "accept-encoding" not in _vary(response)


def test_it_never_compresses_a_web_page(client, domains):
    # A page carries a CSRF token beside text from the address (BREACH).
    response = client.get("/", HTTP_ACCEPT_ENCODING="gzip, br")

    assert response.status_code == 200
    assert len(response.content) > 1024
    assert not response.has_header("Content-Encoding")


def test_it_keeps_etags_that_revalidate_compressed_or_not(client, domains):
    compressed = client.get(DOMAINS, HTTP_ACCEPT_ENCODING="gzip")
    plain = client.get(DOMAINS)

    # Another representation: the tag is weak, the same opaque value.
    assert compressed["ETag"] == "W/" + plain["ETag"]
    for tag in (compressed["ETag"], plain["ETag"]):
        for accepted in ("gzip", "br", ""):
            revalidated = client.get(DOMAINS, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_ENCODING=accepted)
            assert revalidated.status_code == 304, (tag, accepted)
            assert revalidated.content == b""
            assert "accept-encoding" in _vary(revalidated)


def _approved_device_code(client) -> str:
    started = client.post(
        "/v1/public/device/code",
        {"source": "FIGMA"},
        content_type="application/json",
        HTTP_ACCEPT_ENCODING="gzip, br",
    )
    assert started.status_code == 200
    assert not started.has_header("Content-Encoding")
    data = started.json()["data"]
    device_code = DeviceCode.objects.get(user_code=data["userCode"].replace("-", ""))
    device_code_decide(device_code=device_code, user=UserFactory(), approve=True)
    return data["deviceCode"]


def test_it_never_compresses_an_answer_that_carries_a_secret(client, settings):
    settings.COMPRESS_MIN_BYTES = 1
    # Below the threshold now, any other answer is compressed.
    assert client.get("/v1/public/me", HTTP_ACCEPT_ENCODING="gzip")["Content-Encoding"] == "gzip"
    logo = LogoFactory(company=CompanyFactory(slug="sol"), slug="sol-2020")
    add_file(logo, svg_bytes())

    new_token = client.post(
        "/v1/public/device/token",
        {"deviceCode": _approved_device_code(client)},
        content_type="application/json",
        HTTP_ACCEPT_ENCODING="gzip, br",
    )
    link = client.post(
        "/v1/public/logos/sol-2020/download",
        {"format": "svg"},
        content_type="application/json",
        HTTP_ACCEPT_ENCODING="gzip, br",
        **bearer(token_for()),
    )

    for response in (new_token, link):
        assert response.status_code == 200
        assert not response.has_header("Content-Encoding")
        assert response.json()["data"]
