"""directory_company_page scores 100 of the fewest-trigram matches to set its bar, not 500.

Measured on 100,000 companies (the search benchmark's mix, both versions interleaved):
prefix searches, the ones with hundreds of matches, take a fifth less time, and no
other kind moves. A smaller pool sets a slightly lower bar, but scoring 500 rows cost
more than the few extra rows it kept out. The order and totals do not change.
"""

import importlib

from django.db import migrations

_0005 = importlib.import_module("directory.migrations.0005_company_grams_and_tally")
_POOL_500 = "LIMIT greatest(500, p_skip + p_take)) fewest"
_POOL_100 = "LIMIT greatest(100, p_skip + p_take)) fewest"
assert _0005.PAGE.count(_POOL_500) == 1
_REPLACE = _0005.PAGE.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION")
PAGE_WITH_POOL = _REPLACE.replace(_POOL_500, _POOL_100)


class Migration(migrations.Migration):
    dependencies = [("directory", "0008_logo_grams")]

    operations = [
        migrations.RunSQL(PAGE_WITH_POOL, _REPLACE),
    ]
