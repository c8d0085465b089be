"""The OWASP API Security Top 10 (2023) against this API: what a caller may consume.
API4 (resource consumption) and API6 (sensitive business flows).

One section per item (owasp.org/API-Security/editions/2023/en/0x11-t10), each with tests
of its own; the other items are in test_owasp_access.py and test_owasp_surface.py. Where
another module already covers a case in depth, the test here takes another angle and
says where the rest is.
"""

import struct
import threading
import time
import zlib

import pytest
import time_machine
from django.db import close_old_connections
from rest_framework.test import APIClient

from accounts.models import Plan
from directory.catalogue.models import Logo
from directory.downloads.models import Download
from proposals.models import MAX_FILE_BYTES, Proposal
from tests.factories import (
    LogoFactory,
    UserFactory,
    add_file,
    bearer,
    png_bytes,
    svg_bytes,
    token_for,
)
from tests.security.uploads import SVG_NS, propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def window_start():
    """Frozen at the start of a rate-limit window, so that no test straddles two."""
    now = int(time.time())
    with time_machine.travel(now - now % 60 + 60, tick=False) as traveller:
        yield traveller


# API4:2023 Unrestricted Resource Consumption


def _png_claiming(width: int, height: int) -> bytes:
    """A small PNG file whose header claims width x height pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 1024, 9))
        + chunk(b"IEND", b"")
    )


def test_it_refuses_an_upload_one_byte_over_the_limit(api):
    secret = token_for()
    data = svg_bytes()[:-6] + b"<!--" + b"x" * MAX_FILE_BYTES + b"-->" + b"</svg>"
    data = data[: MAX_FILE_BYTES + 1]

    response = propose(api, secret, data)

    assert response.status_code == 413
    assert response.json()["error"] == "FILE_TOO_LARGE"
    assert Proposal.objects.count() == 0


def test_it_refuses_a_decompression_bomb_before_decoding_it(api):
    bomb = _png_claiming(50_000, 50_000)  # 2.5 gigapixels in a few hundred bytes
    assert len(bomb) < 1000

    response = propose(api, token_for(), bomb, name="logo.png")

    assert response.status_code == 415
    assert response.json()["error"] == "UNSUPPORTED_FILE"
    assert Proposal.objects.count() == 0


def test_it_refuses_a_bomb_in_its_own_words_not_pillows(api):
    response = propose(api, token_for(), _png_claiming(50_000, 50_000), name="logo.png")

    assert response.json()["message"] == (
        "Refused: the PNG image declares more pixels than are accepted."
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">&x;</svg>',
            "Refused: the SVG declares a DTD or entities, which are not accepted.",
        ),
        (
            b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect></svg>',
            "Refused: the SVG is not well-formed XML (line 1, column 67).",
        ),
    ],
)
def test_it_refuses_a_hostile_or_broken_svg_in_its_own_words(api, data, message):
    response = propose(api, token_for(), data)

    assert (response.status_code, response.json()["message"]) == (415, message)
    assert "DTDForbidden" not in response.json()["message"]


@pytest.mark.parametrize(
    ("markup", "threat"),
    [
        ('<a href="java\tscript:alert(1)"><rect width="1" height="1"/></a>', "outside the file"),
        (
            '<rect width="1" height="1" fill="red" onload="x" data-x="java&#9;script:alert(1)"/>',
            "event handler",
        ),
        ('<rect width="1" height="1" data-x="java&#9;script:alert(1)"/>', "javascript:"),
        (
            '<rect width="1" height="1" style="fill:image-set(\'http://evil.example/x.png\' 1x)"/>',
            "outside the file",
        ),
        ('<rect width="1" height="1" style="fill:u\\72l(http://evil.example/)"/>', "CSS escapes"),
        ("<style>rect{fill:u\\72l(http://evil.example/)}</style>", "CSS escapes"),
        ("<style>rect{fill:image-set('http://evil.example/x.png' 1x)}</style>", "from outside"),
        ('<rect width="1" height="1" fill="url(http://evil.example/#g)"/>', "outside the file"),
    ],
)
def test_it_refuses_disguised_scripts_and_outside_references_at_upload(api, markup, threat):
    data = f'<svg xmlns="{SVG_NS}" viewBox="0 0 1 1">{markup}</svg>'.encode()

    response = propose(api, token_for(), data)

    assert response.status_code == 415, markup
    assert response.json()["message"].startswith("Refused: the SVG is unsafe: ")
    assert threat in response.json()["message"]


def test_it_refuses_a_png_with_a_page_appended_rather_than_store_it(api):
    polyglot = png_bytes() + b"<html><script>alert(document.domain)</script></html>"

    response = propose(api, token_for(), polyglot, name="logo.png")

    assert response.status_code == 415
    assert response.json()["message"] == (
        "Refused: the PNG has 52 bytes of other data after its end."
    )
    assert Proposal.objects.count() == 0


@pytest.mark.parametrize(
    "query",
    [
        {"pageSize": "51"},
        {"pageSize": "100000"},
        {"page": "501"},
        {"q": "x" * 101},
    ],
)
def test_it_refuses_oversized_list_requests(api, query):
    response = api.get("/v1/public/logos", query)

    assert response.status_code == 400
    assert response.json()["error"] == "INVALID_REQUEST"


def test_it_rate_limits_an_address_with_retry_after(api, window_start):
    answers = [api.get("/v1/public/domains", REMOTE_ADDR="203.0.113.7") for _ in range(21)]

    assert [r.status_code for r in answers] == [200] * 20 + [429]
    assert answers[-1].json()["error"] == "RATE_LIMITED"
    assert int(answers[-1]["Retry-After"]) >= 1


# API6:2023 Unrestricted Access to Sensitive Business Flows
# A FREE account's last unit under ten threads: tests/directory/downloads/test_downloads.py.


@pytest.mark.django_db(transaction=True)
def test_it_grants_an_anonymous_address_exactly_its_quota_under_simultaneous_requests():
    logos = [LogoFactory() for _ in range(10)]
    for logo in logos:
        add_file(logo, svg_bytes())
    barrier = threading.Barrier(len(logos))
    statuses = []

    def download(logo: Logo) -> None:
        try:
            client = APIClient(REMOTE_ADDR="198.51.100.20")
            barrier.wait()
            response = client.post(
                f"/v1/public/logos/{logo.id}/download", {"format": "SVG"}, format="json"
            )
            statuses.append(response.status_code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=download, args=(logo,)) for logo in logos]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [200] * 3 + [429] * 7
    assert Download.objects.filter(ip="198.51.100.20", counted=True).count() == 3


def test_it_does_not_let_a_free_account_spend_its_quota_twice_on_the_same_logo(api):
    user = UserFactory(plan=Plan.FREE)
    logo = LogoFactory()
    add_file(logo, svg_bytes())
    add_file(logo, png_bytes())
    auth = bearer(token_for(user))

    quotas = [
        api.post(
            f"/v1/public/logos/{logo.id}/download", {"format": file_format}, format="json", **auth
        ).json()["quota"]["used"]
        for file_format in ["SVG", "PNG", "SVG"]
    ]

    assert quotas == [1, 1, 1]
