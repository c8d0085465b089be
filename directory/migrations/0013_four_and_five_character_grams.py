"""Terms of four and five letters or digits read precomputed groups, as three-letter ones do.

A four- or five-letter term is nearly as broad as a three-letter one ("coop", "asoc",
"ayun"), but ranked every row it matched: on 100,000 companies and 154,000 logos these
were the slowest searches, 6.7 to 8.2 ms of database time on average for logos (46 ms
for "coop" and "asoc") and 5.3 to 5.8 ms for companies (38 ms for "asoci"), against
1.4 to 2.2 ms for a three-letter term. Reading groups, they take 1.6 to 2.0 ms for logos
and 1.0 ms for companies, with the same pages and totals. directory_gram_entries now
gives every term of three to five letters or digits, so the gram tables of migrations
0005 and 0008 hold their groups too, and both page functions read them for such a term.

The cost: the gram tables about triple (on that catalogue the company groups grow from
38 to 108 MB, all four tables from 95 to 275 MB), and a company or logo insert or rename
updates about three times as many groups: an insert of one company took 9.3 ms instead
of 5.5, a rename of a company and its logos 40 ms instead of 16. Longer terms still pick
their rarest three-character runs from the totals, which hold them as before.

The rebuild (100 s on that catalogue) holds the gram tables exclusively until the
migration commits. Searches whose term reads the groups or the totals (three letters or
digits, or more than five characters) wait for it, and so do inserts, deletes and
updates of the indexed values of companies and logos; downloads, which change none, do not.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

# The triggers of 0005 and 0008 call it by name, so a new body is all they need.
GRAMS = sql_text(FROZEN, "functions/directory_gram_entries")
GRAMS_BEFORE = sql_text(FROZEN, "reverse/functions/directory_gram_entries")

# As 0005 and 0008 first built them, from the rows.
REBUILD = """
TRUNCATE directory_company_gram, directory_company_gram_total,
  directory_logo_gram, directory_logo_gram_total;
INSERT INTO directory_company_gram (gram, tier, sim, size, ids)
  SELECT e.gram, e.tier, e.sim, count(*), array_agg(c.id)
  FROM directory_company c, directory_gram_entries(c.search_text, c.name_fold) e
  GROUP BY e.gram, e.tier, e.sim;
INSERT INTO directory_company_gram_total (gram, size)
  SELECT gram, sum(size) FROM directory_company_gram GROUP BY gram;
INSERT INTO directory_logo_gram (gram, lead, tier, sim, size, ids)
  SELECT e.gram, CASE WHEN l.is_current THEN 0 ELSE 1 END, e.tier, e.sim, count(*),
         array_agg(l.id)
  FROM directory_logo l, directory_gram_entries(l.search_text, l.title_fold) e
  GROUP BY 1, 2, 3, 4;
INSERT INTO directory_logo_gram_total (gram, size)
  SELECT gram, sum(size) FROM directory_logo_gram GROUP BY gram;
-- Statistics of the 3-only tables would otherwise plan the first searches after it.
ANALYZE directory_company_gram, directory_company_gram_total,
  directory_logo_gram, directory_logo_gram_total;
"""

# Both page functions read the groups for a term of three to five letters or digits;
# going back restores those of migrations 0010 (companies) and 0008 (logos).
PAGES = sql_text(FROZEN, "functions/directory_company_page", "functions/directory_logo_page")
PAGES_BEFORE = sql_text(
    FROZEN, "reverse/functions/directory_company_page", "reverse/functions/directory_logo_page"
)


class Migration(migrations.Migration):
    dependencies = [("directory", "0012_search_indexes_without_pending_list")]

    operations = [
        migrations.RunSQL(GRAMS + REBUILD, GRAMS_BEFORE + REBUILD),
        migrations.RunSQL(PAGES, PAGES_BEFORE),
    ]
