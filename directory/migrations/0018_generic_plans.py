"""A term of several words is found with generic plans: the statements that find and rank
its matches move from directory_company_search and directory_logo_search into
directory_company_search_words and directory_logo_search_words, which PostgreSQL plans
once per connection instead of once per term; typo correction
(directory_search_corrected_plan) likewise. A one-word term keeps plans made for its
patterns, which choose between the trigram and the length indexes.

Applies the frozen copies in sql/0018_generic_plans/ (docs/sql.md). Going back restores
the three changed functions from reverse/ and drops the two new ones.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

CHANGED = (
    "functions/directory_company_search",
    "functions/directory_logo_search",
    "functions/directory_search_corrected_plan",
)


class Migration(migrations.Migration):
    dependencies = [("directory", "0017_lead_words_as_regex")]

    operations = [
        migrations.RunSQL(
            sql_text(
                FROZEN,
                "functions/directory_company_search_words",
                "functions/directory_logo_search_words",
                *CHANGED,
            ),
            reverse_sql=sql_text(FROZEN / "reverse", *CHANGED)
            + "\nDROP FUNCTION directory_company_search_words("
            "directory_search_plan, bigint[], text, integer, integer);"
            "\nDROP FUNCTION directory_logo_search_words(directory_search_plan, integer, integer);",
        ),
    ]
