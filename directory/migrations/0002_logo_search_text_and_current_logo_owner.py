from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

LOGO_SEARCH_TEXT = sql_text(
    FROZEN,
    "functions/directory_logo_search_text",
    "triggers/directory_logo_search_text",
    "functions/directory_company_renamed",
    "triggers/directory_company_renamed",
)

LOGO_SEARCH_TEXT_REVERSE = """
DROP TRIGGER directory_company_renamed ON directory_company;
DROP FUNCTION directory_company_renamed();
DROP TRIGGER directory_logo_search_text ON directory_logo;
DROP FUNCTION directory_logo_search_text();
"""

# A company's current logo must be one of its own logos.
CURRENT_LOGO_OWNER = """
ALTER TABLE directory_company ADD CONSTRAINT directory_company_current_logo_owner
  FOREIGN KEY (current_logo_id, id) REFERENCES directory_logo (id, company_id)
  ON DELETE NO ACTION DEFERRABLE INITIALLY DEFERRED;
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0001_initial")]

    operations = [
        # Logo search matches the title and the company's name in one indexed column;
        # the company's name lives in another table, hence a trigger, not a generated column.
        migrations.RunSQL(LOGO_SEARCH_TEXT, LOGO_SEARCH_TEXT_REVERSE),
        migrations.RunSQL(
            CURRENT_LOGO_OWNER,
            "ALTER TABLE directory_company DROP CONSTRAINT directory_company_current_logo_owner;",
        ),
    ]
