"""A typo correction is a whole word of a name: search finds the documents holding one
through an index on the document's words (string_to_array(search_doc, ' ')), one probe
for all of a word's corrections, where the trigram index took a scan for each. The
search plan carries the corrections as words for it (directory_search_plan's `loose`,
`near_words` and `far_words`). directory_search_regex, which read a corrected word's
patterns as one regular expression for the trigram index, goes."""

import django.contrib.postgres.indexes
from django.db import migrations, models

import directory.catalogue.models

# A database that 0001 built from the type's current file holds these already.
PLAN_FIELDS = """
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute
                 WHERE attrelid = 'directory_search_plan'::regclass AND attname = 'loose') THEN
    ALTER TYPE directory_search_plan
      ADD ATTRIBUTE loose text[], ADD ATTRIBUTE near_words text[],
      ADD ATTRIBUTE far_words text[];
  END IF;
END $$;
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0007_search_deletions")]

    operations = [
        # Migrated in one transaction with 0003, whose updates leave deferred trigger
        # events, which CREATE INDEX refuses to run beside.
        migrations.RunSQL("SET CONSTRAINTS ALL IMMEDIATE", migrations.RunSQL.noop),
        migrations.RunSQL(PLAN_FIELDS, migrations.RunSQL.noop),
        *(
            migrations.AddIndex(
                model_name=model,
                index=django.contrib.postgres.indexes.GinIndex(
                    directory.catalogue.models.DocWords(models.F("search_doc")),
                    fastupdate=False,
                    name=f"directory_{model}_search_words",
                ),
            )
            for model in ("company", "logo")
        ),
        # Search plans these indexes by the statistics of their expression, which only an
        # ANALYZE gathers: without them it takes a correction for a common word.
        migrations.RunSQL("ANALYZE directory_company, directory_logo", migrations.RunSQL.noop),
        migrations.RunSQL(
            "DROP FUNCTION IF EXISTS directory_search_regex(text[])", migrations.RunSQL.noop
        ),
    ]
