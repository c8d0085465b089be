"""What lets the import skip what has not changed and resume derived work after a stop:
a company's import digest (its entry and the hashes of its files, as last imported), and
a flag on logos and variants whose preview waits for the import's derived pass."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("directory", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="company",
            name="import_digest",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="logo",
            name="preview_pending",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddField(
            model_name="variant",
            name="preview_pending",
            field=models.BooleanField(default=False, editable=False),
        ),
    ]
