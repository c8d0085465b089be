"""The staff review in the back office: the queue, the safe preview, the review itself,
and the review_proposal command."""

import io
import uuid
from datetime import timedelta

import pytest
import time_machine
from django.contrib.admin import helpers
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from directory.catalogue.models import Company, Logo
from directory.catalogue.selectors import preview_url
from proposals.models import Proposal, ProposalStatus
from proposals.services import proposal_approve, proposal_reject
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    UserFactory,
    add_file,
    make_current,
    png_bytes,
    raster_bytes,
    svg_bytes,
)

pytestmark = pytest.mark.django_db

QUEUE = reverse("admin:proposals_proposal_changelist")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Accepted at upload (nothing in it runs or loads), with a comment a browser would show
# as text if the original were ever put into the page.
MARKED_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150" viewBox="0 0 300 150">'
    b"<title>ORIGINAL-SVG-MARKER</title>"
    b'<rect width="300" height="150" fill="#C8102E"/></svg>'
)


def _change(proposal) -> str:
    return reverse("admin:proposals_proposal_change", args=[proposal.pk])


def _preview(proposal) -> str:
    return reverse("admin:proposals_proposal_preview", args=[proposal.pk])


def _listed(response) -> list:
    assert response.status_code == 200
    return list(response.context["cl"].result_list)


def _messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def _action(client, action: str, proposals, query: str = "", **data):
    body = {
        "action": action,
        helpers.ACTION_CHECKBOX_NAME: [str(p.pk) for p in proposals],
        "index": "0",
        **data,
    }
    return client.post(QUEUE + query, body, follow=True)


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


# The queue


def test_it_lists_the_pending_proposals_oldest_first(staff_client, propose, staff):
    start = timezone.now() - timedelta(days=2)
    made = []
    for hours, name in enumerate(["Oldest", "Reviewed", "Middle", "Newest"]):
        with time_machine.travel(start + timedelta(hours=hours)):
            made.append(propose(company_name=name))
    oldest, reviewed, middle, newest = made
    proposal_reject(proposal=reviewed, reviewer=staff, note="Duplicate.")

    queue = _listed(staff_client.get(QUEUE))
    everything = _listed(staff_client.get(QUEUE, {"status": "all"}))
    rejected = _listed(staff_client.get(QUEUE, {"status": "REJECTED"}))

    assert queue == [oldest, middle, newest]
    assert everything == [newest, middle, reviewed, oldest]
    assert rejected == [reviewed]


def test_it_shows_each_proposal_with_its_preview_submitter_and_company(staff_client, propose):
    company = CompanyFactory(slug="sol", name="Sol")
    proposal = propose(company=company, submitter=UserFactory(email="marta@example.com"))

    response = staff_client.get(QUEUE)

    page = response.content.decode()
    assert _listed(response) == [proposal]
    assert f'src="{_preview(proposal)}"' in page
    assert "marta@example.com" in page
    assert ">Sol<" in page
    assert proposal.file.name not in page


def test_it_finds_proposals_by_company_name_and_submitter_email(staff_client, propose):
    by_name = propose(company_name="Panadería Sol")
    by_email = propose(company_name="Luna", submitter=UserFactory(email="pedro@example.com"))

    assert _listed(staff_client.get(QUEUE, {"q": "panadería"})) == [by_name]
    assert _listed(staff_client.get(QUEUE, {"q": "pedro@"})) == [by_email]


def test_it_filters_by_format_and_source(staff_client, propose):
    svg = propose(svg_bytes(), source="FIGMA")
    propose(png_bytes(), source="API")

    assert _listed(staff_client.get(QUEUE, {"file_format__exact": "SVG"})) == [svg]
    assert _listed(staff_client.get(QUEUE, {"source__exact": "FIGMA"})) == [svg]


# The preview


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(MARKED_SVG, id="svg"),
        pytest.param(png_bytes(size=(1200, 600)), id="png"),
        pytest.param(raster_bytes("JPEG", size=(1200, 600)), id="jpeg"),
        pytest.param(raster_bytes("WEBP", size=(1200, 600)), id="webp"),
    ],
)
def test_it_serves_a_png_drawn_from_the_file(staff_client, propose, data):
    proposal = propose(data)

    response = staff_client.get(_preview(proposal))

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"] == "default-src 'none'"
    assert response["Cache-Control"] == "private, no-store"
    assert response.content.startswith(PNG_SIGNATURE)
    assert response.content != data
    with Image.open(io.BytesIO(response.content)) as preview:
        assert preview.format == "PNG"
        assert max(preview.size) == 512
        assert preview.size[0] == 2 * preview.size[1]


