from django.core.management.base import BaseCommand

from directory.importing.derived import catalogue_derived_complete_reported


class Command(BaseCommand):
    help = (
        "Makes what an import leaves pending: previews of logos and variants, brand colours, "
        "and the vectors of companies without one or changed since. import_directory and "
        "seed_demo do it themselves unless given --rows-only; this finishes such an import, "
        "or one that was stopped. Safe to run any time: with nothing pending it does nothing. "
        "The last line on stderr says when everything is done."
    )

    def handle(self, *args, **options):
        catalogue_derived_complete_reported(stream=self.stderr)
