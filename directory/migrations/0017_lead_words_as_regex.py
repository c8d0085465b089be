"""A term of several words finds its matches through the trigram index with its two lead
words as regular expressions when they have alternatives (corrected words), instead of
LIKE ANY over both, which takes a scan for every pair of their patterns.

Applies the frozen copies in sql/0017_lead_words_as_regex/ (docs/sql.md): the new
directory_search_regex, then directory_company_search and directory_logo_search, which
call it. Going back restores the two searches from reverse/ and drops the new function.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

SEARCHES = ("functions/directory_company_search", "functions/directory_logo_search")


class Migration(migrations.Migration):
    dependencies = [("directory", "0016_company_summary_objects")]

    operations = [
        migrations.RunSQL(
            sql_text(FROZEN, "functions/directory_search_regex", *SEARCHES),
            reverse_sql=sql_text(FROZEN / "reverse", *SEARCHES)
            + "\nDROP FUNCTION directory_search_regex(text[]);",
        ),
    ]
