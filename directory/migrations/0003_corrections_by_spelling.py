"""Typing mistakes become a ranking signal (docs/search.md): the fallback steps'
directory_search_corrected_plan goes; the lexicon's variants hold each word's spelling
and its deletions (of two letters from eight letters) beside its key's
(directory_search_learn writes both from now on), so that a mistake counts as spelt as
well as by sound; and a word of a name or a title is marked `named` even when an "about"
text or a kind of business held it first (directory_search_learn's update read its own
column for its argument and marked none), since search corrects only to such words.
"Scoop" (S.Coop. typed without its dots) is read as a legal form: the search documents
ending in it are computed again."""

from django.db import migrations

from common.sqlfiles import ApplySqlFiles

# directory_search_plan's arguments changed, and directory_search_corrected, whose body
# is SQL-standard, depends on the old one: both go, and the latter's file is applied
# again after the migrations (common/sqlfiles.py). A database built by 0001 holds the
# new ones already.
OLD_PLAN = """
DO $$
BEGIN
  IF to_regprocedure('directory_search_plan(text, text[], text[])') IS NOT NULL THEN
    DROP FUNCTION IF EXISTS directory_search_corrected(text);
    DROP FUNCTION directory_search_plan(text, text[], text[]);
    IF to_regclass('sql_file') IS NOT NULL THEN
      DELETE FROM sql_file WHERE path LIKE '%/functions/directory_search_corrected.sql';
    END IF;
  END IF;
END $$;
DROP FUNCTION IF EXISTS directory_search_corrected_plan(
  directory_search_plan, text, integer, boolean);
"""

SPELLING_VARIANTS = """
INSERT INTO directory_search_variant (variant, word)
SELECT DISTINCT v.variant, w.word
FROM directory_search_word w,
     unnest(directory_search_deletions(w.word, greatest(directory_search_budget(w.word), 1)))
       AS v(variant)
ORDER BY v.variant, w.word
ON CONFLICT DO NOTHING;
"""

NAMED = """
UPDATE directory_search_word s SET named = true
WHERE NOT s.named AND s.word IN (
  SELECT w.word
  FROM directory_company c, unnest(ARRAY[c.name] || c.alternative_names) AS t(text),
       directory_search_words(ARRAY[t.text]) AS w(word)
  UNION
  SELECT w.word FROM directory_logo l, directory_search_words(ARRAY[l.title]) AS w(word));
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0002_import_digest_and_pending_previews")]

    operations = [
        migrations.RunSQL(OLD_PLAN, migrations.RunSQL.noop),
        # The variants and words below are written by the current files' functions; going
        # back leaves the functions, as ApplySqlFiles does outside the initial migration.
        ApplySqlFiles(),
        migrations.RunSQL(SPELLING_VARIANTS, migrations.RunSQL.noop),
        migrations.RunSQL(NAMED, migrations.RunSQL.noop),
        migrations.RunSQL(
            "UPDATE directory_company SET name = name WHERE search_doc ~ ' scoop [|]';"
            " UPDATE directory_logo SET search_doc = search_doc WHERE search_doc ~ ' scoop [|]';",
            migrations.RunSQL.noop,
        ),
    ]