def test_it_shows_the_preview_to_staff_only(client, propose):
    proposal = propose()
    staff_without_permission = UserFactory(is_staff=True)
    reader = UserFactory(is_staff=True)
    reader.user_permissions.add(Permission.objects.get(codename="view_proposal"))

    anonymous = client.get(_preview(proposal))
    client.force_login(proposal.submitter)
    submitter = client.get(_preview(proposal))
    client.force_login(staff_without_permission)
    unpermitted = client.get(_preview(proposal))
    client.force_login(reader)
    permitted = client.get(_preview(proposal))

    for refused in (anonymous, submitter):
        assert refused.status_code == 302
        assert refused["Location"].startswith(reverse("admin:login"))
    assert unpermitted.status_code == 403
    assert permitted.status_code == 200
    assert permitted["Content-Type"] == "image/png"


def test_it_answers_404_for_an_unknown_proposal(staff_client):
    missing = staff_client.get(reverse("admin:proposals_proposal_preview", args=[uuid.uuid4()]))
    not_an_id = staff_client.get(reverse("admin:proposals_proposal_preview", args=["nope"]))

    assert missing.status_code == not_an_id.status_code == 404


def test_it_shows_the_proposal_beside_the_logo_it_updates(
    staff_client, propose, django_capture_on_commit_callbacks
):
    logo = make_current(LogoFactory(company=CompanyFactory(slug="sol"), title="Sol 2019"))
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, svg_bytes())
    logo.refresh_from_db()
    proposal = propose(MARKED_SVG, logo=logo)

    response = staff_client.get(_change(proposal))

    page = response.content.decode()
    assert response.status_code == 200
    assert f'src="{_preview(proposal)}"' in page
    assert f'src="{preview_url(logo.preview.name)}"' in page
    assert "The logo it updates: Sol 2019" in page
    assert "adds this file to the logo" in page
    # The original never reaches the page, not even as markup to escape.
    assert "ORIGINAL-SVG-MARKER" not in page
    assert proposal.file.name not in page


# Reviewing from the list


def test_it_approves_the_selected_proposals(staff_client, propose, staff):
    first, second = propose(company_name="Sol"), propose(company_name="Luna")

    response = _action(staff_client, "approve", [first, second])

    assert response.status_code == 200
    assert _listed(response) == []  # the queue is empty again
    assert sorted(Company.objects.values_list("slug", flat=True)) == ["luna", "sol"]
    for proposal in (first, second):
        proposal.refresh_from_db()
        assert proposal.status == ProposalStatus.APPROVED
        assert proposal.reviewed_by == staff
    assert any("Approved “Sol”: company" in message for message in _messages(response))


def test_it_asks_for_a_note_before_rejecting_the_selected(staff_client, propose, staff):
    first, second = propose(), propose()

    asked = _action(staff_client, "reject", [first, second])
    empty = _action(staff_client, "reject", [first, second], apply="yes", note="  ")
    done = _action(staff_client, "reject", [first, second], apply="yes", note="Not a logo.")

    assert asked.status_code == 200
    assert "admin/proposals/proposal/reject_confirmation.html" in [
        template.name for template in asked.templates
    ]
    assert 'name="note"' in asked.content.decode()
    assert "A rejection needs a note saying why." in empty.content.decode()
    assert "Rejected 2 proposal(s)." in _messages(done)
    for proposal in (first, second):
        proposal.refresh_from_db()
        assert (proposal.status, proposal.review_note) == (ProposalStatus.REJECTED, "Not a logo.")
        assert proposal.reviewed_by == staff


def test_it_says_which_were_reviewed_already(staff_client, propose, staff):
    proposal = propose(company_name="Sol")
    stale = Proposal.objects.get(pk=proposal.pk)
    proposal_approve(proposal=proposal, reviewer=UserFactory(email="otra@example.com"))

    response = _action(staff_client, "approve", [stale], query="?status=all")

    assert Logo.objects.count() == 1
    assert "“Sol” was not changed: it was approved already by otra@example.com" in " ".join(
        _messages(response)
    )


# Reviewing on the proposal's page


