"""The words of the search documents, for one-word search (directory_search_posting):
a one-word term of four letters or more counts its matches by rank class and length
there, through the table's key, instead of reading every match's row. Created from its
file, filled here from the catalogue (about six minutes at 1,000,000 companies) and kept
by the statement triggers of directory_search_posting_sync from then on. The lexicon
gets a trigram index, to find the words that hold a term. Going back keeps both, which
the triggers, applied from their files, write to."""

from pathlib import Path

from django.db import migrations

from common.sqlfiles import ApplySqlFiles, tables_missing, text

APP = Path(__file__).resolve().parent.parent  # directory/

INDEX = f"""DO $migration$
BEGIN
  IF to_regclass('directory_search_word_trgm') IS NULL THEN
    {text(APP, "indexes/directory_search_word_trgm")}
  END IF;
END $migration$;"""
FILL = """
TRUNCATE directory_search_posting;
SELECT directory_search_posting_add('company', array_agg(c.id), array_agg(c.search_doc),
                                    array_agg(true))
FROM directory_company c;
SELECT directory_search_posting_add('logo', array_agg(l.id), array_agg(l.search_doc),
                                    array_agg(l.is_current))
FROM directory_logo l;
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0018_writes_gram_fillfactor")]

    operations = [
        migrations.RunSQL(tables_missing(APP, "directory_search_posting"), migrations.RunSQL.noop),
        migrations.RunSQL(INDEX, migrations.RunSQL.noop),
        ApplySqlFiles("functions/directory_search_posting_add"),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
    ]
