"""The company summaries' and the download grant's SQL, and directory_fold, from files.

Applies the current text of every function and trigger that migrations 0001, 0010 and
0011 created, from the frozen copies in sql/0015_summaries_and_grant_from_files/
(docs/sql.md). One change of behaviour: directory_company_summaries_refresh counts the
logos of the companies it rebuilds in one grouped pass instead of one count per company,
which made loading a million companies with their logos grow with its square.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

FROM_FILES = sql_text(
    FROZEN,
    "functions/directory_fold",
    "functions/directory_download_grant",
    "functions/directory_company_summaries_refresh",
    "functions/directory_company_summary_company_sync",
    "functions/directory_company_summary_logo_sync",
    "functions/directory_company_summary_sector_sync",
    "functions/directory_company_summary_truncate",
    "triggers/directory_company_summary_insert",
    "triggers/directory_company_summary_update",
    "triggers/directory_company_summary_delete",
    "triggers/directory_company_summary_truncate",
    "triggers/directory_company_summary_logo_insert",
    "triggers/directory_company_summary_logo_update",
    "triggers/directory_company_summary_logo_delete",
    "triggers/directory_company_summary_sector_update",
)


class Migration(migrations.Migration):
    dependencies = [("directory", "0014_word_search")]

    operations = [migrations.RunSQL(FROM_FILES)]
