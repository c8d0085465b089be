"""The review in a real browser (Debian's chromium driven by Playwright): a member of
staff works through the queue, sees the previews load, approves one and rejects one.

Screenshots of each page go to tests/artifacts/screenshots. A missing chromium makes
these tests fail: they are never skipped.
"""

import re
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings as django_settings
from django.utils import timezone
from playwright.sync_api import expect

from directory.catalogue.models import Company, Logo
from proposals.models import ProposalStatus
from tests.conftest import SCREENSHOTS
from tests.factories import (
    PASSWORD,
    CompanyFactory,
    LogoFactory,
    UserFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
)

pytestmark = pytest.mark.django_db(transaction=True)

SVG_WITH_STYLE = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120" viewBox="0 0 240 120">'
    b"<style>.sun{fill:url(#g)}</style>"
    b'<defs><linearGradient id="g"><stop offset="0" stop-color="#C8102E"/>'
    b'<stop offset="1" stop-color="#FFC400"/></linearGradient></defs>'
    b'<rect class="sun" width="240" height="120"/></svg>'
)


@pytest.fixture
def _previews_from_the_live_server(settings, live_server):
    # Logo previews are linked by absolute URL: point them at the server the browser uses.
    settings.STORAGES = {
        **settings.STORAGES,
        "previews": {
            **settings.STORAGES["previews"],
            "OPTIONS": {
                **settings.STORAGES["previews"]["OPTIONS"],
                "base_url": live_server.url + django_settings.PREVIEW_URL_PATH,
            },
        },
    }


def _screenshot(page, name: str) -> None:
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


def _loaded(image) -> int:
    image.scroll_into_view_if_needed()
    expect(image).to_be_visible()
    image.page.wait_for_function("image => image.complete", arg=image.element_handle())
    return image.evaluate("image => image.naturalWidth")


def _log_in(page, email: str) -> None:
    page.goto("/admin/")
    page.get_by_label("Email:", exact=True).fill(email)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()


def test_it_reviews_proposals_in_the_browser(page, propose, _previews_from_the_live_server):
    staff = UserFactory(email="revisora@example.com", is_staff=True, is_superuser=True)
    company = CompanyFactory(slug="sol", name="Sol")
    logo = make_current(LogoFactory(company=company, slug="sol-2019", title="Sol 2019"))
    add_file(logo, svg_bytes(fill="#1D4ED8"))  # committed: its preview is drawn
    start = timezone.now() - timedelta(hours=3)
    with time_machine.travel(start):
        update = propose(SVG_WITH_STYLE, logo=logo, file_name="sol.svg")
    with time_machine.travel(start + timedelta(hours=1)):
        blurry = propose(png_bytes(), company_name="Luna Borrosa")

    _log_in(page, staff.email)
    _screenshot(page, "admin-index")
    page.locator("tr.model-proposal").get_by_role("link", name="Proposals").click()

    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Sol")
    expect(rows.nth(1)).to_contain_text("Luna Borrosa")
    assert _loaded(rows.nth(0).get_by_role("img", name="Proposed")) > 0
    assert _loaded(rows.nth(0).get_by_role("img", name="Sol 2019")) > 0
    _screenshot(page, "proposal-queue")

    rows.nth(0).get_by_role("link").first.click()
    expect(page.get_by_text("The logo it updates: Sol 2019")).to_be_visible()
    assert _loaded(page.get_by_role("img", name="Proposed file")) > 0
    assert _loaded(page.get_by_role("img", name="The logo it updates: Sol 2019")) > 0
    _screenshot(page, "proposal-change-page")

    page.get_by_role("button", name="Approve").click()

    expect(page).to_have_url(re.compile(r"/admin/proposals/proposal/$"))
    expect(page.locator(".messagelist")).to_contain_text("Approved “Sol”: company sol, logo")
    expect(rows).to_have_count(1)
    _screenshot(page, "proposal-approved")
    update.refresh_from_db()
    assert update.status == ProposalStatus.APPROVED
    assert update.logo == logo
    assert Logo.objects.count() == 1

    page.get_by_role("link", name="Luna Borrosa").click()
    assert _loaded(page.get_by_role("img", name="Proposed file")) > 0
    page.get_by_role("button", name="Reject").click()
    expect(page.get_by_text("A rejection needs a note saying why.")).to_be_visible()
    _screenshot(page, "proposal-reject-needs-note")
    page.get_by_label("Review note:").fill("Too blurry to use: please send the SVG.")
    page.get_by_role("button", name="Reject").click()

    expect(page.locator(".messagelist")).to_contain_text("Rejected “Luna Borrosa”.")
    expect(page.get_by_text("0 proposals")).to_be_visible()
    _screenshot(page, "proposal-rejected")
    blurry.refresh_from_db()
    assert blurry.status == ProposalStatus.REJECTED
    assert blurry.review_note == "Too blurry to use: please send the SVG."
    assert blurry.reviewed_by == staff
    assert not Company.objects.filter(name="Luna Borrosa").exists()


def test_it_rejects_from_the_queue_with_a_note_in_the_browser(page, propose):
    staff = UserFactory(email="revisora@example.com", is_staff=True, is_superuser=True)
    spam = [propose(company_name=f"Spam {n}") for n in range(2)]

    _log_in(page, staff.email)
    page.goto("/admin/proposals/proposal/")
    page.get_by_role("checkbox", name="Select all").check()
    page.get_by_label("Action:").select_option(label="Reject the selected proposals…")
    page.get_by_role("button", name="Go").click()

    expect(page.get_by_text("Reject these proposals?")).to_be_visible()
    page.get_by_label("Review note:").fill("Not logos.")
    _screenshot(page, "proposal-bulk-reject")
    page.get_by_role("button", name="Reject 2 proposals").click()

    expect(page.locator(".messagelist")).to_contain_text("Rejected 2 proposal(s).")
    for proposal in spam:
        proposal.refresh_from_db()
        assert (proposal.status, proposal.review_note) == (ProposalStatus.REJECTED, "Not logos.")


def test_it_approves_into_a_company_picked_in_the_browser(page, propose):
    staff = UserFactory(email="revisora@example.com", is_staff=True, is_superuser=True)
    picked = CompanyFactory(slug="sol-sl", name="Panadería Sol S.L.")
    CompanyFactory(slug="luna", name="Luna")
    proposal = propose(company_name="Pan Sol (Madrid)")

    _log_in(page, staff.email)
    page.goto(f"/admin/proposals/proposal/{proposal.pk}/change/")
    page.locator(".field-company .select2-selection").click()
    page.locator(".select2-search__field").fill("panaderia")  # accents ignored, as in the API
    page.get_by_role("option", name="Panadería Sol S.L.").click()
    _screenshot(page, "proposal-company-picked")
    page.get_by_role("button", name="Approve").click()

    expect(page.locator(".messagelist")).to_contain_text("company sol-sl")
    proposal.refresh_from_db()
    assert proposal.company == picked
    assert proposal.logo.company == picked
    assert Company.objects.count() == 2
