import time

from django.core.management.base import BaseCommand, CommandError

from common.cli import progress
from directory.search import embeddings


class Command(BaseCommand):
    help = (
        "Embeds every company whose text (names, sector, province, about) changed since its "
        "vector was made, or that has none, for related=true on GET /companies; then, from "
        "EMBEDDING_INDEX_MIN_COMPANIES vectors on, rebuilds the approximate index that the "
        "workers memory-map. Prints how many were embedded and how many were unchanged."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-index", action="store_true", help="Only the vectors; leave the index as it is."
        )

    def handle(self, *args, no_index: bool, **options):
        model = embeddings.backend()
        if model is None:
            raise CommandError("the embedding backend cannot load; see the warning above")
        started = time.monotonic()

        def bar(items, total):
            return progress(items, total=total, stream=self.stderr, label="embeddings")

        summary = embeddings.company_embedding_refresh(progress=bar)
        line = f"{model.name}: {summary.embedded} companies embedded, {summary.unchanged} unchanged"
        if not no_index:
            size = embeddings.company_embedding_index_refresh()
            line += (
                f"; index of {size} vectors at {embeddings.index_path(model.name)}"
                if size is not None
                else "; no index (exact ranking below EMBEDDING_INDEX_MIN_COMPANIES)"
            )
        self.stdout.write(f"{line} in {time.monotonic() - started:.1f} s")
