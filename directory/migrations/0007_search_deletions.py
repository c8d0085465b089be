"""directory_search_variants (a set-returning SQL function) goes: its successor
directory_search_deletions returns an array, built in PL/pgSQL loops, which costs typo
correction and the lexicon's updates less. directory_search_learn, whose SQL-standard
body called the old one, is applied with the new one first, so that it can be dropped."""

from django.db import migrations

from common.sqlfiles import ApplySqlFiles


class Migration(migrations.Migration):
    dependencies = [("directory", "0006_merge_company_logo_search")]

    operations = [
        ApplySqlFiles("functions/directory_search_deletions", "functions/directory_search_learn"),
        migrations.RunSQL(
            "DROP FUNCTION IF EXISTS directory_search_variants(text, integer)",
            migrations.RunSQL.noop,
        ),
    ]
