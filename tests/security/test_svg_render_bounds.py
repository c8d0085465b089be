"""Every drawing of an SVG is bounded before it starts, whatever the file says its size is.

resvg sizes its canvas from the root's width and height: a file whose width and height
disagree with its viewBox once made the preview ask for 104,857,600,000 bytes, and the
allocation failure aborted the whole process (no `except` catches that). Each shape of
disagreement is uploaded through the API, and whatever is accepted is drawn here, in
this process, by every routine that draws logos: a process that dies fails the run.
"""

import io

import pytest
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from accounts.models import Scope
from directory.catalogue.models import FileFormat
from directory.colors.extraction import extract_colors
from directory.files.previews import PREVIEW_MAX_PX, render_preview
from directory.images.renditions import dark_score, rasterise
from proposals.admin_review import proposal_preview_png
from proposals.models import Proposal
from proposals.services import proposal_approve
from tests.factories import UserFactory, bearer, token_for

pytestmark = pytest.mark.django_db

SHAPE = '<rect x="0" y="0" width="10" height="10" fill="#C8102E"/>'


def _svg(attributes: str) -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg" {attributes}>{SHAPE}</svg>'.encode()


# Accepted: the file says, one way or another, a positive size in known units.
DRAWABLE = {
    "tiny width, huge height, wide viewBox": 'width="1" height="100000" viewBox="0 0 100000 1"',
    "huge width, tiny height, tall viewBox": 'width="100000" height="1" viewBox="0 0 1 100000"',
    "huge both ways": 'width="1000000" height="1000000" viewBox="0 0 10 10"',
    "units far apart": 'width="1in" height="10000cm" viewBox="0 0 10 10"',
    "units, no viewBox": 'width="2in" height="1000cm"',
    "percentages over a viewBox": 'width="100%" height="50000%" viewBox="0 0 10 10"',
    "no size, viewBox only": 'viewBox="0 0 10 10"',
    "negative size over a viewBox": 'width="-5" height="-100000" viewBox="0 0 10 10"',
    "exponent sizes": 'width="1e6" height="1e-6" viewBox="0 0 1e6 1"',
}

# Refused at upload: nothing says how large the file is.
UNDRAWABLE = {
    "no viewBox, no size": ("", "no viewBox"),
    "percentages without a viewBox": ('width="100%" height="100%"', "no viewBox"),
    "zero size without a viewBox": ('width="0" height="0"', "no viewBox"),
    "negative size without a viewBox": ('width="-10" height="10"', "no viewBox"),
    "zero-width viewBox": ('viewBox="0 0 0 10"', "zero or negative"),
    "negative viewBox": ('width="10" height="10" viewBox="0 0 -10 10"', "zero or negative"),
    "viewBox that is not numbers": ('viewBox="0 0 wide tall"', "not four numbers"),
    "infinite viewBox": ('viewBox="0 0 1e400 10"', "not four numbers"),
}


@pytest.fixture
def auth():
    return bearer(token_for(UserFactory(), scopes=[Scope.WRITE_PROPOSALS]))


def _propose(api, auth, data: bytes):
    upload = SimpleUploadedFile("logo.svg", data, content_type="image/svg+xml")
    return api.post(
        "/v1/public/proposals",
        {"companyName": "Panadería Sol", "file": upload},
        format="multipart",
        **auth,
    )


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size


@pytest.mark.parametrize("attributes", DRAWABLE.values(), ids=DRAWABLE.keys())
def test_it_draws_every_accepted_disagreement_within_its_box(
    api, auth, attributes, django_capture_on_commit_callbacks
):
    response = _propose(api, auth, _svg(attributes))
    assert response.status_code == 201, response.json()
    proposal = Proposal.objects.get()
    data = _svg(attributes)

    # The staff preview, the catalogue's preview, the Logo Link and the dark-theme score.
    assert max(_size(proposal_preview_png(proposal))) <= PREVIEW_MAX_PX
    assert max(_size(render_preview(data, FileFormat.SVG))) <= PREVIEW_MAX_PX
    for size in (16, 64, 256):
        assert max(rasterise(data, FileFormat.SVG, size).size) == size
    assert 0 <= dark_score(data, FileFormat.SVG) <= 1
    # The brand colours, which rank paints by a rendering of their own.
    assert extract_colors(data, FileFormat.SVG) == ["#C8102E"]
    # Approval (the admin and review_proposal) draws the catalogue's preview and colours.
    with django_capture_on_commit_callbacks(execute=True):
        approved = proposal_approve(proposal=proposal, reviewer=UserFactory(is_staff=True))
    logo = approved.logo
    logo.refresh_from_db()
    with storages["previews"].open(logo.preview.name) as preview:
        assert max(_size(preview.read())) <= PREVIEW_MAX_PX
    assert logo.color_palette == ["#C8102E"]


@pytest.mark.parametrize(("attributes", "reason"), UNDRAWABLE.values(), ids=UNDRAWABLE.keys())
def test_it_refuses_an_svg_whose_size_cannot_be_known(api, auth, attributes, reason):
    response = _propose(api, auth, _svg(attributes))

    assert response.status_code == 415
    body = response.json()
    assert body["error"] == "UNSUPPORTED_FILE"
    assert body["message"].startswith("Refused: the SVG cannot be drawn at a known size: ")
    assert reason in body["message"]
    assert not Proposal.objects.exists()
