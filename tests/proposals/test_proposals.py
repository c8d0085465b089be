"""Proposing logos: a multipart upload judged by its bytes, 10 a day, private until reviewed."""

import struct
import threading
import zlib
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import close_old_connections
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Scope, Source
from api.times import timestamp
from proposals.models import MAX_FILE_BYTES, Proposal
from tests.factories import (
    PDF_BYTES,
    CompanyFactory,
    LogoFactory,
    UserFactory,
    bearer,
    png_bytes,
    raster_bytes,
    svg_bytes,
    token_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitter():
    return UserFactory()


@pytest.fixture
def auth(submitter):
    return bearer(token_for(submitter, source=Source.FIGMA))


def _upload(data: bytes, name: str = "logo.png", content_type: str = "image/png"):
    return SimpleUploadedFile(name, data, content_type=content_type)


def _propose(api, auth, data: bytes = b"", **fields):
    body = {"companyName": "Panadería Sol", **fields}
    if "file" not in fields:
        body["file"] = _upload(data or png_bytes())
    return api.post("/v1/public/proposals", body, format="multipart", **auth)


def _stored_files() -> list[Path]:
    folder = Path(settings.STORAGES["default"]["OPTIONS"]["location"]) / "proposals"
    return sorted(folder.iterdir()) if folder.exists() else []


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["error"] == code
    return body


def _png_of_exact_size(size: int) -> bytes:
    """A valid PNG padded to `size` bytes with a private ancillary chunk."""
    png = png_bytes()
    iend = png.rindex(b"IEND") - 4
    padding = size - len(png) - 12  # length, type and CRC of the padding chunk
    chunk_type = b"ppAd"
    data = b"\0" * padding
    chunk = struct.pack(">I", padding) + chunk_type + data
    chunk += struct.pack(">I", zlib.crc32(chunk_type + data))
    result = png[:iend] + chunk + png[iend:]
    assert len(result) == size
    return result


# Submitting


def test_it_records_a_pending_proposal_and_keeps_the_file_private(api, auth, submitter):
    response = _propose(
        api,
        auth,
        png_bytes(),
        website="panaderiasol.es",
        sourceUrl="https://panaderiasol.es/about",
        notes="From their shop window.",
    )

    assert response.status_code == 201
    proposal = Proposal.objects.get()
    assert response.json() == {
        "data": {
            "id": str(proposal.id),
            "status": "PENDING",
            "companyName": "Panadería Sol",
            "company": None,
            "logo": None,
            "website": "panaderiasol.es",
            "sourceUrl": "https://panaderiasol.es/about",
            "notes": "From their shop window.",
            "file": {
                "filename": "logo.png",
                "format": "PNG",
                "size": len(png_bytes()),
                "contentType": "image/png",
            },
            "source": "FIGMA",
            "createdAt": timestamp(proposal.created_at),
            "reviewedAt": None,
            "reviewNote": None,
        }
    }
    assert proposal.submitter == submitter
    [stored] = _stored_files()
    assert stored.read_bytes() == png_bytes()
    assert "logo" not in stored.name  # a generated name, never the client's
    assert proposal.file.name == f"proposals/{stored.name}"


def test_it_names_an_existing_company_by_slug(api, auth):
    CompanyFactory(slug="sol", name="Panadería Sol S.L.")

    data = _propose(api, auth, companySlug="sol", companyName="").json()["data"]

    assert (data["companyName"], data["company"]) == (
        "Panadería Sol S.L.",
        {"slug": "sol", "name": "Panadería Sol S.L."},
    )


def test_it_names_a_logo_to_update_by_id_or_slug(api, auth):
    company = CompanyFactory(slug="sol", name="Sol")
    logo = LogoFactory(company=company, slug="sol-2019")

    by_id = _propose(api, auth, companySlug="sol", logoId=str(logo.id)).json()["data"]
    by_slug = _propose(api, auth, logoId="sol-2019").json()["data"]

    assert by_id["logo"] == by_slug["logo"] == {"id": str(logo.id), "slug": "sol-2019"}
    assert by_slug["company"] == {"slug": "sol", "name": "Sol"}


def test_it_refuses_an_unknown_company_or_logo(api, auth):
    company = _propose(api, auth, companySlug="nadie")
    logo = _propose(api, auth, logoId="nada")

    assert _error(company, 404, "COMPANY_NOT_FOUND")
    assert _error(logo, 404, "LOGO_NOT_FOUND")
    assert not Proposal.objects.exists()
    assert _stored_files() == []


def test_it_refuses_a_logo_of_another_company(api, auth):
    CompanyFactory(slug="sol")
    logo = LogoFactory(company=CompanyFactory(slug="luna"))

    response = _propose(api, auth, companySlug="sol", logoId=str(logo.id))

    assert set(_error(response, 400, "INVALID_REQUEST")["details"]) == {"logoId"}
    assert not Proposal.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"companyName": ""}, "companyName"),
        ({"companyName": "x" * 256}, "companyName"),
        ({"companySlug": "x" * 256}, "companySlug"),
        ({"website": "x" * 256}, "website"),
        ({"sourceUrl": "not a url"}, "sourceUrl"),
        ({"sourceUrl": "https://example.com/" + "x" * 2030}, "sourceUrl"),
        ({"notes": "x" * 1001}, "notes"),
        ({"file": "just text"}, "file"),
    ],
)
def test_it_refuses_bad_fields_and_stores_nothing(api, auth, fields, field):
    response = _propose(api, auth, **fields)

    assert set(_error(response, 400, "INVALID_REQUEST")["details"]) == {field}
    assert not Proposal.objects.exists()
    assert _stored_files() == []


