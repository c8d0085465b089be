"""Writes of proposals: submitting one (within the daily limit) and reviewing it."""

import io
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.validators import URLValidator
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from PIL import Image

from accounts.models import User
from common.svg import sanitize_svg
from directory.catalogue.models import Company, Logo
from directory.editing.services import asset_attach, file_store, logo_create, logo_make_current
from directory.search.embeddings import company_embedding_stale
from proposals.models import (
    MAX_PROPOSALS_PER_DAY,
    Proposal,
    ProposalChannel,
    ProposalFormat,
    ProposalStatus,
)

PROPOSAL_WINDOW = timedelta(hours=24)


class ProposalLimitReached(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = retry_after


@dataclass(frozen=True)
class ProposalDraft:
    """A validated proposal, before it is stored and counted."""

    company_name: str
    company: Company | None
    logo: Logo | None
    website: str | None
    source_url: str | None
    notes: str | None
    file_name: str
    file_format: ProposalFormat
    source: str
    channel: str = ProposalChannel.API


def proposal_draft(
    *,
    params: dict,
    company: Company | None,
    logo: Logo | None,
    file_name: str,
    file_format: ProposalFormat,
    source: str,
    channel: str,
) -> ProposalDraft:
    """The draft of the validated body of POST /proposals (ProposalCreateInputSerializer),
    which the website's form validates too, and of what it names (proposal_targets)."""
    company = company or (logo.company if logo else None)
    return ProposalDraft(
        company_name=params.get("companyName") or company.name,
        company=company,
        logo=logo,
        website=params.get("website") or None,
        source_url=params.get("sourceUrl") or None,
        notes=params.get("notes") or None,
        file_name=(file_name or "upload")[:255],
        file_format=file_format,
        source=source,
        channel=channel,
    )


def _limit_wait(submitter: User, now) -> int | None:
    """Seconds until the submitter may propose again; None while under the daily limit."""
    recent = list(
        Proposal.objects.filter(
            submitter=submitter, created_at__gt=now - PROPOSAL_WINDOW
        ).values_list("created_at", flat=True)
    )
    if len(recent) < MAX_PROPOSALS_PER_DAY:
        return None
    wait = min(recent) + PROPOSAL_WINDOW - now
    return max(1, int(wait.total_seconds()) + 1)


def proposal_limit_check(*, submitter: User) -> None:
    """ProposalLimitReached when the submitter is at the daily limit: asked before the
    upload is read, so that a refused request costs what a small one does. The count
    that decides is proposal_submit's, under its lock."""
    wait = _limit_wait(submitter, timezone.now())
    if wait is not None:
        raise ProposalLimitReached(wait)


def _store_upload(data: bytes, file_format: ProposalFormat) -> str:
    # A name of our own: the client's file name is data, never a path.
    name = f"proposals/{uuid.uuid4().hex}.{file_format.lower()}"
    return default_storage.save(name, ContentFile(data))


def proposal_submit(*, submitter: User, draft: ProposalDraft, data: bytes) -> Proposal:
    """Stores the upload privately, then records the proposal if the daily limit allows.

    The file is written before the transaction (object storage is network I/O) and
    removed again when the limit refuses the proposal.
    """
    stored = _store_upload(data, draft.file_format)
    try:
        with transaction.atomic():
            # The submitter's row is the lock: simultaneous proposals count one at a time.
            list(User.objects.select_for_update().filter(pk=submitter.pk).values_list("pk"))
            now = timezone.now()
            wait = _limit_wait(submitter, now)
            if wait is not None:
                raise ProposalLimitReached(wait)
            return Proposal.objects.create(
                submitter=submitter,
                company_name=draft.company_name,
                company=draft.company,
                logo=draft.logo,
                website=draft.website,
                source_url=draft.source_url,
                notes=draft.notes,
                file=stored,
                file_name=draft.file_name,
                file_format=draft.file_format,
                file_size=len(data),
                source=draft.source,
                channel=draft.channel,
                created_at=now,
            )
    except BaseException:
        default_storage.delete(stored)
        raise


# Review


class ProposalNotPending(Exception):
    """Reviewed already (both outcomes are final), perhaps by someone else just now."""


def _public_bytes(proposal: Proposal) -> bytes:
    """The file as the catalogue will serve it: a sanitised SVG, or a PNG.

    JPEG and WEBP become PNG, the catalogue's raster format; SVG is rebuilt from an
    allow-list so that nothing active can reach the public copy.
    """
    with default_storage.open(proposal.file.name, "rb") as upload:
        data = upload.read()
    if proposal.file_format == ProposalFormat.SVG:
        return sanitize_svg(data)
    if proposal.file_format == ProposalFormat.PNG:
        return data
    with Image.open(io.BytesIO(data)) as image:
        out = io.BytesIO()
        image.convert("RGBA" if image.mode in ("RGBA", "LA", "P") else "RGB").save(out, "PNG")
        return out.getvalue()


def _unique_slug(model, text: str) -> str:
    base = slugify(text)[:200] or "logo"
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _website(value: str | None) -> str | None:
    if not value:
        return None
    candidate = value if "://" in value else f"https://{value}"
    try:
        URLValidator(schemes=["http", "https"])(candidate)
    except ValidationError:
        return None
    return candidate


def proposal_approve(
    *, proposal: Proposal, reviewer: User, company: Company | None = None, note: str | None = None
) -> Proposal:
    """Approves: the company (named, picked by staff, or new), then a new logo, or for a
    proposal naming a logo a new file of it. Two staff approving at once make one logo."""
    if proposal.status != ProposalStatus.PENDING:
        raise ProposalNotPending
    # Slow work first, outside the transaction: reading, sanitising, storing the file.
    stored = file_store(data=_public_bytes(proposal))
    with transaction.atomic():
        locked = Proposal.objects.select_for_update().get(pk=proposal.pk)
        if locked.status != ProposalStatus.PENDING:
            raise ProposalNotPending
        logo = locked.logo
        company = company or locked.company or (logo.company if logo else None)
        if company is None:
            company = Company.objects.create(
                slug=_unique_slug(Company, locked.company_name),
                name=locked.company_name,
                website=_website(locked.website),
            )
            company_embedding_stale(company_ids=[company.id])
        if logo is None or logo.company_id != company.id:
            logo = logo_create(
                Logo(
                    company=company,
                    slug=_unique_slug(Logo, locked.company_name),
                    title=locked.company_name,
                ),
                current=company.current_logo_id is None,
            )
        asset_attach(logo=logo, variant=None, stored=stored)
        if company.current_logo_id is None:
            logo_make_current(logo=logo)
        locked.status = ProposalStatus.APPROVED
        locked.company, locked.logo = company, logo
        locked.reviewed_at, locked.reviewed_by = timezone.now(), reviewer
        locked.review_note = note or None
        locked.save(
            update_fields=["status", "company", "logo", "reviewed_at", "reviewed_by", "review_note"]
        )
    return locked


def proposal_reject(*, proposal: Proposal, reviewer: User, note: str) -> Proposal:
    if not note or not note.strip():
        raise ValueError("a rejection needs a note saying why")
    with transaction.atomic():
        locked = Proposal.objects.select_for_update().get(pk=proposal.pk)
        if locked.status != ProposalStatus.PENDING:
            raise ProposalNotPending
        locked.status = ProposalStatus.REJECTED
        locked.reviewed_at, locked.reviewed_by = timezone.now(), reviewer
        locked.review_note = note.strip()
        locked.save(update_fields=["status", "reviewed_at", "reviewed_by", "review_note"])
    return locked
