"""Reading a term costs a quarter of what it did. Every search reads its term into a plan
(directory_search_plan), which ran a query per word and per kind of pattern, and called
SQL functions that PostgreSQL cannot inline and so planned again on every call
(directory_search_rows, directory_search_lead, directory_search_histogram,
directory_search_window, directory_search_key). The plan is now built in loops of plain
PL/pgSQL expressions, and those helpers are PL/pgSQL, whose statements keep their plans
for the connection. Every result is the same.

Applies the frozen copies in sql/0020_search_helpers_in_plpgsql/ (docs/sql.md); going
back restores the earlier texts from reverse/.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)
FUNCTIONS = [
    "functions/directory_search_rows",
    "functions/directory_search_lead",
    "functions/directory_search_histogram",
    "functions/directory_search_window",
    "functions/directory_search_key",
    "functions/directory_search_plan",
]


class Migration(migrations.Migration):
    dependencies = [("directory", "0019_distance_without_transpositions")]

    operations = [
        migrations.RunSQL(
            sql_text(FROZEN, *FUNCTIONS),
            reverse_sql=sql_text(FROZEN / "reverse", *FUNCTIONS),
        ),
    ]
