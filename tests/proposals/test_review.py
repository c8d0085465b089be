"""Reviewing proposals: what approving makes in the catalogue, and that a review is final."""

import io
import threading

import pytest
from defusedxml.ElementTree import fromstring
from django.core.files.storage import default_storage
from django.db import close_old_connections
from PIL import Image

from directory.catalogue.models import Asset, Company, FileFormat, Logo
from proposals.models import Proposal, ProposalStatus
from proposals.services import ProposalNotPending, proposal_approve, proposal_reject
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

SVG_NS = "{http://www.w3.org/2000/svg}"
# Accepted at upload (nothing in it runs), yet not all of it is drawing: the public copy
# keeps the style and the gradient and leaves out the animation, metadata and editor markup.
DECORATED_SVG = b"""<svg xmlns="http://www.w3.org/2000/svg"
     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     width="120" height="60" viewBox="0 0 120 60">
  <metadata>Made with care</metadata>
  <inkscape:perspective id="p1"/>
  <style>.brand { fill: url(#sun); }</style>
  <defs>
    <linearGradient id="sun" x1="0" x2="1">
      <stop offset="0" stop-color="#C8102E"/>
      <stop offset="1" stop-color="#FFC400"/>
    </linearGradient>
  </defs>
  <rect class="brand" width="120" height="60">
    <set attributeName="fill" to="#000000" begin="0s"/>
  </rect>
</svg>"""


def _stored(asset: Asset) -> bytes:
    with default_storage.open(asset.file.name, "rb") as handle:
        return handle.read()


def _catalogue_counts() -> tuple[int, int, int]:
    return Company.objects.count(), Logo.objects.count(), Asset.objects.count()


def test_it_approves_a_proposal_for_a_new_company(
    propose, staff, django_capture_on_commit_callbacks
):
    proposal = propose(png_bytes(), company_name="Panadería Sol", website="panaderiasol.es")

    with django_capture_on_commit_callbacks(execute=True):
        approved = proposal_approve(proposal=proposal, reviewer=staff)

    company = Company.objects.get()
    logo = Logo.objects.get()
    asset = Asset.objects.get()
    assert (company.slug, company.name, company.website) == (
        "panaderia-sol",
        "Panadería Sol",
        "https://panaderiasol.es",
    )
    assert (logo.company, logo.title, logo.is_current) == (company, "Panadería Sol", True)
    assert company.current_logo == logo
    assert (asset.logo, asset.variant, asset.format) == (logo, None, FileFormat.PNG)
    assert _stored(asset) == png_bytes()
    assert logo.color_palette == ["#C8102E"]  # colours are read once the approval commits
    assert logo.preview

    approved.refresh_from_db()
    assert approved.status == ProposalStatus.APPROVED
    assert (approved.company, approved.logo) == (company, logo)
    assert approved.reviewed_at is not None
    assert approved.reviewed_by == staff
    assert approved.review_note is None


def test_it_adds_a_logo_to_the_named_company_without_replacing_its_current_one(propose, staff):
    company = CompanyFactory(slug="sol", name="Sol")
    current = make_current(LogoFactory(company=company, slug="sol-2019"))
    proposal = propose(company=company)

    approved = proposal_approve(proposal=proposal, reviewer=staff)

    company.refresh_from_db()
    new = approved.logo
    assert approved.company == company
    assert new.company == company
    assert new != current
    assert company.current_logo == current
    assert not Logo.objects.get(pk=new.pk).is_current
    assert Company.objects.count() == 1


def test_it_makes_the_new_logo_current_when_the_company_had_none(propose, staff):
    company = CompanyFactory(slug="sol", name="Sol")
    proposal = propose(company=company)

    approved = proposal_approve(proposal=proposal, reviewer=staff)

    company.refresh_from_db()
    assert company.current_logo == approved.logo
    assert Logo.objects.get(pk=approved.logo_id).is_current


def test_it_adds_a_new_file_to_the_named_logo(propose, staff):
    logo = make_current(LogoFactory(company=CompanyFactory(slug="sol"), slug="sol-2019"))
    old = add_file(logo, png_bytes(color=(0, 0, 255, 255)))
    proposal = propose(png_bytes(), logo=logo)

    approved = proposal_approve(proposal=proposal, reviewer=staff)

    asset = Asset.objects.get(logo=logo, variant=None, format=FileFormat.PNG)
    assert approved.logo == logo
    assert approved.company == logo.company
    assert Logo.objects.count() == 1
    assert asset.pk == old.pk  # the logo's PNG, now with the proposed bytes
    assert _stored(asset) == png_bytes()
    assert asset.sha256 != old.sha256


def test_it_approves_into_the_company_staff_pick(propose, staff):
    picked = CompanyFactory(slug="sol-sl", name="Sol S.L.")
    proposal = propose(company_name="Panaderia Sol (Madrid)")

    approved = proposal_approve(proposal=proposal, reviewer=staff, company=picked, note="Same")

    assert Company.objects.count() == 1
    assert approved.company == picked
    assert approved.logo.company == picked
    assert approved.review_note == "Same"
    picked.refresh_from_db()
    assert picked.current_logo == approved.logo


