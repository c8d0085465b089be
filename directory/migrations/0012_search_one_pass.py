"""A one-word term's matches are read once, counted and ranked together
(directory_search_ranked returns the count): the functions that counted them by rank
class first go."""

from django.db import migrations

DROP = """
DROP FUNCTION IF EXISTS directory_search_classes(
  text, directory_search_plan, bigint[], text, integer);
DROP FUNCTION IF EXISTS directory_search_class_words(directory_search_plan, integer);
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0011_search_near")]

    operations = [migrations.RunSQL(DROP, migrations.RunSQL.noop)]