def test_it_offers_the_review_on_a_pending_proposals_page_only(staff_client, propose, staff):
    pending, rejected = propose(), propose()
    proposal_reject(proposal=rejected, reviewer=staff, note="No.")

    pending_page = staff_client.get(_change(pending)).content.decode()
    rejected_page = staff_client.get(_change(rejected)).content.decode()

    assert 'name="_approve"' in pending_page
    assert 'name="_reject"' in pending_page
    assert 'name="company"' in pending_page
    assert 'name="_save"' not in pending_page
    assert 'name="_approve"' not in rejected_page
    assert 'name="_reject"' not in rejected_page


def test_it_approves_into_the_company_staff_pick_on_the_page(staff_client, propose, staff):
    picked = CompanyFactory(slug="sol-sl", name="Sol S.L.")
    proposal = propose(company_name="Sol (Madrid)")

    response = staff_client.post(
        _change(proposal), {"_approve": "Approve", "company": picked.pk, "note": "Same shop."}
    )

    assert response.status_code == 302
    assert response["Location"] == QUEUE
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.APPROVED
    assert proposal.company == picked
    assert proposal.logo.company == picked
    assert proposal.review_note == "Same shop."
    assert proposal.reviewed_by == staff
    assert Company.objects.count() == 1


def test_it_rejects_on_the_page_only_with_a_note(staff_client, propose, staff):
    proposal = propose()

    refused = staff_client.post(_change(proposal), {"_reject": "Reject", "note": " "})
    proposal.refresh_from_db()
    status_after_refusal = proposal.status
    done = staff_client.post(_change(proposal), {"_reject": "Reject", "note": "Blurry."})

    assert refused.status_code == 200
    assert "A rejection needs a note saying why." in refused.content.decode()
    assert 'name="_reject"' in refused.content.decode()  # the review is offered again
    assert status_after_refusal == ProposalStatus.PENDING
    assert done.status_code == 302
    proposal.refresh_from_db()
    assert (proposal.status, proposal.review_note) == (ProposalStatus.REJECTED, "Blurry.")
    assert proposal.reviewed_by == staff


def test_it_says_so_when_someone_else_reviewed_it_first(staff_client, propose):
    proposal = propose(company_name="Sol")
    proposal_approve(proposal=proposal, reviewer=UserFactory(email="otra@example.com"))

    response = staff_client.post(
        _change(proposal), {"_approve": "Approve", "company": "", "note": ""}, follow=True
    )

    assert Logo.objects.count() == 1
    assert _messages(response) == [
        "“Sol” was not changed: it was approved already by otra@example.com, and a review is final."
    ]


def test_it_saves_nothing_but_a_review(staff_client, propose):
    proposal = propose(company_name="Sol")

    response = staff_client.post(_change(proposal), {"_save": "Save", "company_name": "Other"})

    assert response.status_code == 302
    proposal.refresh_from_db()
    assert (proposal.company_name, proposal.status) == ("Sol", ProposalStatus.PENDING)


def test_it_makes_no_proposals_and_keeps_reviewed_ones(staff_client, propose, staff):
    pending, reviewed = propose(), propose()
    proposal_reject(proposal=reviewed, reviewer=staff, note="No.")
    delete = "admin:proposals_proposal_delete"

    assert staff_client.get(reverse("admin:proposals_proposal_add")).status_code == 403
    assert staff_client.get(reverse(delete, args=[reviewed.pk])).status_code == 403
    assert staff_client.get(reverse(delete, args=[pending.pk])).status_code == 200
    bulk = _action(staff_client, "delete_selected", [reviewed], "?status=all", post="yes")
    assert bulk.status_code == 403
    assert Proposal.objects.filter(pk=reviewed.pk).exists()


# The command


def _review(*args) -> str:
    out = io.StringIO()
    call_command("review_proposal", *[str(arg) for arg in args], stdout=out)
    return out.getvalue()


def test_it_lists_the_pending_proposals_oldest_first_for_the_command(propose, staff):
    first = propose(company_name="Panadería Sol")
    second = propose(company_name="Café Luna", file_name="luna.png")
    reviewed = propose(company_name="Bar Mar")
    _review(reviewed.pk, "--reject", "--reviewer", staff.email, "--note", "Blurry.")

    out = io.StringIO()
    call_command("list_proposals", stdout=out)

    lines = [line.split("\t") for line in out.getvalue().splitlines()]
    assert [(line[0], line[3], line[4], line[5], line[6]) for line in lines] == [
        (str(first.pk), "Panadería Sol", "-", "-", "PNG"),
        (str(second.pk), "Café Luna", "-", "-", "PNG"),
    ]
    assert lines[0][2] == first.submitter.email
    rejected = io.StringIO()
    call_command("list_proposals", "--status", "REJECTED", stdout=rejected)
    assert rejected.getvalue().split("\t")[0] == str(reviewed.pk)


