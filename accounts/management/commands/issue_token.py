from datetime import timedelta

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from accounts.models import Plan, Scope, Source
from accounts.services import TokenLimitReached, token_issue, user_ensure


def _scopes(text: str) -> list[str]:
    scopes = [part.strip() for part in text.split(",") if part.strip()]
    unknown = sorted(set(scopes) - set(Scope.values))
    if not scopes or unknown:
        raise CommandError(
            f"--scopes: unknown {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(Scope.values)}"
        )
    return scopes


class Command(BaseCommand):
    help = (
        "Makes an API token for EMAIL (creating the user, without a usable password, if "
        "missing) and prints the token alone on stdout. It is shown only this once."
    )

    def add_arguments(self, parser):
        parser.add_argument("email")
        parser.add_argument(
            "--scopes", required=True, help=f"Comma-separated: {', '.join(Scope.values)}."
        )
        parser.add_argument("--source", choices=Source.values, default=Source.API)
        parser.add_argument("--plan", choices=Plan.values, help="Also set the user's plan.")
        parser.add_argument("--name", default="Issued by an operator")
        parser.add_argument(
            "--expires-in-days",
            type=int,
            help="Days until it expires (0: already expired, for drills). Default: never.",
        )

    def handle(self, *args, email, scopes, source, plan, name, expires_in_days, **options):
        try:
            validate_email(email)
        except ValidationError as error:
            raise CommandError(f"{email!r} is not an email address") from error
        if expires_in_days is not None and expires_in_days < 0:
            raise CommandError("--expires-in-days must be 0 or more")
        if not name.strip() or len(name) > 100:
            raise CommandError("--name must have 1 to 100 characters")
        expires_at = (
            None if expires_in_days is None else timezone.now() + timedelta(days=expires_in_days)
        )
        try:
            with transaction.atomic():
                user = user_ensure(email=email, plan=plan)
                issued = token_issue(
                    user=user,
                    name=name,
                    scopes=_scopes(scopes),
                    source=source,
                    expires_at=expires_at,
                )
        except TokenLimitReached as refusal:
            raise CommandError(f"{refusal}: revoke one first") from None
        self.stdout.write(issued.secret)
