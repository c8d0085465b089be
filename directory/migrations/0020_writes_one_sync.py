"""The postings are kept beside the gram counts, by directory_search_grams_add, which the
companies' and logos' search triggers call with the documents they compare once; the
companies' TRUNCATE trigger empties every table their triggers keep. The triggers and
functions that did those jobs apart go (their files are gone); the files applied after
the migrations do their work. Going back keeps it so."""

from django.db import migrations

DROP = """
DROP TRIGGER IF EXISTS directory_company_posting_insert ON directory_company;
DROP TRIGGER IF EXISTS directory_company_posting_update ON directory_company;
DROP TRIGGER IF EXISTS directory_company_posting_delete ON directory_company;
DROP TRIGGER IF EXISTS directory_company_posting_truncate ON directory_company;
DROP TRIGGER IF EXISTS directory_logo_posting_insert ON directory_logo;
DROP TRIGGER IF EXISTS directory_logo_posting_update ON directory_logo;
DROP TRIGGER IF EXISTS directory_logo_posting_delete ON directory_logo;
DROP TRIGGER IF EXISTS directory_company_fulltext_truncate ON directory_company;
DROP TRIGGER IF EXISTS directory_company_summary_truncate ON directory_company;
DROP FUNCTION IF EXISTS directory_search_posting_sync();
DROP FUNCTION IF EXISTS directory_company_fulltext_truncate();
DROP FUNCTION IF EXISTS directory_company_summary_truncate();
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0019_search_posting")]

    operations = [migrations.RunSQL(DROP, migrations.RunSQL.noop)]
