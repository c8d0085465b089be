"""Company and logo search share their functions (directory_search and those it calls,
by the kind of row searched): the twin functions of each go."""

from django.db import migrations

GONE = [
    "directory_company_search",
    "directory_logo_search",
    "directory_company_search_words",
    "directory_logo_search_words",
    "directory_company_lengths",
    "directory_logo_lengths",
]


class Migration(migrations.Migration):
    dependencies = [("directory", "0005_drop_queryset_path_functions")]

    operations = [
        migrations.RunSQL(
            [f"DROP FUNCTION IF EXISTS {name}" for name in GONE], migrations.RunSQL.noop
        )
    ]
