"""The three-letter run counts serve logo search too: directory_company_gram becomes
directory_search_gram, by kind of row ('company' or 'logo') and current or not, filled
here from the catalogue and kept by the companies' and logos' statement triggers
(directory_search_grams_add). A one-word term's rank classes are counted in one pass
over its matches (directory_search_classes), where each class's pattern set was counted
apart and the classes told apart by difference (directory_search_lengths,
directory_search_histogram). The logos' lexicon trigger function
directory_logo_search_learn becomes directory_logo_search_sync, with triggers named for
it."""

from pathlib import Path

from django.db import migrations

from common.sqlfiles import ApplySqlFiles, tables_missing

APP = Path(__file__).resolve().parent.parent  # directory/

# A database that 0001 built from the table's current file holds it already. The fill
# below runs directory_search_grams_add's current text, which keeps
# directory_search_gram_total (0010) too.
GRAM_TABLE = tables_missing(APP, "directory_search_gram", "directory_search_gram_total")
GONE = """
DROP TRIGGER IF EXISTS directory_logo_search_learn_insert ON directory_logo;
DROP TRIGGER IF EXISTS directory_logo_search_learn_update ON directory_logo;
DROP FUNCTION IF EXISTS directory_logo_search_learn();
DROP FUNCTION IF EXISTS directory_company_grams_add(text[], integer[]);
DROP FUNCTION IF EXISTS directory_company_gram_lengths(text, integer);
DROP FUNCTION IF EXISTS directory_search_lengths(text, text[], text[], text[], bigint[], text);
DROP FUNCTION IF EXISTS directory_search_histogram(integer[], bigint[], integer[], bigint[]);
DROP TABLE IF EXISTS directory_company_gram;
"""
FILL = """
TRUNCATE directory_search_gram, directory_search_gram_total;
SELECT directory_search_grams_add('company', array_agg(c.search_doc), array_agg(true), array_agg(1))
FROM directory_company c;
SELECT directory_search_grams_add('logo', array_agg(l.search_doc), array_agg(l.is_current),
                                  array_agg(1))
FROM directory_logo l;
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0008_search_words")]

    operations = [
        migrations.RunSQL(GONE, migrations.RunSQL.noop),
        migrations.RunSQL(GRAM_TABLE, migrations.RunSQL.noop),
        ApplySqlFiles("functions/directory_search_grams_add"),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
    ]
