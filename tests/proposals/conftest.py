"""Proposals made the way the API makes them, staff to review them, and a browser."""

import pytest

from accounts.models import Source
from proposals.files import proposal_file_format
from proposals.services import ProposalDraft, proposal_submit
from tests.conftest import browser_page
from tests.factories import UserFactory, png_bytes


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
def page(chromium, live_server):
    return browser_page(chromium, live_server)
