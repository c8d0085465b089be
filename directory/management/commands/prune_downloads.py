from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError

from directory.downloads.services import downloads_prune


class Command(BaseCommand):
    help = (
        "Deletes download records older than --older-than-days (default 90; never the last "
        "24 hours, which quotas read). Logos keep their download counts. Meant to run daily."
    )

    def add_arguments(self, parser):
        parser.add_argument("--older-than-days", type=int, default=90)

    def handle(self, *args, older_than_days: int, **options):
        if older_than_days < 1:
            raise CommandError("--older-than-days must be 1 or more: quotas read the last day")
        deleted = downloads_prune(older_than=timedelta(days=older_than_days))
        self.stdout.write(f"deleted {deleted} download records")
