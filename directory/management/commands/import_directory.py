from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from common.cli import progress
from directory.editing.services import CatalogueError
from directory.importing.derived import catalogue_derived_complete_reported
from directory.importing.importer import catalogue_import


class Command(BaseCommand):
    help = (
        "Imports a catalogue JSON file. File paths inside it are relative to the JSON file and "
        "each file's format is judged from its bytes. Idempotent by slug: a second import of "
        "the same file changes nothing (an entry whose text and files are unchanged is skipped "
        "unread); a changed file updates. Nothing is deleted. Companies go in by batches; a bad "
        "entry is reported with its position and skipped, and the command then exits non-zero. "
        "Then previews, brand colours and vectors are made on every core (unless --rows-only: "
        "then complete_import makes them); the last line on stderr says when everything is done."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--recheck",
            action="store_true",
            help="Compare every entry with the catalogue, even those unchanged since their "
            "last import (to bring back what was changed in the admin since).",
        )
        parser.add_argument(
            "--rows-only",
            action="store_true",
            help="Leave previews, colours and vectors pending, for complete_import.",
        )

    def handle(self, *args, path: Path, recheck: bool, rows_only: bool, **options):
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        try:
            report = catalogue_import(
                path,
                progress=lambda items, total: progress(
                    items, total=total, stream=self.stderr, label="import"
                ),
                recheck=recheck,
                derived=False,
            )
        except CatalogueError as exc:
            raise CommandError(str(exc)) from None
        if not rows_only:
            catalogue_derived_complete_reported(stream=self.stderr)
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
