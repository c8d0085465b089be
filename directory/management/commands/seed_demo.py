import contextlib
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from common.cli import progress
from directory.catalogue.models import Company
from directory.demo import catalogue as demo
from directory.importing.derived import catalogue_derived_complete_reported
from directory.importing.importer import catalogue_import


class Command(BaseCommand):
    help = (
        "Fills the catalogue with invented companies of Spain and their drawn logos, through "
        "the catalogue import. The same --seed always gives the same catalogue, so a second "
        "run reports every company unchanged; another seed adds companies and updates those "
        "whose slugs coincide. With --if-empty it does nothing when any company exists. "
        "Exits non-zero when an entry could not be imported."
    )

    def add_arguments(self, parser):
        parser.add_argument("--companies", type=int, default=demo.DEFAULT_COMPANIES)
        parser.add_argument("--seed", type=int, default=demo.DEFAULT_SEED)
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing when any company exists."
        )
        parser.add_argument(
            "--files",
            type=Path,
            help="Draw the files into this folder and keep them there (what is already "
            "there is not drawn again) instead of into a temporary one.",
        )
        parser.add_argument(
            "--draw-only",
            action="store_true",
            help="Only draw the files into --files; touches no database.",
        )
        parser.add_argument(
            "--rows-only",
            action="store_true",
            help="Leave previews, colours and vectors pending, for complete_import.",
        )

    def handle(
        self,
        *args,
        companies: int,
        seed: int,
        if_empty: bool,
        rows_only: bool,
        files: Path | None,
        draw_only: bool,
        **options,
    ):
        if companies < 1:
            raise CommandError("--companies must be at least 1")
        if draw_only and files is None:
            raise CommandError("--draw-only needs --files")
        if not draw_only and if_empty and Company.objects.exists():
            self.stdout.write("the catalogue already has companies: nothing seeded")
            return
        catalogue = demo.catalogue_build(companies=companies, seed=seed)
        with contextlib.ExitStack() as stack:
            if files is None:
                files = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="seed-demo-")))
            path = demo.catalogue_write(catalogue, files, progress=self._bar("draw"))
            if draw_only:
                self.stdout.write(f"demo files drawn into {files}")
                return
            report = catalogue_import(path, progress=self._bar("import"), derived=False)
        if not rows_only:
            catalogue_derived_complete_reported(stream=self.stderr)
        for result in report.failed:
            self.stderr.write(f"entry {result.position} ({result.slug}): {result.reason}")
        summary = (
            f"demo companies: created {report.count('created')}, "
            f"updated {report.count('updated')}, unchanged {report.count('unchanged')}, "
            f"failed {report.count('failed')}"
        )
        if report.failed:
            raise CommandError(summary)
        self.stdout.write(summary)

    def _bar(self, label: str):
        def bar(items: Iterable, total: int) -> Iterator:
            return progress(items, total=total, stream=self.stderr, label=label)

        return bar
