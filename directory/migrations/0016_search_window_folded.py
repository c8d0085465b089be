"""A three-letter term's window is found in directory_search itself: the functions that
computed it from arrays of lengths and counts, and gave each class's patterns, go."""

from django.db import migrations

DROP = """
DROP FUNCTION IF EXISTS directory_search_window(integer[], bigint[], bigint, integer, integer);
DROP FUNCTION IF EXISTS directory_search_class_patterns(directory_search_plan, integer);
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0015_search_as_typed")]

    operations = [migrations.RunSQL(DROP, migrations.RunSQL.noop)]
