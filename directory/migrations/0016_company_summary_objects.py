"""Company summaries keep their sector and current logo as objects, keyed as
CompanySummarySerializer's sources, so that the serializer shows them as it shows a
company instance, and every stored summary is rebuilt in that shape.

Applies the frozen copy of directory_company_summaries_refresh in
sql/0016_company_summary_objects/ (docs/sql.md). Irreversible, like migration 0015:
going back would mean applying 0015's text again by hand and rebuilding.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

REBUILD = "SELECT directory_company_summaries_refresh(ARRAY(SELECT id FROM directory_company));"


class Migration(migrations.Migration):
    dependencies = [("directory", "0015_summaries_and_grant_from_files")]

    operations = [
        migrations.RunSQL(sql_text(FROZEN, "functions/directory_company_summaries_refresh")),
        migrations.RunSQL(REBUILD),
    ]
