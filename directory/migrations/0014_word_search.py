"""Search by words: every word of the term in any order, one normalisation for names and
terms, typo correction against the catalogue's own words (docs/search.md), and the
full-text documents related search reads beside its vectors.

Replaces the substring search of migrations 0001-0013: the folded name texts and their
trigram counts, the precomputed gram groups and both page functions. The tally of
companies per (sector, province) stays, kept now by directory_company_search_sync.
Every object created here is applied from the frozen copy of its file in
sql/0014_word_search/; directory/sql/ holds the current text (docs/sql.md).

Irreversible: going back would mean rebuilding the gram groups of migrations 0005-0013.
"""

import django.contrib.postgres.indexes
import django.contrib.postgres.operations
import django.db.models.functions.text
from django.db import migrations, models

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

DROP_SUBSTRING_SEARCH = """
DROP TRIGGER directory_company_indexes_truncate ON directory_company;
DROP TRIGGER directory_company_indexes_delete ON directory_company;
DROP TRIGGER directory_company_indexes_update ON directory_company;
DROP TRIGGER directory_company_indexes_insert ON directory_company;
DROP FUNCTION directory_company_indexes_truncate();
DROP FUNCTION directory_company_indexes_sync();
DROP TYPE directory_company_change;
DROP TABLE directory_company_gram_total;
DROP TABLE directory_company_gram;
DROP TRIGGER directory_logo_grams_truncate ON directory_logo;
DROP TRIGGER directory_logo_grams_delete ON directory_logo;
DROP TRIGGER directory_logo_grams_update ON directory_logo;
DROP TRIGGER directory_logo_grams_insert ON directory_logo;
DROP FUNCTION directory_logo_grams_truncate();
DROP FUNCTION directory_logo_grams_sync();
DROP TYPE directory_logo_change;
DROP TABLE directory_logo_gram_total;
DROP TABLE directory_logo_gram;
DROP FUNCTION directory_gram_entries(text, text);
DROP FUNCTION directory_company_page(text, text, text, text, integer, integer);
DROP FUNCTION directory_logo_page(text, text, integer, integer);
DROP TRIGGER directory_logo_search_text ON directory_logo;
DROP FUNCTION directory_logo_search_text();
DROP TRIGGER directory_company_renamed ON directory_company;
DROP FUNCTION directory_company_renamed();
"""

NORMALISATION = sql_text(
    FROZEN,
    "functions/directory_search_normalize",
    "functions/directory_search_expand",
    "functions/directory_search_doc",
)

WORD_SEARCH = sql_text(
    FROZEN,
    "tables/directory_search_word",
    "tables/directory_search_variant",
    "tables/directory_company_fulltext",
    "tables/directory_company_gram",
    "types/directory_search_plan",
    "functions/directory_search_key",
    "functions/directory_search_distance",
    "functions/directory_search_budget",
    "functions/directory_search_variants",
    "functions/directory_search_corrections",
    "functions/directory_search_splits",
    "functions/directory_search_rows",
    "functions/directory_search_plan",
    "functions/directory_search_corrected",
    "functions/directory_search_corrected_plan",
    "functions/directory_search_score",
    "functions/directory_search_rank",
    "functions/directory_search_matches_beyond",
    "functions/directory_search_matches",
    "functions/directory_search_lead",
    "functions/directory_search_lead_patterns",
    "functions/directory_search_class_rank",
    "functions/directory_search_class_patterns",
    "functions/directory_search_histogram",
    "functions/directory_search_window",
    "functions/directory_search_words",
    "functions/directory_search_learn",
    "functions/directory_search_grams",
    "functions/directory_company_grams_add",
    "functions/directory_company_lengths",
    "functions/directory_company_search",
    "functions/directory_company_found",
    "functions/directory_company_search_plan",
    "functions/directory_company_page",
    "functions/directory_logo_lengths",
    "functions/directory_logo_search",
    "functions/directory_logo_found",
    "functions/directory_logo_search_plan",
    "functions/directory_logo_page",
    "functions/directory_company_search_sync",
    "functions/directory_company_search_truncate",
    "functions/directory_company_renamed",
    "functions/directory_logo_search_doc",
    "functions/directory_logo_search_learn",
    "functions/directory_sector_search_learn",
    "functions/directory_fulltext",
    "functions/directory_fulltext_query",
    "functions/directory_company_fulltext_document",
    "functions/directory_company_fulltext_refresh",
    "functions/directory_company_fulltext_company_sync",
    "functions/directory_company_fulltext_sector_sync",
    "functions/directory_company_fulltext_truncate",
    "functions/directory_company_related",
    "triggers/directory_company_search_insert",
    "triggers/directory_company_search_update",
    "triggers/directory_company_search_delete",
    "triggers/directory_company_search_truncate",
    "triggers/directory_company_renamed",
    "triggers/directory_logo_search_doc",
    "triggers/directory_logo_search_learn_insert",
    "triggers/directory_logo_search_learn_update",
    "triggers/directory_sector_search_learn_insert",
    "triggers/directory_sector_search_learn_update",
    "triggers/directory_company_fulltext_insert",
    "triggers/directory_company_fulltext_update",
    "triggers/directory_company_fulltext_delete",
    "triggers/directory_company_fulltext_truncate",
    "triggers/directory_company_fulltext_sector_update",
)

