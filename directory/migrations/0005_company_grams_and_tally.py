"""Exact, precomputed answers for the company listings that would otherwise scan the most rows.

* directory_company_gram: for every three-character term of letters and digits (as
  folded), every company whose names contain it, grouped by the leading keys of the
  search order: rank tier and similarity. A page of such a term reads the few best
  groups instead of ranking thousands of matches; the total is the sum of group sizes.
* directory_company_tally: how many companies each (sector, province) pair has, so a
  listing filtered by sector and/or province counts without visiting its rows.

Statement-level triggers keep both exact. A statement changes the rows it touches in
key order, so two statements never wait for each other's rows in opposite orders.
directory_company_page (directory.search) reads them.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

# Each table starts from the companies already there, filled as soon as it exists.
FILL_COMPANY_GRAM = """
INSERT INTO directory_company_gram (gram, tier, sim, size, ids)
  SELECT e.gram, e.tier, e.sim, count(*), array_agg(c.id)
  FROM directory_company c, directory_gram_entries(c.search_text, c.name_fold) e
  GROUP BY e.gram, e.tier, e.sim;
"""

FILL_COMPANY_GRAM_TOTAL = """
INSERT INTO directory_company_gram_total (gram, size)
  SELECT gram, sum(size) FROM directory_company_gram GROUP BY gram;
"""

FILL_COMPANY_TALLY = """
INSERT INTO directory_company_tally (sector_id, province_fold, size)
  SELECT sector_id, province_fold, count(*) FROM directory_company
  GROUP BY sector_id, province_fold;
"""

TABLES = "\n".join(
    (
        sql_text(FROZEN, "functions/directory_gram_entries", "tables/directory_company_gram"),
        FILL_COMPANY_GRAM,
        sql_text(FROZEN, "tables/directory_company_gram_total"),
        FILL_COMPANY_GRAM_TOTAL,
        sql_text(FROZEN, "tables/directory_company_tally", "indexes/directory_company_tally_key"),
        FILL_COMPANY_TALLY,
        sql_text(
            FROZEN,
            "types/directory_company_change",
            "functions/directory_company_indexes_sync",
            "functions/directory_company_indexes_truncate",
            "triggers/directory_company_indexes_insert",
            "triggers/directory_company_indexes_update",
            "triggers/directory_company_indexes_delete",
            "triggers/directory_company_indexes_truncate",
        ),
    )
)

PAGE = sql_text(FROZEN, "functions/directory_company_page")

PAGE_REVERSE = "DROP FUNCTION directory_company_page(text, text, text, text, integer, integer);"


TABLES_REVERSE = """
DROP TRIGGER directory_company_indexes_truncate ON directory_company;
DROP TRIGGER directory_company_indexes_delete ON directory_company;
DROP TRIGGER directory_company_indexes_update ON directory_company;
DROP TRIGGER directory_company_indexes_insert ON directory_company;
DROP FUNCTION directory_company_indexes_truncate();
DROP FUNCTION directory_company_indexes_sync();
DROP TYPE directory_company_change;
DROP TABLE directory_company_tally;
DROP TABLE directory_company_gram_total;
DROP TABLE directory_company_gram;
DROP FUNCTION directory_gram_entries(text, text);
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0004_trigram_counts")]

    operations = [
        migrations.RunSQL(TABLES, TABLES_REVERSE),
        migrations.RunSQL(PAGE, PAGE_REVERSE),
    ]
