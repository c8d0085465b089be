from django.core.management.base import BaseCommand

from common.cli import progress
from directory.catalogue.models import Logo
from directory.editing.services import logo_colors_refresh


class Command(BaseCommand):
    help = (
        "Reads the brand colours of every logo whose colours are pending (never read, or "
        "whose main file changed), from its main SVG or PNG file. With --all, every logo "
        "again. Prints how many logos got colours and how many have none readable."
    )

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Recompute every logo.")

    def handle(self, *args, all: bool, **options):
        logos = Logo.objects.all() if all else Logo.objects.filter(colors_computed_at__isnull=True)
        ids = list(logos.order_by("-is_current", "id").values_list("id", flat=True))
        with_colors = 0
        for logo_id in progress(ids, total=len(ids), stream=self.stderr, label="colours"):
            with_colors += bool(logo_colors_refresh(logo_id=logo_id))
        self.stdout.write(
            f"colours read for {len(ids)} logos: {with_colors} with colours, "
            f"{len(ids) - with_colors} without a readable SVG or PNG"
        )