# Logos' documents come from their trigger; the lexicon and the full-text documents
# from every text.
FILL = """
UPDATE directory_logo SET search_doc = '';
SELECT directory_company_grams_add(ARRAY(SELECT c.search_doc FROM directory_company c),
                                   ARRAY(SELECT 1 FROM directory_company c));
SELECT directory_search_learn(ARRAY(
  SELECT t.text FROM directory_company c, unnest(ARRAY[c.name] || c.alternative_names) AS t(text)
  UNION ALL SELECT l.title FROM directory_logo l), true);
SELECT directory_search_learn(ARRAY(
  SELECT c.about FROM directory_company c UNION ALL SELECT s.name FROM directory_sector s), false);
SELECT directory_company_fulltext_refresh(ARRAY(SELECT c.id FROM directory_company c));
"""

INDEXES = sql_text(
    FROZEN,
    "indexes/directory_search_word_key",
    "indexes/directory_company_fulltext_document",
)


def learn_business_words(apps, schema_editor) -> None:
    """The names of kinds of business join the lexicon, for typo correction to pick from:
    "supermecado" is "supermercado" even when no company's text says it."""
    from directory.business_terms import catalogue_words

    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT directory_search_learn(%s, false)", [catalogue_words()])


def _trigram_index(name: str) -> django.contrib.postgres.indexes.GinIndex:
    return django.contrib.postgres.indexes.GinIndex(
        django.contrib.postgres.indexes.OpClass(models.F("search_doc"), name="gin_trgm_ops"),
        fastupdate=False,
        name=name,
    )


def _length_index(name: str) -> models.Index:
    return models.Index(django.db.models.functions.text.Length("search_doc"), name=name)


class Migration(migrations.Migration):
    dependencies = [("directory", "0013_four_and_five_character_grams")]

    operations = [
        migrations.RunSQL(DROP_SUBSTRING_SEARCH),
        # levenshtein_less_equal(), for typo correction's candidates two edits away.
        django.contrib.postgres.operations.CreateExtension("fuzzystrmatch"),
        migrations.RunSQL(NORMALISATION),
        migrations.RemoveIndex(model_name="company", name="directory_company_search"),
        migrations.RemoveIndex(model_name="logo", name="directory_logo_search"),
        migrations.RemoveField(model_name="company", name="search_text"),
        migrations.RemoveField(model_name="company", name="name_trigrams"),
        migrations.RemoveField(model_name="logo", name="search_text"),
        migrations.RemoveField(model_name="logo", name="title_trigrams"),
        migrations.RunSQL(
            "DROP FUNCTION directory_names_text(text, text[]);"
            "DROP FUNCTION directory_trigram_count(text);"
        ),
        migrations.AddField(
            model_name="company",
            name="search_doc",
            field=models.GeneratedField(
                db_persist=True,
                expression=models.Func(
                    models.F("name"), models.F("alternative_names"), function="directory_search_doc"
                ),
                output_field=models.TextField(),
            ),
        ),
        migrations.AddField(
            model_name="logo",
            name="search_doc",
            field=models.TextField(default="", editable=False),
        ),
        migrations.RunSQL(WORD_SEARCH),
        migrations.RunSQL(FILL),
        migrations.RunPython(learn_business_words, migrations.RunPython.noop),
        migrations.RunSQL(INDEXES),
        migrations.AddIndex(model_name="company", index=_trigram_index("directory_company_search")),
        migrations.AddIndex(
            model_name="company", index=_length_index("directory_company_search_len")
        ),
        migrations.AddIndex(model_name="logo", index=_trigram_index("directory_logo_search")),
        migrations.AddIndex(model_name="logo", index=_length_index("directory_logo_search_len")),
    ]
