"""Reads of proposals, scoped to whoever may see them."""

from django.db.models import QuerySet

from accounts.models import User
from directory.catalogue.models import Company, Logo
from directory.catalogue.selectors import logo_find
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


class ProposalTargetError(Exception):
    """What a proposal names does not exist, or does not agree: `kind` is "company"
    (no such company slug), "logo" (no such logo) or "mismatch" (the logo is another
    company's)."""

    def __init__(self, kind: str, value: str) -> None:
        super().__init__(f"{kind}: {value}")
        self.kind = kind
        self.value = value


def proposal_targets(
    *, company_slug: str | None, logo_id: str | None
) -> tuple[Company | None, Logo | None]:
    """The company and logo a proposal names, which must exist and agree; the API and
    the website's form both ask here."""
    company = logo = None
    if company_slug:
        company = company_by_slug(company_slug)
        if company is None:
            raise ProposalTargetError("company", company_slug)
    if logo_id:
        logo = logo_by_id_or_slug(logo_id)
        if logo is None:
            raise ProposalTargetError("logo", logo_id)
        if company is not None and logo.company_id != company.id:
            raise ProposalTargetError("mismatch", company.slug)
    return company, logo
