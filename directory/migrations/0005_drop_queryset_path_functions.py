"""The functions only the admin's QuerySet search called go: the admin searches
through the page functions, as the API and the website do (directory/search/selectors.py)."""

from django.db import migrations

GONE = [
    "directory_logo_search_plan",
    "directory_company_search_plan",
    "directory_logo_found",
    "directory_company_found",
    "directory_search_lead_patterns",
]


class Migration(migrations.Migration):
    dependencies = [("directory", "0004_drop_search_word_key")]

    operations = [
        migrations.RunSQL(
            [f"DROP FUNCTION IF EXISTS {name}" for name in GONE], migrations.RunSQL.noop
        )
    ]
