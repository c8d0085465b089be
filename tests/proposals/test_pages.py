"""The website's proposal page: the API's rules and limit, the bytes judged the same
way, the channel that tells staff it came from the website, and one's own list."""

from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from proposals.models import MAX_FILE_BYTES, Proposal, ProposalChannel, ProposalStatus
from proposals.services import proposal_reject
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    UserFactory,
    bearer,
    png_bytes,
    svg_bytes,
    token_for,
)
from tests.proposals.test_proposals import _png_of_exact_size

pytestmark = pytest.mark.django_db

EXECUTABLE = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff" + b"\0" * 200


def _stored_files() -> list[Path]:
    folder = Path(settings.STORAGES["default"]["OPTIONS"]["location"]) / "proposals"
    return sorted(folder.iterdir()) if folder.exists() else []


def _propose(browser, data: bytes | None = None, name: str = "logo.png", **fields):
    body = {"company_name": "Panadería Sol", **fields}
    body["file"] = SimpleUploadedFile(name, png_bytes() if data is None else data)
    return browser.post("/account/proposals", body)


def test_it_records_a_proposal_from_the_website(browser, person, api):
    response = _propose(browser, svg_bytes(), name="sol.svg", website="sol.es")

    assert response.status_code == 302
    proposal = Proposal.objects.get()
    assert (proposal.channel, proposal.source, proposal.status) == (
        ProposalChannel.WEB,
        "API",
        ProposalStatus.PENDING,
    )
    assert (proposal.company_name, proposal.file_format) == ("Panadería Sol", "SVG")
    listed = api.get("/v1/public/proposals", **bearer(token_for(person))).json()["data"]
    assert [(item["companyName"], item["source"]) for item in listed] == [("Panadería Sol", "API")]


def test_it_proposes_for_a_company_or_a_logo_of_the_directory(browser):
    company = CompanyFactory(slug="sol", name="Sol")
    logo = LogoFactory(company=company, slug="sol-2020")

    assert "A logo for Sol." in browser.get("/account/proposals?company=sol").content.decode()
    _propose(browser, company_name="", company_slug="sol")
    page = browser.get("/account/proposals?logo=sol-2020").content.decode()
    assert "A new file of the logo" in page
    _propose(browser, company_name="", company_slug="sol", logo_id="sol-2020")

    made = list(Proposal.objects.order_by("created_at").values_list("company_id", "logo_id"))
    assert made == [(company.id, None), (company.id, logo.id)]


def test_it_lists_ones_proposals_with_their_state_and_note(browser, person):
    staff = UserFactory(is_staff=True)
    _propose(browser)
    proposal_reject(proposal=Proposal.objects.get(), reviewer=staff, note="Blurry, sorry.")

    page = browser.get("/account/proposals").content.decode()

    assert "Rejected" in page
    assert "Blurry, sorry." in page


@pytest.mark.parametrize(
    ("data", "name", "status", "language", "message"),
    [
        (_png_of_exact_size(MAX_FILE_BYTES + 1), "big.png", 413, "en", "larger than 5 MB"),
        (b"\x89PNG\r\n\x1a\n" + b"\0" * (6 * 1024 * 1024), "six.png", 413, "es", "pasa de 5 MB"),
        (EXECUTABLE, "logo.png", 415, "en", "This file is not an SVG, PNG, JPEG or WEBP"),
        (EXECUTABLE, "logo.svg", 415, "es", "Este archivo no es una imagen SVG, PNG, JPEG o WEBP"),
    ],
)
def test_it_refuses_a_file_the_api_refuses_and_keeps_nothing(
    browser, data, name, status, language, message
):
    body = {"company_name": "Sol", "file": SimpleUploadedFile(name, data)}

    response = browser.post("/account/proposals", body, HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == status
    assert message in response.content.decode()
    assert not Proposal.objects.exists()
    assert _stored_files() == []


def test_it_needs_a_file_and_a_company_name(browser):
    without_file = browser.post("/account/proposals", {"company_name": "Sol"})
    without_name = _propose(browser, company_name="")

    assert without_file.status_code == without_name.status_code == 400
    assert "No file was submitted." in without_file.content.decode()
    assert "Required when companySlug is not given." in without_name.content.decode()
    assert not Proposal.objects.exists()


def test_it_counts_the_website_and_the_api_together_ten_a_day(browser, person, api):
    auth = bearer(token_for(person))
    start = timezone.now()
    for hour in range(10):
        with time_machine.travel(start + timedelta(hours=hour)):
            if hour % 2:
                assert _propose(browser).status_code == 302
            else:
                upload = SimpleUploadedFile("logo.png", png_bytes())
                body = {"companyName": "Sol", "file": upload}
                assert (
                    api.post("/v1/public/proposals", body, format="multipart", **auth).status_code
                    == 201
                )

    with time_machine.travel(start + timedelta(hours=23), tick=False):
        refused = _propose(browser)

    assert refused.status_code == 429
    assert "You have sent 10 proposals in the last 24 hours" in refused.content.decode()
    assert Proposal.objects.count() == 10


def test_it_refuses_an_account_at_its_daily_limit_before_reading_its_file(browser, person):
    for _ in range(10):
        assert _propose(browser).status_code == 302

    # A renamed executable would be refused as a file (415) if it were read at all.
    refused = _propose(browser, data=b"MZ\x90\x00" + bytes(1000), name="logo.png")

    assert refused.status_code == 429
    assert "You have sent 10 proposals in the last 24 hours" in refused.content.decode()
    assert Proposal.objects.count() == 10


def test_it_shows_the_channel_in_the_admin(browser, client):
    _propose(browser)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    page = client.get("/admin/proposals/proposal/?channel__exact=WEB").content.decode()

    assert "Panadería Sol" in page
    assert "Website" in page
    empty = client.get("/admin/proposals/proposal/?channel__exact=API").content.decode()
    assert "Panadería Sol" not in empty
