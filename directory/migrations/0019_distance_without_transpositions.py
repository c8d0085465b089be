"""Typo correction's edit distance (directory_search_distance) fills its matrix only for
words where a transposition could count: two different neighbouring letters of one word
appearing swapped in the other. Otherwise the distance is the Levenshtein distance,
which fuzzystrmatch computes in C. The values are the same.

Applies the frozen copy in sql/0019_distance_without_transpositions/ (docs/sql.md);
going back restores the earlier text from reverse/.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)


class Migration(migrations.Migration):
    dependencies = [("directory", "0018_generic_plans")]

    operations = [
        migrations.RunSQL(
            sql_text(FROZEN, "functions/directory_search_distance"),
            reverse_sql=sql_text(FROZEN / "reverse", "functions/directory_search_distance"),
        ),
    ]