def test_it_approves_from_the_command(propose, staff):
    proposal = propose(company_name="Panadería Sol")

    output = _review(proposal.pk, "--approve", "--reviewer", staff.email, "--note", "Fine.")

    proposal.refresh_from_db()
    assert output == f"approved {proposal.pk}: company panaderia-sol logo panaderia-sol\n"
    assert proposal.status == ProposalStatus.APPROVED
    assert (proposal.reviewed_by, proposal.review_note) == (staff, "Fine.")


def test_it_approves_into_a_company_from_the_command(propose, staff):
    CompanyFactory(slug="sol", name="Sol")
    proposal = propose(company_name="Sol (Madrid)")

    output = _review(proposal.pk, "--approve", "--company", "sol", "--reviewer", staff.email)

    proposal.refresh_from_db()
    assert proposal.company.slug == "sol"
    assert output.startswith(f"approved {proposal.pk}: company sol logo ")


def test_it_rejects_from_the_command(propose, staff):
    proposal = propose()

    output = _review(proposal.pk, "--reject", "--note", "Blurry.", "--reviewer", staff.email)

    proposal.refresh_from_db()
    assert output == f"rejected {proposal.pk}\n"
    assert (proposal.status, proposal.review_note) == (ProposalStatus.REJECTED, "Blurry.")
    assert proposal.reviewed_by == staff


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{id}", "--reject", "--reviewer", "{staff}"], "--reject needs --note"),
        (["{id}", "--reject", "--note", "  ", "--reviewer", "{staff}"], "--reject needs --note"),
        (["{unknown}", "--approve", "--reviewer", "{staff}"], "no proposal with id"),
        (["not-an-id", "--approve", "--reviewer", "{staff}"], "no proposal with id"),
        (["{id}", "--approve", "--company", "nadie", "--reviewer", "{staff}"], "no company"),
        (["{id}", "--approve", "--reviewer", "nadie@example.com"], "not an active staff"),
        (["{id}", "--approve", "--reviewer", "{submitter}"], "not an active staff"),
    ],
)
def test_it_refuses_what_the_command_cannot_do(propose, staff, args, message):
    proposal = propose()
    values = {
        "id": proposal.pk,
        "unknown": uuid.uuid4(),
        "staff": staff.email,
        "submitter": proposal.submitter.email,
    }

    with pytest.raises(CommandError, match=message):
        _review(*[arg.format(**values) for arg in args])

    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.PENDING
    assert not Logo.objects.exists()


def test_it_refuses_a_reviewed_proposal_in_the_command(propose, staff):
    proposal = propose()
    proposal_reject(proposal=proposal, reviewer=staff, note="No.")

    with pytest.raises(CommandError, match="is REJECTED already; a review is final"):
        _review(proposal.pk, "--approve", "--reviewer", staff.email)

    assert not Logo.objects.exists()


def test_it_needs_approve_or_reject_and_a_reviewer(propose, staff):
    proposal = propose()

    with pytest.raises(CommandError, match="one of the arguments --approve --reject"):
        _review(proposal.pk, "--reviewer", staff.email)
    with pytest.raises(CommandError, match="--reviewer"):
        _review(proposal.pk, "--approve")


def test_it_finds_companies_to_link_as_staff_type(staff_client):
    CompanyFactory(slug="sol-sl", name="Panadería Sol S.L.")
    CompanyFactory(slug="luna", name="Luna")
    params = {"app_label": "proposals", "model_name": "proposal", "field_name": "company"}

    response = staff_client.get(reverse("admin:autocomplete"), {**params, "term": "panaderia"})

    assert [result["text"] for result in response.json()["results"]] == ["Panadería Sol S.L."]


def test_it_says_when_selected_ones_left_the_queue_meanwhile(staff_client, propose, staff):
    gone, still = propose(company_name="Sol"), propose(company_name="Luna")
    proposal_reject(proposal=gone, reviewer=staff, note="Duplicate.")

    response = _action(staff_client, "approve", [gone, still])

    gone.refresh_from_db()
    assert gone.status == ProposalStatus.REJECTED
    assert Logo.objects.get().company.slug == "luna"
    assert "1 of the selected proposal(s) were not changed: reviewed meanwhile" in " ".join(
        _messages(response)
    )