def test_it_publishes_a_sanitised_copy_of_an_svg(propose, staff):
    proposal = propose(DECORATED_SVG, file_name="logo.svg")

    approved = proposal_approve(proposal=proposal, reviewer=staff)

    asset = Asset.objects.get(logo=approved.logo)
    published = _stored(asset)
    root = fromstring(published, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    tags = {element.tag for element in root.iter()}
    attributes = {name for element in root.iter() for name in element.attrib}
    assert asset.format == FileFormat.SVG
    assert published != DECORATED_SVG
    assert root.tag == f"{SVG_NS}svg"
    assert {f"{SVG_NS}style", f"{SVG_NS}linearGradient", f"{SVG_NS}rect"} <= tags
    assert all(tag.startswith(SVG_NS) for tag in tags)
    assert not tags & {f"{SVG_NS}set", f"{SVG_NS}metadata"}
    assert not [name for name in attributes if name.lower().startswith("on")]
    assert b"url(#sun)" in published
    # The upload itself stays as it came, private, for the record.
    with default_storage.open(proposal.file.name, "rb") as upload:
        assert upload.read() == DECORATED_SVG


@pytest.mark.parametrize("pillow_format", ["JPEG", "WEBP"])
def test_it_publishes_jpeg_and_webp_as_png(propose, staff, pillow_format):
    proposal = propose(raster_bytes(pillow_format, size=(80, 40)), file_name="logo.jpg")

    approved = proposal_approve(proposal=proposal, reviewer=staff)

    asset = Asset.objects.get(logo=approved.logo)
    assert (asset.format, asset.content_type) == (FileFormat.PNG, "image/png")
    with Image.open(io.BytesIO(_stored(asset))) as published:
        assert (published.format, published.size) == ("PNG", (80, 40))


def test_it_rejects_with_a_note(propose, staff):
    proposal = propose()

    rejected = proposal_reject(proposal=proposal, reviewer=staff, note="  Not this company's.  ")

    rejected.refresh_from_db()
    assert rejected.status == ProposalStatus.REJECTED
    assert rejected.review_note == "Not this company's."
    assert rejected.reviewed_at is not None
    assert rejected.reviewed_by == staff
    assert _catalogue_counts() == (0, 0, 0)


@pytest.mark.parametrize("note", ["", "   \n"])
def test_it_needs_a_note_to_reject(propose, staff, note):
    proposal = propose()

    with pytest.raises(ValueError, match="note"):
        proposal_reject(proposal=proposal, reviewer=staff, note=note)

    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.PENDING
    assert proposal.reviewed_at is None


def _review_fields(proposal: Proposal) -> tuple:
    proposal.refresh_from_db()
    return (
        proposal.status,
        proposal.company_id,
        proposal.logo_id,
        proposal.reviewed_at,
        proposal.reviewed_by_id,
        proposal.review_note,
    )


@pytest.mark.parametrize("first", ["approve", "reject"])
def test_it_keeps_both_outcomes_final(propose, staff, first):
    proposal = propose()
    stale = Proposal.objects.get(pk=proposal.pk)  # read before the review, as a second tab
    if first == "approve":
        proposal_approve(proposal=proposal, reviewer=staff)
    else:
        proposal_reject(proposal=proposal, reviewer=staff, note="Blurry.")
    before, counts = _review_fields(proposal), _catalogue_counts()
    other = UserFactory(is_staff=True)

    for attempt in (proposal, stale):
        with pytest.raises(ProposalNotPending):
            proposal_approve(proposal=attempt, reviewer=other)
        with pytest.raises(ProposalNotPending):
            proposal_reject(proposal=attempt, reviewer=other, note="Changed my mind.")

    assert _review_fields(proposal) == before
    assert _catalogue_counts() == counts


@pytest.mark.django_db(transaction=True)
def test_it_makes_one_logo_when_two_staff_approve_at_once(propose):
    proposal = propose(svg_bytes())
    reviewers = [UserFactory(is_staff=True), UserFactory(is_staff=True)]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def approve(reviewer):
        try:
            mine = Proposal.objects.get(pk=proposal.pk)  # each reads it while still pending
            barrier.wait()
            proposal_approve(proposal=mine, reviewer=reviewer)
            outcomes.append("approved")
        except ProposalNotPending:
            outcomes.append("not pending")
        finally:
            close_old_connections()

    threads = [threading.Thread(target=approve, args=[reviewer]) for reviewer in reviewers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["approved", "not pending"]
    assert _catalogue_counts() == (1, 1, 1)
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.APPROVED
    assert proposal.logo == Logo.objects.get()
    assert proposal.reviewed_by in reviewers
