"""Each three-letter run's count over all document lengths (directory_search_gram_total),
by which a term of several words is narrowed by its rarest words
(directory_search_lead); filled here from directory_search_gram and kept beside it by
directory_search_grams_add. A database that went through 0009 with the current
directory_search_grams_add holds it filled already: the fill is a recount."""

from pathlib import Path

from django.db import migrations

from common.sqlfiles import ApplySqlFiles, tables_missing

APP = Path(__file__).resolve().parent.parent  # directory/

TABLE = tables_missing(APP, "directory_search_gram_total")
FILL = """
TRUNCATE directory_search_gram_total;
INSERT INTO directory_search_gram_total (kind, gram, inside)
SELECT kind, gram, sum(inside) FROM directory_search_gram GROUP BY kind, gram
HAVING sum(inside) <> 0;
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0009_search_gram")]

    operations = [
        migrations.RunSQL(TABLE, "DROP TABLE directory_search_gram_total"),
        ApplySqlFiles("functions/directory_search_grams_add"),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
    ]
