from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from config.cli import progress
from directory.importer import catalogue_import
from directory.services import CatalogueError


class Command(BaseCommand):
    help = (
        "Imports a catalogue JSON file. File paths inside it are relative to the JSON file and "
        "each file's format is judged from its bytes. Idempotent by slug: a second import of "
        "the same file changes nothing; a changed file updates. Nothing is deleted. One company "
        "per transaction; a bad entry is reported with its position and skipped, and the "
        "command then exits non-zero."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        try:
            report = catalogue_import(
                path,
                progress=lambda items, total: progress(
                    items, total=total, stream=self.stderr, label="import"
                ),
            )
        except CatalogueError as exc:
            raise CommandError(str(exc)) from None
        for result in report.failed:
            name = f" ({result.slug})" if result.slug else ""
            self.stderr.write(f"entry {result.position}{name}: {result.reason}")
        summary = (
            f"created {report.count('created')}, updated {report.count('updated')}, "
            f"unchanged {report.count('unchanged')}, failed {report.count('failed')}"
        )
        if report.failed:
            raise CommandError(summary)
        self.stdout.write(summary)
