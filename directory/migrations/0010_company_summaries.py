"""Company summaries kept as JSON text, so a search page reads them instead of building them.

Building the 20 summaries of a page (the company, its sector, its current logo and a
count of its logos, as JSON) was a third of the database's time for most company
searches. directory_company_summary holds each company's summary as
directory_company_page served it; statement-level triggers on companies, logos and
sectors rebuild the summaries their changes touch.

A rebuild locks the companies it rebuilds (FOR NO KEY UPDATE, in id order), so two
transactions that change one company's logos at once take turns, and the second
builds from what the first committed: a count read before the other's commit would
otherwise be written last. No foreign key: Django's test flush truncates the
catalogue tables without CASCADE; triggers remove the summaries instead.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

TABLES = sql_text(
    FROZEN,
    "tables/directory_company_summary",
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

# The summaries of the companies already there.
FILL = "SELECT directory_company_summaries_refresh(ARRAY(SELECT id FROM directory_company));\n"

TABLES_REVERSE = """
DROP TRIGGER directory_company_summary_sector_update ON directory_sector;
DROP TRIGGER directory_company_summary_logo_delete ON directory_logo;
DROP TRIGGER directory_company_summary_logo_update ON directory_logo;
DROP TRIGGER directory_company_summary_logo_insert ON directory_logo;
DROP TRIGGER directory_company_summary_truncate ON directory_company;
DROP TRIGGER directory_company_summary_delete ON directory_company;
DROP TRIGGER directory_company_summary_update ON directory_company;
DROP TRIGGER directory_company_summary_insert ON directory_company;
DROP FUNCTION directory_company_summary_truncate();
DROP FUNCTION directory_company_summary_sector_sync();
DROP FUNCTION directory_company_summary_logo_sync();
DROP FUNCTION directory_company_summary_company_sync();
DROP FUNCTION directory_company_summaries_refresh(uuid[]);
DROP TABLE directory_company_summary;
"""

# The company page reads the stored summaries instead of building them; going back
# restores the page of migration 0009, which builds them.
PAGE = sql_text(FROZEN, "functions/directory_company_page")
PAGE_BEFORE = sql_text(FROZEN, "reverse/functions/directory_company_page")


class Migration(migrations.Migration):
    dependencies = [("directory", "0009_company_page_seed_pool")]

    operations = [
        migrations.RunSQL(TABLES + FILL, TABLES_REVERSE),
        migrations.RunSQL(PAGE, PAGE_BEFORE),
    ]
