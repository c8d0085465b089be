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

import importlib

from django.db import migrations

_0005 = importlib.import_module("directory.migrations.0005_company_grams_and_tally")
_0008 = importlib.import_module("directory.migrations.0008_logo_grams")
_0010 = importlib.import_module("directory.migrations.0010_company_summaries")

# The triggers of 0005 and 0008 call it by name, so a new body is all they need.
GRAMS = r"""
CREATE OR REPLACE FUNCTION directory_gram_entries(search_text text, name_fold text)
  RETURNS TABLE (gram text, tier smallint, sim real)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT grams.gram,
    (CASE WHEN strpos(search_text, chr(31) || grams.gram || chr(31)) > 0 THEN 0
          WHEN strpos(search_text, chr(31) || grams.gram) > 0 THEN 1 ELSE 2 END)::smallint,
    public.similarity(name_fold, grams.gram)
  FROM (SELECT DISTINCT substr(search_text, i, n) AS gram
        FROM generate_series(3, 5) AS n,
             generate_series(1, length(search_text) - n + 1) AS i) AS grams
  WHERE grams.gram ~ '^[a-z0-9]{3,5}$'
$$;
"""

_START = _0005.TABLES.index("CREATE FUNCTION directory_gram_entries")
_END = _0005.TABLES.index("$$;", _START) + len("$$;")
GRAMS_BEFORE = _0005.TABLES[_START:_END].replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION")
assert "{3}$'" in GRAMS_BEFORE

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

_THREE = "v_term ~ '^[a-z0-9]{3}$'"
_THREE_TO_FIVE = "v_term ~ '^[a-z0-9]{3,5}$'"
_COMMENT = (
    "    -- A three-character term: its groups in search order, reading those that overlap\n"
    "    -- [skip, skip + take)."
)
_COMMENT_NOW = (
    "    -- A term of three to five letters or digits: its groups in search order, reading\n"
    "    -- those that overlap [skip, skip + take)."
)

# 0010's is the company page in use: 0009's seed pool, reading the stored summaries.
COMPANY_PAGE_BEFORE = _0010.PAGE
assert COMPANY_PAGE_BEFORE.count(_THREE) == 1
assert COMPANY_PAGE_BEFORE.count(_COMMENT) == 1
COMPANY_PAGE = COMPANY_PAGE_BEFORE.replace(_THREE, _THREE_TO_FIVE).replace(_COMMENT, _COMMENT_NOW)

assert _0008.PAGE.count("CREATE FUNCTION") == 1
LOGO_PAGE_BEFORE = _0008.PAGE.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION")
assert LOGO_PAGE_BEFORE.count(_THREE) == 1
LOGO_PAGE = LOGO_PAGE_BEFORE.replace(_THREE, _THREE_TO_FIVE)


class Migration(migrations.Migration):
    dependencies = [("directory", "0012_search_indexes_without_pending_list")]

    operations = [
        migrations.RunSQL(GRAMS + REBUILD, GRAMS_BEFORE + REBUILD),
        migrations.RunSQL(COMPANY_PAGE + LOGO_PAGE, COMPANY_PAGE_BEFORE + LOGO_PAGE_BEFORE),
    ]
