from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError

from accounts.services import device_codes_prune


class Command(BaseCommand):
    help = (
        "Deletes device-link codes that expired more than --older-than-days ago (default 7), "
        "which frees their user codes. Meant to run daily."
    )

    def add_arguments(self, parser):
        parser.add_argument("--older-than-days", type=int, default=7)

    def handle(self, *args, older_than_days: int, **options):
        if older_than_days < 0:
            raise CommandError("--older-than-days must be 0 or more")
        deleted = device_codes_prune(older_than=timedelta(days=older_than_days))
        self.stdout.write(f"deleted {deleted} expired device codes")
