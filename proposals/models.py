import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from accounts.models import Source
from directory.catalogue.models import Company, Logo

MAX_PROPOSALS_PER_DAY = 10
MAX_FILE_BYTES = 5 * 1024 * 1024  # the contract's "5 MB", read generously as 5 MiB (docs/api.md)


class ProposalStatus(models.TextChoices):
    PENDING = "PENDING", "Pending review"
    APPROVED = "APPROVED", "Approved"
    REJECTED = "REJECTED", "Rejected"


class ProposalChannel(models.TextChoices):
    """Where a proposal was made: with a token, or on the website's form. Apart from
    `source`, which stays one of the contract's origins (API by default)."""

    API = "API", "Public API"
    WEB = "WEB", "Website"


class ProposalFormat(models.TextChoices):
    SVG = "SVG", "SVG"
    PNG = "PNG", "PNG"
    JPEG = "JPEG", "JPEG"
    WEBP = "WEBP", "WEBP"


CONTENT_TYPES = {
    ProposalFormat.SVG: "image/svg+xml",
    ProposalFormat.PNG: "image/png",
    ProposalFormat.JPEG: "image/jpeg",
    ProposalFormat.WEBP: "image/webp",
}


class Proposal(models.Model):
    """A logo someone proposes, for a new company or logo or as a new file of a logo.

    The upload is kept privately under a generated name; the client's file name is
    data only. Staff review it: PENDING becomes APPROVED or REJECTED, both final.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    submitter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposals"
    )
    status = models.CharField(
        max_length=8, choices=ProposalStatus.choices, default=ProposalStatus.PENDING
    )
    company_name = models.CharField(max_length=255)
    company = models.ForeignKey(
        Company, on_delete=models.SET_NULL, null=True, blank=True, related_name="proposals"
    )
    logo = models.ForeignKey(
        Logo, on_delete=models.SET_NULL, null=True, blank=True, related_name="proposals"
    )
    website = models.CharField(max_length=255, null=True, blank=True)
    source_url = models.URLField(max_length=2048, null=True, blank=True)
    notes = models.TextField(max_length=1000, null=True, blank=True)
    file = models.FileField(max_length=255)
    file_name = models.CharField(max_length=255, help_text="As the client named it; data only.")
    file_format = models.CharField(max_length=4, choices=ProposalFormat.choices)
    file_size = models.PositiveIntegerField()
    source = models.CharField(max_length=8, choices=Source.choices)
    channel = models.CharField(
        max_length=3, choices=ProposalChannel.choices, default=ProposalChannel.API
    )
    created_at = models.DateTimeField(default=timezone.now)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reviewed_proposals",
    )
    review_note = models.TextField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["submitter", "-created_at"], name="proposal_submitter_recent"),
            models.Index(
                fields=["created_at"],
                condition=Q(status="PENDING"),
                name="proposal_review_queue",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=ProposalStatus.values), name="proposal_status_known"
            ),
            models.CheckConstraint(
                condition=Q(file_format__in=ProposalFormat.values), name="proposal_format_known"
            ),
            models.CheckConstraint(
                condition=Q(channel__in=ProposalChannel.values), name="proposal_channel_known"
            ),
            models.CheckConstraint(
                condition=Q(file_size__lte=MAX_FILE_BYTES), name="proposal_file_within_limit"
            ),
            # Only a review sets reviewedAt, and a rejection always says why.
            models.CheckConstraint(
                condition=Q(status=ProposalStatus.PENDING, reviewed_at__isnull=True)
                | (~Q(status=ProposalStatus.PENDING) & Q(reviewed_at__isnull=False)),
                name="proposal_reviewed_at_iff_reviewed",
            ),
            models.CheckConstraint(
                condition=~Q(status=ProposalStatus.REJECTED) | Q(review_note__regex=r"\S"),
                name="proposal_rejection_has_note",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.company_name} ({self.get_status_display()})"

    @property
    def content_type(self) -> str:
        return CONTENT_TYPES[self.file_format]
