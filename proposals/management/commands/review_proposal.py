"""Review a proposal from the shell, through the same services as the admin."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from common.svg import UnsafeSvg
from directory.editing.services import CatalogueError
from proposals.models import Proposal
from proposals.selectors import company_by_slug
from proposals.services import ProposalNotPending, proposal_approve, proposal_reject

# A file the sanitiser refuses or that cannot be stored as a logo: staff reject it instead.
UNUSABLE_FILE = (UnsafeSvg, CatalogueError, OSError, SyntaxError, ValueError)


class Command(BaseCommand):
    help = (
        "Approves or rejects the pending proposal ID, as the staff user --reviewer (recorded "
        "as its reviewer, like a review made in the admin). --approve may link an existing "
        "company with --company SLUG; --reject needs --note saying why. Both are final."
    )

    def add_arguments(self, parser):
        parser.add_argument("proposal_id", metavar="ID", help="The proposal's id (a UUID).")
        decision = parser.add_mutually_exclusive_group(required=True)
        decision.add_argument("--approve", action="store_true")
        decision.add_argument("--reject", action="store_true")
        parser.add_argument(
            "--reviewer",
            required=True,
            metavar="EMAIL",
            help="Email of the active staff user reviewing it.",
        )
        parser.add_argument("--company", metavar="SLUG", help="Approve into this existing company.")
        parser.add_argument("--note", metavar="TEXT", help="Review note: required to reject.")

    def handle(self, *args, proposal_id, approve, reject, reviewer, company, note, **options):
        note = (note or "").strip()
        if reject and not note:
            raise CommandError("--reject needs --note saying why")
        if reject and company:
            raise CommandError("--company is for --approve only")
        reviewer_user = self._reviewer(reviewer)
        proposal = self._proposal(proposal_id)
        target = None
        if company:
            target = company_by_slug(company)
            if target is None:
                raise CommandError(f"no company with slug {company!r}")
        try:
            if reject:
                proposal_reject(proposal=proposal, reviewer=reviewer_user, note=note)
            else:
                approved = proposal_approve(
                    proposal=proposal, reviewer=reviewer_user, company=target, note=note or None
                )
        except ProposalNotPending:
            proposal.refresh_from_db()
            raise CommandError(
                f"proposal {proposal.pk} is {proposal.status} already; a review is final"
            ) from None
        except UNUSABLE_FILE as exc:
            raise CommandError(f"the proposal's file cannot be used ({exc}); reject it") from exc
        if reject:
            self.stdout.write(f"rejected {proposal.pk}")
        else:
            self.stdout.write(
                f"approved {approved.pk}: company {approved.company.slug} logo {approved.logo.slug}"
            )

    def _reviewer(self, email: str) -> User:
        user = User.objects.filter(email=User.objects.normalize_email(email).lower()).first()
        if user is None or not (user.is_active and user.is_staff):
            raise CommandError(f"--reviewer: {email!r} is not an active staff user")
        return user

    def _proposal(self, value: str) -> Proposal:
        try:
            proposal = Proposal.objects.filter(pk=value).first()
        except ValidationError:
            proposal = None  # not even a UUID
        if proposal is None:
            raise CommandError(f"no proposal with id {value!r}")
        return proposal
