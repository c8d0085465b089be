"""The review queue from the shell: what review_proposal needs, one proposal a line."""

from django.core.management.base import BaseCommand

from proposals.models import ProposalStatus
from proposals.selectors import proposals_pending


class Command(BaseCommand):
    help = (
        "Lists the proposals waiting for review, oldest first, one a line, tab-separated: "
        "id, date submitted (UTC), submitter's email, company name, the company and logo it "
        "names (slugs, or -), file format and size. The id is what review_proposal takes. "
        "With --status, the proposals in that state instead."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--status", choices=ProposalStatus.values, default=ProposalStatus.PENDING
        )

    def handle(self, *args, status: str, **options):
        for proposal in proposals_pending(status=status):
            self.stdout.write(
                "\t".join(
                    [
                        str(proposal.pk),
                        proposal.created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                        proposal.submitter.email,
                        proposal.company_name,
                        proposal.company.slug if proposal.company else "-",
                        proposal.logo.slug if proposal.logo else "-",
                        proposal.file_format,
                        str(proposal.file_size),
                    ]
                )
            )
