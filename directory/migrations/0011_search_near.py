"""Each lexicon word's corrections are stored (directory_search_near), so that search
reads a correctly typed word's in one index probe instead of computing them
(docs/search.md); directory_search_learn keeps them as words are added. The tables (and
directory_search_reach, the lexicon's long keys with two letters out, which keeping them
needs) are created here unless 0001 built them from their files, and filled for every word at
once (directory_search_near_add)."""

from pathlib import Path

from django.db import migrations

from common.sqlfiles import ApplySqlFiles, tables_missing

APP = Path(__file__).resolve().parent.parent  # directory/

NEAR_TABLE = tables_missing(APP, "directory_search_near", "directory_search_reach")
FILL = """
TRUNCATE directory_search_reach, directory_search_near;
SELECT directory_search_near_add(ARRAY(SELECT word FROM directory_search_word));
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0010_search_gram_total")]

    operations = [
        migrations.RunSQL(NEAR_TABLE, migrations.RunSQL.noop),
        ApplySqlFiles(
            "functions/directory_search_lookups",
            "functions/directory_search_stored",
            "functions/directory_search_pair",
            "functions/directory_search_near_add",
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
    ]