def test_it_needs_a_file(api, auth):
    response = api.post("/v1/public/proposals", {"companyName": "Sol"}, format="multipart", **auth)

    assert set(_error(response, 400, "INVALID_REQUEST")["details"]) == {"file"}


def test_it_wants_a_multipart_body(api, auth):
    response = api.post("/v1/public/proposals", {"companyName": "Sol"}, format="json", **auth)

    _error(response, 400, "INVALID_REQUEST")


# Files are judged by their bytes


@pytest.mark.parametrize(
    ("data", "file_format", "content_type"),
    [
        (svg_bytes(), "SVG", "image/svg+xml"),
        (png_bytes(), "PNG", "image/png"),
        (raster_bytes("JPEG"), "JPEG", "image/jpeg"),
        (raster_bytes("WEBP"), "WEBP", "image/webp"),
    ],
)
def test_it_accepts_each_format(api, auth, data, file_format, content_type):
    response = _propose(api, auth, file=_upload(data, "upload.bin", "application/octet-stream"))

    assert response.json()["data"]["file"] == {
        "filename": "upload.bin",
        "format": file_format,
        "size": len(data),
        "contentType": content_type,
    }


def test_it_takes_a_png_named_svg_for_a_png(api, auth):
    response = _propose(api, auth, file=_upload(png_bytes(), "logo.svg", "image/svg+xml"))

    assert response.json()["data"]["file"]["format"] == "PNG"


def test_it_takes_an_svg_declared_as_png_for_an_svg(api, auth):
    response = _propose(api, auth, file=_upload(svg_bytes(), "logo.png", "image/png"))

    assert response.json()["data"]["file"]["format"] == "SVG"


BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;">'
    b'<!ENTITY c "&b;&b;&b;&b;&b;">]><svg xmlns="http://www.w3.org/2000/svg">&c;</svg>'
)
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">%s</svg>'


def _huge_png_header() -> bytes:
    """A PNG that claims 100,000 x 100,000 pixels: a decompression bomb."""
    ihdr = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 6, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
        + png_bytes()[33:]
    )


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"just some text", id="text"),
        pytest.param(PDF_BYTES, id="pdf"),
        pytest.param(raster_bytes("GIF"), id="gif"),
        pytest.param(png_bytes()[:60], id="truncated png"),
        pytest.param(b"\x89PNG\r\n\x1a\n<html><script>alert(1)</script></html>", id="polyglot"),
        pytest.param(_huge_png_header(), id="decompression bomb"),
        pytest.param(BILLION_LAUGHS, id="billion laughs"),
        pytest.param(SVG % b"<script>alert(1)</script>", id="script"),
        pytest.param(SVG % b'<rect width="1" height="1" onload="alert(1)"/>', id="onload"),
        pytest.param(
            SVG % b"<foreignObject><div xmlns='http://www.w3.org/1999/xhtml'/></foreignObject>",
            id="foreignObject",
        ),
        pytest.param(SVG % b'<image href="https://evil.example/x.png"/>', id="external image"),
        pytest.param(b"<svg><rect></svg>", id="malformed svg"),
        pytest.param(b'<html xmlns="http://www.w3.org/1999/xhtml"/>', id="not svg"),
    ],
)
def test_it_refuses_what_is_not_a_safe_image_and_stores_nothing(api, auth, data):
    response = _propose(api, auth, file=_upload(data, "logo.png", "image/png"))

    _error(response, 415, "UNSUPPORTED_FILE")
    assert not Proposal.objects.exists()
    assert _stored_files() == []


def test_it_accepts_exactly_five_mebibytes(api, auth):
    data = _png_of_exact_size(MAX_FILE_BYTES)

    response = _propose(api, auth, data)

    assert response.status_code == 201
    assert response.json()["data"]["file"]["size"] == 5_242_880


