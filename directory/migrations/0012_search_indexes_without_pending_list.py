"""The trigram indexes of company and logo search without GIN's pending list.

With fastupdate on (PostgreSQL's default), new index entries wait in an unsorted
pending list that every search reads in full, until a vacuum or an insert past
gin_pending_list_limit (4 MB) merges it. Downloads update logo rows all day, and an
update that cannot stay on its page (not HOT) adds all of the row's trigrams there:
108 pending pages after a few benchmark runs made each logo search cost 3.7 ms of
database CPU instead of 2.6. Without the list, a write that changes indexed rows
merges its own entries, and a search reads only the index.

ALTER INDEX changes the setting in place, without rebuilding the indexes;
gin_clean_pending_list then merges what is already waiting.
"""

import django.contrib.postgres.indexes
from django.db import migrations, models

INDEXES = ("directory_company_search", "directory_logo_search")

FORWARD = "".join(
    f"ALTER INDEX {name} SET (fastupdate = off);SELECT gin_clean_pending_list('{name}'::regclass);"
    for name in INDEXES
)
BACKWARD = "".join(f"ALTER INDEX {name} RESET (fastupdate);" for name in INDEXES)


def _search_index(name: str) -> django.contrib.postgres.indexes.GinIndex:
    return django.contrib.postgres.indexes.GinIndex(
        django.contrib.postgres.indexes.OpClass(models.F("search_text"), name="gin_trgm_ops"),
        fastupdate=False,
        name=name,
    )


class Migration(migrations.Migration):
    dependencies = [("directory", "0011_download_grant_function")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(FORWARD, BACKWARD)],
            state_operations=[
                migrations.RemoveIndex(model_name="company", name="directory_company_search"),
                migrations.RemoveIndex(model_name="logo", name="directory_logo_search"),
                migrations.AddIndex(
                    model_name="company",
                    index=_search_index("directory_company_search"),
                ),
                migrations.AddIndex(
                    model_name="logo",
                    index=_search_index("directory_logo_search"),
                ),
            ],
        )
    ]
