"""A renamed company writes its logos' search documents in directory_company_search_sync,
computed once from the new name and only for the logos whose document changes: the
statement trigger directory_company_renamed, which asked every logo's row trigger for
its document again, goes (docs/performance.md, catalogue writes)."""

from django.db import migrations

GONE = """
DROP TRIGGER IF EXISTS directory_company_renamed ON directory_company;
DROP FUNCTION IF EXISTS directory_company_renamed();
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0013_import_pending")]

    operations = [migrations.RunSQL(GONE, migrations.RunSQL.noop)]
