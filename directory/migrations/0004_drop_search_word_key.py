"""The trigram index on the lexicon's sound keys goes: typo correction finds every
candidate through the stored deletions (directory_search_variant) since 0003, and no
query compares keys by trigrams any more."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("directory", "0003_corrections_by_spelling")]

    operations = [
        migrations.RunSQL("DROP INDEX IF EXISTS directory_search_word_key", migrations.RunSQL.noop)
    ]
