"""Reads of proposals, scoped to whoever may see them."""

from django.db.models import QuerySet

from accounts.models import User
from directory.models import Company, Logo
from directory.selectors import logo_find
from proposals.models import Proposal, ProposalStatus


def proposals_of(submitter: User) -> QuerySet[Proposal]:
    return Proposal.objects.filter(submitter=submitter).select_related("company", "logo")


def proposals_pending(*, status: str = ProposalStatus.PENDING) -> QuerySet[Proposal]:
    """The review queue (or the proposals in `status`), oldest first."""
    return (
        Proposal.objects.filter(status=status)
        .select_related("submitter", "company", "logo")
        .order_by("created_at", "id")
    )


def company_by_slug(slug: str) -> Company | None:
    return Company.objects.filter(slug=slug).first()


def logo_by_id_or_slug(value: str) -> Logo | None:
    return logo_find(id_or_slug=value)
