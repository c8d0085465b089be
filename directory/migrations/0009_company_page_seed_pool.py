"""directory_company_page scores 100 of the fewest-trigram matches to set its bar, not 500.

Measured on 100,000 companies (the search benchmark's mix, both versions interleaved):
prefix searches, the ones with hundreds of matches, take a fifth less time, and no
other kind moves. A smaller pool sets a slightly lower bar, but scoring 500 rows cost
more than the few extra rows it kept out. The order and totals do not change.
"""

from django.db import migrations

from config.sqlfiles import frozen, sql_text

FROZEN = frozen(__file__)

PAGE = sql_text(FROZEN, "functions/directory_company_page")
PAGE_BEFORE = sql_text(FROZEN, "reverse/functions/directory_company_page")


class Migration(migrations.Migration):
    dependencies = [("directory", "0008_logo_grams")]

    operations = [
        migrations.RunSQL(PAGE, PAGE_BEFORE),
    ]
