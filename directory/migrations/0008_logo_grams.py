"""Logo search served like company search (migration 0005): precomputed groups for
three-character terms, and one PL/pgSQL function for every page.

* directory_logo_gram: for every three-character term of letters and digits (as folded),
  every logo whose search_text (title and company name) contains it, grouped by the
  leading keys of the logo search order: current logos first, then rank tier and
  similarity of the title. A page of such a term reads the few best groups instead of
  ranking thousands of matches (a third of logo searches, and the broadest ones).
* directory_logo_gram_total: how many logos contain each gram, for the exact total, and
  for picking a longer term's rarest grams to look up in the trigram index.

Statement-level triggers keep both exact; a company's rename reaches them through the
logo rows it rewrites (migration 0002). Like 0005's, a statement changes the rows it
touches in key order. directory_logo_page (directory.search) reads them.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

# Each table starts from the logos already there, filled as soon as it exists.
FILL_LOGO_GRAM = """
INSERT INTO directory_logo_gram (gram, lead, tier, sim, size, ids)
  SELECT e.gram, CASE WHEN l.is_current THEN 0 ELSE 1 END, e.tier, e.sim, count(*),
         array_agg(l.id)
  FROM directory_logo l, directory_gram_entries(l.search_text, l.title_fold) e
  GROUP BY 1, 2, 3, 4;
"""

FILL_LOGO_GRAM_TOTAL = """
INSERT INTO directory_logo_gram_total (gram, size)
  SELECT gram, sum(size) FROM directory_logo_gram GROUP BY gram;
"""

TABLES = "\n".join(
    (
        sql_text(FROZEN, "tables/directory_logo_gram"),
        FILL_LOGO_GRAM,
        sql_text(FROZEN, "tables/directory_logo_gram_total"),
        FILL_LOGO_GRAM_TOTAL,
        sql_text(
            FROZEN,
            "types/directory_logo_change",
            "functions/directory_logo_grams_sync",
            "functions/directory_logo_grams_truncate",
            "triggers/directory_logo_grams_insert",
            "triggers/directory_logo_grams_update",
            "triggers/directory_logo_grams_delete",
            "triggers/directory_logo_grams_truncate",
        ),
    )
)

TABLES_REVERSE = """
DROP TRIGGER directory_logo_grams_truncate ON directory_logo;
DROP TRIGGER directory_logo_grams_delete ON directory_logo;
DROP TRIGGER directory_logo_grams_update ON directory_logo;
DROP TRIGGER directory_logo_grams_insert ON directory_logo;
DROP FUNCTION directory_logo_grams_truncate();
DROP FUNCTION directory_logo_grams_sync();
DROP TYPE directory_logo_change;
DROP TABLE directory_logo_gram_total;
DROP TABLE directory_logo_gram;
"""

PAGE = sql_text(FROZEN, "functions/directory_logo_page")

PAGE_REVERSE = "DROP FUNCTION directory_logo_page(text, text, integer, integer);"


class Migration(migrations.Migration):
    dependencies = [("directory", "0007_company_embeddings")]

    operations = [
        migrations.RunSQL(TABLES, TABLES_REVERSE),
        migrations.RunSQL(PAGE, PAGE_REVERSE),
    ]
