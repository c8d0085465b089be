"""The import's digests move to a table of their own (directory/importing/models.py),
one for the entry's text and one for its files. The old digest hashed the entry written
anew, which the new one does not: none compares, so the first import after this one
compares every entry with the catalogue (what --recheck does) and stores the new ones."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("directory", "0016_search_engine")]

    operations = [
        migrations.CreateModel(
            name="ImportDigest",
            fields=[
                (
                    "company",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="import_digest",
                        serialize=False,
                        to="directory.company",
                    ),
                ),
                ("text", models.CharField(max_length=64)),
                ("files", models.CharField(max_length=64)),
            ],
        ),
        migrations.RemoveField(model_name="company", name="import_digest"),
        # Going back, the column is added again: PostgreSQL refuses to alter a table whose
        # deferred checks are pending in the transaction (rows written before the migrate
        # in one transaction, as a test does), so they are run first.
        migrations.RunSQL(migrations.RunSQL.noop, "SET CONSTRAINTS ALL IMMEDIATE"),
    ]
