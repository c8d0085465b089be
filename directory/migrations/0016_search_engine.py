"""The search engine, smaller and better planned.

A three-letter term's window is found in directory_search itself: the functions that
computed it from arrays of lengths and counts, and gave each class's patterns, go.

The search documents keep a larger sample in their statistics (1,000 values, the
default 100): PostgreSQL estimates a LIKE pattern without a fixed start ('%uez%') by
matching it against the column's histogram, and with 100 values a run that 2% of a
million logos hold matched none, so the trigram index was expected to return 150 rows
(29,591 at 1,000,000) and the length condition of a three-letter term's window was left
as a filter over every match's heap page. With 1,000 the estimate is near the truth and
the planner joins both indexes (BitmapAnd). ANALYZE takes the new sample now. Going back
keeps the larger sample, which no earlier code depends on (and an ALTER TABLE there
fails while the catalogue has deferred trigger events pending in the same transaction).
"""

from django.db import migrations

DROP = """
DROP FUNCTION IF EXISTS directory_search_window(integer[], bigint[], bigint, integer, integer);
DROP FUNCTION IF EXISTS directory_search_class_patterns(directory_search_plan, integer);
"""

STATISTICS = """
ALTER TABLE directory_company ALTER COLUMN search_doc SET STATISTICS 1000;
ALTER TABLE directory_logo ALTER COLUMN search_doc SET STATISTICS 1000;
ANALYZE directory_company (search_doc);
ANALYZE directory_logo (search_doc);
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0015_search_as_typed")]

    operations = [
        migrations.RunSQL(DROP, migrations.RunSQL.noop),
        migrations.RunSQL(STATISTICS, migrations.RunSQL.noop),
    ]
