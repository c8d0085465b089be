"""Proposals made the way the API makes them, staff to review them, and a browser."""

from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from accounts.models import Source
from proposals.files import proposal_file_format
from proposals.services import ProposalDraft, proposal_submit
from tests.factories import UserFactory, png_bytes

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"


@pytest.fixture
def propose():
    """Submits a proposal through proposal_submit, after the checks the API makes."""

    def make(
        data: bytes | None = None,
        *,
        submitter=None,
        company_name: str = "Panadería Sol",
        company=None,
        logo=None,
        website: str | None = None,
        file_name: str = "logo.png",
        source: str = Source.API,
    ):
        data = data if data is not None else png_bytes()
        if logo is not None:
            company = logo.company
        draft = ProposalDraft(
            # As the API does: naming a company makes its name the proposal's.
            company_name=company.name if company is not None else company_name,
            company=company,
            logo=logo,
            website=website,
            source_url=None,
            notes=None,
            file_name=file_name,
            file_format=proposal_file_format(data),
            source=source,
        )
        return proposal_submit(submitter=submitter or UserFactory(), draft=draft, data=data)

    return make


@pytest.fixture
def staff():
    return UserFactory(email="revisora@example.com", is_staff=True, is_superuser=True)


@pytest.fixture
def _orm_beside_playwright(monkeypatch):
    # Playwright's sync API runs an asyncio loop in this thread, so Django takes every
    # ORM call made here for one made from async code and raises SynchronousOnlyOperation.
    # Nothing here is async: the pages are served by the live server's own thread.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def page(_orm_beside_playwright, live_server):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        context = browser.new_context(base_url=live_server.url)
        context.set_default_timeout(10_000)
        yield context.new_page()
        context.close()
        browser.close()
