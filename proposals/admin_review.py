"""The pieces of the staff review the admin page is made of: the queue filter, the review
and reject forms, and the preview drawn from a safe copy of the upload
(proposals/admin.py puts them together).
"""

import io

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.files.storage import default_storage
from PIL import Image

from common.svg import UnsafeSvg
from directory.catalogue.models import Company, FileFormat
from directory.editing.services import CatalogueError
from directory.files.previews import PREVIEW_MAX_PX, PreviewError, render_preview
from proposals.models import Proposal, ProposalFormat, ProposalStatus

QUEUE_PARAM = "status"
ALL = "all"
# Never the upload's own bytes or type: a PNG we drew, which the browser may not sniff,
# that can load nothing, and that no cache keeps.
PREVIEW_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'",
    "Cache-Control": "private, no-store",
}
# What can make a file impossible to preview or to approve; staff reject such a proposal.
UNUSABLE_FILE = (UnsafeSvg, PreviewError, CatalogueError, OSError, SyntaxError, ValueError)


def proposal_preview_png(proposal: Proposal) -> bytes:
    """A PNG of the proposal's file, at most 512 px, drawn here from a safe copy (an SVG
    is sanitised by render_preview)."""
    with default_storage.open(proposal.file.name, "rb") as upload:
        data = upload.read()
    if proposal.file_format == ProposalFormat.SVG:
        return render_preview(data, FileFormat.SVG)
    if proposal.file_format == ProposalFormat.PNG:
        return render_preview(data, FileFormat.PNG)
    # JPEG and WEBP were decoded whole, under a pixel limit, when they were uploaded.
    with Image.open(io.BytesIO(data), formats=[proposal.file_format]) as image:
        image.thumbnail((PREVIEW_MAX_PX, PREVIEW_MAX_PX), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        image.convert("RGBA" if image.mode in ("RGBA", "LA", "P") else "RGB").save(out, "PNG")
    return out.getvalue()


def is_queue(request) -> bool:
    return request.GET.get(QUEUE_PARAM, ProposalStatus.PENDING) == ProposalStatus.PENDING


class ReviewQueueFilter(admin.SimpleListFilter):
    """Pending proposals unless staff ask for others: the list opens as the review queue."""

    title = "status"
    parameter_name = QUEUE_PARAM

    def lookups(self, request, model_admin):
        return [
            (ProposalStatus.PENDING, "Pending (review queue)"),
            (ProposalStatus.APPROVED, "Approved"),
            (ProposalStatus.REJECTED, "Rejected"),
            (ALL, "All"),
        ]

    def value(self):
        return super().value() or ProposalStatus.PENDING

    def queryset(self, request, queryset):
        if self.value() == ALL:
            return queryset
        return queryset.filter(status=self.value())

    def choices(self, changelist):
        # No "All" that drops the parameter: without it the queue is shown.
        for value, label in self.lookup_choices:
            yield {
                "selected": self.value() == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }


class ReviewForm(forms.Form):
    """The change page's review: Approve (optionally into a company staff pick) or Reject."""

    note = forms.CharField(
        required=False,
        max_length=1000,
        label="Review note",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Required to reject: say why. The submitter sees it.",
    )

    def __init__(self, *args, admin_site, rejecting: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.rejecting = rejecting
        # Made here, with the widget: the autocomplete needs the admin site it searches in.
        self.fields = {
            "company": forms.ModelChoiceField(
                queryset=Company.objects.all(),
                required=False,
                label="Link to company",
                widget=AutocompleteSelect(Proposal._meta.get_field("company"), admin_site),
                help_text="Optional, for approving: add the logo to this company instead of "
                "the one the proposal names, or of a new one.",
            ),
            **self.fields,
        }

    def clean_note(self) -> str:
        note = self.cleaned_data["note"].strip()
        if self.rejecting and not note:
            raise forms.ValidationError("A rejection needs a note saying why.")
        return note


class RejectForm(forms.Form):
    note = forms.CharField(
        max_length=1000,
        label="Review note",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Why they are rejected; every submitter sees it.",
        error_messages={"required": "A rejection needs a note saying why."},
    )
