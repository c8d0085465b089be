"""The import's derived pass finds what is pending (directory/importing/derived.py) through
partial indexes holding only the logos and variants still waiting for a preview or their
colours: after an import that changed no file, nothing, where its two scans read every logo
and variant of the catalogue (1.5 million logos at a million companies) for nothing. The
predicates are written as Django writes the pass's filters, so that the planner matches
them."""

from django.db import migrations

PENDING = """
CREATE INDEX IF NOT EXISTS directory_logo_derived_pending ON directory_logo (id)
    WHERE (preview_pending OR colors_computed_at IS NULL);
CREATE INDEX IF NOT EXISTS directory_variant_preview_pending ON directory_variant (id)
    WHERE preview_pending;
"""
NO_PENDING = """
DROP INDEX IF EXISTS directory_logo_derived_pending;
DROP INDEX IF EXISTS directory_variant_preview_pending;
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0012_search_one_pass")]

    operations = [migrations.RunSQL(PENDING, NO_PENDING)]