def test_it_refuses_one_byte_more(api, auth):
    response = _propose(api, auth, _png_of_exact_size(MAX_FILE_BYTES + 1))

    assert _error(response, 413, "FILE_TOO_LARGE")["message"] == (
        "The file is over 5242880 bytes (5 MiB)."
    )
    assert not Proposal.objects.exists()
    assert _stored_files() == []


def test_it_refuses_a_far_larger_body_by_its_declared_length(api, auth):
    response = _propose(api, auth, b"\x89PNG\r\n\x1a\n" + b"\0" * (6 * 1024 * 1024))

    _error(response, 413, "FILE_TOO_LARGE")


# Limits, tokens and scopes


def test_it_allows_ten_proposals_a_day(api, auth, submitter):
    start = timezone.now()
    for hour in range(10):
        with time_machine.travel(start + timedelta(hours=hour)):
            assert _propose(api, auth).status_code == 201

    with time_machine.travel(start + timedelta(hours=23), tick=False):
        refused = _propose(api, auth)
    with time_machine.travel(start + timedelta(hours=24, seconds=1)):
        allowed = _propose(api, auth)

    body = _error(refused, 429, "PROPOSAL_LIMIT_REACHED")
    assert 3600 <= int(refused["Retry-After"]) <= 3601
    assert body["message"].startswith("10 proposals in the last 24 hours already")
    assert allowed.status_code == 201
    assert Proposal.objects.filter(submitter=submitter).count() == 11
    assert len(_stored_files()) == 11


def test_it_refuses_an_account_at_its_daily_limit_before_reading_its_upload(
    api, auth, submitter, propose
):
    for _ in range(10):
        propose(submitter=submitter)

    # Each would be refused by a later check (size, type, a broken form) if it were read.
    too_large = _propose(api, auth, b"\x89PNG\r\n\x1a\n" + b"\0" * (6 * 1024 * 1024))
    not_an_image = _propose(api, auth, b"%PDF-1.4 not a logo")
    broken_form = api.generic(
        "POST",
        "/v1/public/proposals",
        b"--nothing-like-the-boundary\r\n",
        content_type="multipart/form-data; boundary=x",
        **auth,
    )

    for refused in (too_large, not_an_image, broken_form):
        _error(refused, 429, "PROPOSAL_LIMIT_REACHED")
    assert Proposal.objects.filter(submitter=submitter).count() == 10


@pytest.mark.django_db(transaction=True)
def test_it_lets_only_one_of_two_simultaneous_proposals_take_the_last_place():
    submitter = UserFactory()
    auth = bearer(token_for(submitter))
    for _ in range(9):
        assert _propose(APIClient(), auth).status_code == 201
    barrier = threading.Barrier(2)
    statuses = []

    def propose():
        try:
            client = APIClient()
            barrier.wait()
            statuses.append(_propose(client, auth).status_code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=propose) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [201, 429]
    assert Proposal.objects.count() == 10
    assert len(_stored_files()) == 10


def test_it_needs_a_token_with_write_proposals(api, submitter):
    others = [scope for scope in Scope.values if scope != Scope.WRITE_PROPOSALS]

    anonymous = _propose(api, {})
    lacking = _propose(api, bearer(token_for(submitter, scopes=others)))
    listing = api.get("/v1/public/proposals", **bearer(token_for(submitter, scopes=others)))

    _error(anonymous, 401, "INVALID_TOKEN")
    _error(lacking, 403, "INSUFFICIENT_SCOPE")
    _error(listing, 403, "INSUFFICIENT_SCOPE")
    assert not Proposal.objects.exists()


def test_it_takes_the_source_from_the_token_not_the_header(api, submitter):
    auth = bearer(token_for(submitter, source=Source.CHROME))

    response = _propose(api, {**auth, "HTTP_X_SERVICE_SOURCE": "MCP"})

    assert response.json()["data"]["source"] == "CHROME"


# Listing


def test_it_lists_only_the_callers_proposals_newest_first(
    api, auth, submitter, django_assert_num_queries
):
    start = timezone.now()
    for n in range(3):
        with time_machine.travel(start + timedelta(minutes=n)):
            _propose(api, auth, companyName=f"Company {n}")
    _propose(api, bearer(token_for(UserFactory())), companyName="Someone else's")

    api.get("/v1/public/me", **auth)  # the token's lookup is cached from here on

    with django_assert_num_queries(2):  # the count, the page with its relations
        response = api.get("/v1/public/proposals?pageSize=2", **auth)

    body = response.json()
    assert [item["companyName"] for item in body["data"]] == ["Company 2", "Company 1"]
    assert {key: body[key] for key in ("page", "pageSize", "total", "totalPages")} == {
        "page": 1,
        "pageSize": 2,
        "total": 3,
        "totalPages": 2,
    }
