"""The directory app's schema, squashed from its unreleased migrations 0001-0020: models,
extensions, the side tables, type and indexes from their files under directory/sql/, the
current logo's composite foreign key and the lexicon's kinds of business. Functions and
triggers are applied from their files when their text changes (docs/sql.md)."""

import uuid
from pathlib import Path

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.contrib.postgres.operations import CreateExtension, TrigramExtension, UnaccentExtension
from django.db import migrations, models
from django.db.models.functions import Length, Lower
from django.utils import timezone

from common.sqlfiles import ApplySqlFiles, text
from directory.catalogue import models as catalogue

APP = Path(__file__).resolve().parent.parent  # directory/
SIDE_OBJECTS = """tables/directory_company_fulltext tables/directory_search_gram
tables/directory_company_summary tables/directory_company_tally tables/directory_search_variant
tables/directory_search_word tables/directory_search_near tables/directory_search_reach
types/directory_search_plan indexes/directory_company_fulltext_document
indexes/directory_company_tally_key""".split()  # noqa: SIM905 - kept short: the module stays under 600 lines
SIDE_OBJECTS_REVERSE = """DROP TABLE directory_company_fulltext, directory_search_gram,
  directory_company_summary, directory_company_tally, directory_search_variant,
  directory_search_word, directory_search_near, directory_search_reach CASCADE;
DROP TYPE directory_search_plan CASCADE;"""
CURRENT_LOGO_OWNER = """ALTER TABLE directory_company
  ADD CONSTRAINT directory_company_current_logo_owner FOREIGN KEY (current_logo_id, id)
  REFERENCES directory_logo (id, company_id) ON DELETE NO ACTION DEFERRABLE INITIALLY DEFERRED;"""


def learn_business_words(apps, schema_editor) -> None:
    """The names of kinds of business join the lexicon, for typo correction to pick from."""
    from directory.search.business_terms import catalogue_words

    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT directory_search_learn(%s, false)", [catalogue_words()])


class Migration(migrations.Migration):
    initial = True
    # Lets a database migrated through them, as scripts/run.sh's, count as migrated.
    replaces = [
        ("directory", "0002_logo_search_text_and_current_logo_owner"),
        ("directory", "0003_domain_validator"),
        ("directory", "0004_trigram_counts"),
        ("directory", "0005_company_grams_and_tally"),
        ("directory", "0006_downloads_and_colours"),
        ("directory", "0007_company_embeddings"),
        ("directory", "0008_logo_grams"),
        ("directory", "0009_company_page_seed_pool"),
        ("directory", "0010_company_summaries"),
        ("directory", "0011_download_grant_function"),
        ("directory", "0012_search_indexes_without_pending_list"),
        ("directory", "0013_four_and_five_character_grams"),
        ("directory", "0014_word_search"),
        ("directory", "0015_summaries_and_grant_from_files"),
        ("directory", "0016_company_summary_objects"),
        ("directory", "0017_lead_words_as_regex"),
        ("directory", "0018_generic_plans"),
        ("directory", "0019_distance_without_transpositions"),
        ("directory", "0020_search_helpers_in_plpgsql"),
    ]

    dependencies = [migrations.swappable_dependency(settings.AUTH_USER_MODEL)]

    operations = [
        UnaccentExtension(),
        TrigramExtension(),
        # levenshtein_less_equal(), for typo correction's candidates two edits away.
        CreateExtension("fuzzystrmatch"),
        # What the generated columns compute: *_fold and search_doc.
        ApplySqlFiles(
            "functions/directory_fold",
            "functions/directory_search_normalize",
            "functions/directory_search_expand",
            "functions/directory_search_doc",
            drop_on_reverse=True,
        ),
        migrations.CreateModel(
            name="Asset",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                (
                    "format",
                    models.CharField(
                        choices=[
                            ("SVG", "Svg"),
                            ("PNG", "Png"),
                            ("PDF", "Pdf"),
                            ("AI", "Ai"),
                            ("EPS", "Eps"),
                            ("ZIP", "Zip"),
                        ],
                        max_length=4,
                    ),
                ),
                ("size", models.PositiveBigIntegerField()),
                ("content_type", models.CharField(max_length=100)),
                (
                    "file",
                    models.FileField(max_length=255, upload_to=catalogue.asset_upload_to),
                ),
                ("sha256", models.CharField(max_length=64)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={"ordering": ["logo", "variant", "format"]},
        ),
        migrations.CreateModel(
            name="Company",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("slug", models.SlugField(max_length=255, unique=True)),
                ("name", models.CharField(max_length=255)),
                (
                    "alternative_names",
                    ArrayField(
                        base_field=models.CharField(max_length=255),
                        blank=True,
                        default=list,
                        size=None,
                    ),
                ),
                (
                    "entity_type",
                    models.CharField(
                        choices=[
                            ("COMPANY", "Company"),
                            ("PUBLIC_BODY", "Public Body"),
                            ("NONPROFIT", "Nonprofit"),
                            ("EDUCATION", "Education"),
                            ("SPORTS_CLUB", "Sports Club"),
                            ("POLITICAL_PARTY", "Political Party"),
                            ("MEDIA", "Media"),
                            ("OTHER", "Other"),
                        ],
                        default="COMPANY",
                        max_length=20,
                    ),
                ),
                ("is_verified", models.BooleanField(default=False)),
                ("province", models.CharField(blank=True, max_length=120, null=True)),
                ("about", models.TextField(blank=True, null=True)),
                ("website", models.URLField(blank=True, max_length=500, null=True)),
                ("location", models.CharField(blank=True, max_length=255, null=True)),
                ("founded_year", models.CharField(blank=True, max_length=16, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "name_fold",
                    models.GeneratedField(
                        db_persist=True,
                        expression=catalogue.Fold(models.F("name")),
                        output_field=models.TextField(),
                    ),
                ),
                (
                    "province_fold",
                    models.GeneratedField(
                        db_persist=True,
                        expression=catalogue.Fold(models.F("province")),
                        output_field=models.TextField(),
                    ),
                ),
                (
                    "search_doc",
                    models.GeneratedField(
                        db_persist=True,
                        expression=models.Func(
                            models.F("name"),
                            models.F("alternative_names"),
                            function="directory_search_doc",
                        ),
                        output_field=models.TextField(),
                    ),
                ),
            ],
            options={"verbose_name_plural": "companies", "ordering": ["name_fold", "id"]},
        ),
        migrations.CreateModel(
            name="Logo",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("slug", models.SlugField(max_length=255, unique=True)),
                ("title", models.CharField(max_length=255)),
                ("is_current", models.BooleanField(default=False)),
                ("is_product", models.BooleanField(default=False)),
                ("era_from", models.SmallIntegerField(blank=True, null=True)),
                ("era_to", models.SmallIntegerField(blank=True, null=True)),
                ("era_label", models.CharField(blank=True, max_length=100, null=True)),
                ("description", models.TextField(blank=True, null=True)),
                (
                    "color_palette",
                    ArrayField(
                        base_field=models.CharField(max_length=7),
                        blank=True,
                        default=list,
                        size=None,
                    ),
                ),
                ("colors_computed_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("download_count", models.PositiveIntegerField(default=0)),
                (
                    "preview",
                    models.FileField(
                        blank=True,
                        max_length=255,
                        null=True,
                        storage=catalogue.preview_storage,
                        upload_to="",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "title_fold",
                    models.GeneratedField(
                        db_persist=True,
                        expression=catalogue.Fold(models.F("title")),
                        output_field=models.TextField(),
                    ),
                ),
                ("search_doc", models.TextField(default="", editable=False)),
                (
                    "company",
                    models.ForeignKey(
                        on_delete=models.CASCADE, related_name="logos", to="directory.company"
                    ),
                ),
            ],
            options={"ordering": ["-is_current", "title_fold", "id"]},
        ),
        migrations.CreateModel(
            name="Download",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("ip", models.GenericIPAddressField(blank=True, null=True)),
                (
                    "channel",
                    models.CharField(
                        choices=[("API", "Public API"), ("WEB", "Website")], max_length=3
                    ),
                ),
                ("source", models.CharField(max_length=8)),
                ("counted", models.BooleanField()),
                ("created_at", models.DateTimeField(default=timezone.now)),
                (
                    "asset",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=models.SET_NULL,
                        related_name="downloads",
                        to="directory.asset",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=models.CASCADE,
                        related_name="downloads",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "logo",
                    models.ForeignKey(
                        on_delete=models.CASCADE, related_name="downloads", to="directory.logo"
                    ),
                ),
            ],
            options={"ordering": ["-created_at", "-id"]},
        ),
        migrations.AddField(
            model_name="company",
            name="current_logo",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.SET_NULL,
                related_name="+",
                to="directory.logo",
            ),
        ),
        migrations.AddField(
            model_name="asset",
            name="logo",
            field=models.ForeignKey(
                on_delete=models.CASCADE, related_name="assets", to="directory.logo"
            ),
        ),
        migrations.CreateModel(
            name="Sector",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("slug", models.SlugField(max_length=100, unique=True)),
                ("name", models.CharField(max_length=100)),
                (
                    "name_fold",
                    models.GeneratedField(
                        db_persist=True,
                        expression=catalogue.Fold(models.F("name")),
                        output_field=models.TextField(),
                    ),
                ),
            ],
            options={
                "ordering": ["name"],
                "indexes": [models.Index(fields=["name_fold"], name="directory_sector_name_fold")],
            },
        ),
        migrations.AddField(
            model_name="company",
            name="sector",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.SET_NULL,
                related_name="companies",
                to="directory.sector",
            ),
        ),
        migrations.CreateModel(
            name="Variant",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                (
                    "key",
                    models.SlugField(
                        help_text="Stable key of the variant within its logo.", max_length=120
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("TYPE", "Type"), ("VERSION", "Version")], max_length=8
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                (
                    "preview",
                    models.FileField(
                        blank=True,
                        max_length=255,
                        null=True,
                        storage=catalogue.preview_storage,
                        upload_to="",
                    ),
                ),
                (
                    "logo",
                    models.ForeignKey(
                        on_delete=models.CASCADE, related_name="variants", to="directory.logo"
                    ),
                ),
                (
                    "parent",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=models.CASCADE,
                        related_name="children",
                        to="directory.variant",
                    ),
                ),
            ],
            options={"ordering": ["kind", "name", "id"]},
        ),
        migrations.AddField(
            model_name="asset",
            name="variant",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.CASCADE,
                related_name="assets",
                to="directory.variant",
            ),
        ),
        migrations.CreateModel(
            name="CompanyEmbedding",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("model", models.CharField(max_length=200)),
                ("text_hash", models.CharField(max_length=64)),
                ("vector", models.BinaryField()),
                ("updated_at", models.DateTimeField(default=timezone.now)),
                (
                    "company",
                    models.OneToOneField(
                        on_delete=models.CASCADE, related_name="embedding", to="directory.company"
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["updated_at"], name="directory_embedding_updated")]
            },
        ),
        migrations.CreateModel(
            name="Domain",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "domain",
                    models.CharField(
                        max_length=253,
                        unique=True,
                        validators=[catalogue.validate_domain],
                    ),
                ),
                (
                    "company",
                    models.ForeignKey(
                        on_delete=models.CASCADE, related_name="domains", to="directory.company"
                    ),
                ),
            ],
            options={
                "ordering": ["domain"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("domain", Lower("domain"))),
                        name="directory_domain_lower_case",
                    )
                ],
            },
        ),
        migrations.AddIndex(
            model_name="logo",
            index=GinIndex(
                OpClass(models.F("search_doc"), name="gin_trgm_ops"),
                fastupdate=False,
                name="directory_logo_search",
            ),
        ),
        migrations.AddIndex(
            model_name="logo",
            index=models.Index(Length("search_doc"), name="directory_logo_search_len"),
        ),
        migrations.AddIndex(
            model_name="logo",
            index=models.Index(
                fields=["-is_current", "title_fold", "id"], name="directory_logo_order"
            ),
        ),
        migrations.AddConstraint(
            model_name="logo",
            constraint=models.UniqueConstraint(
                condition=models.Q(("is_current", True)),
                fields=("company",),
                name="directory_logo_one_current_per_company",
            ),
        ),
        migrations.AddConstraint(
            model_name="logo",
            constraint=models.UniqueConstraint(
                fields=("id", "company"), name="directory_logo_id_company"
            ),
        ),
        migrations.AddConstraint(
            model_name="logo",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("era_from__isnull", True),
                    ("era_to__isnull", True),
                    ("era_from__lte", models.F("era_to")),
                    _connector="OR",
                ),
                name="directory_logo_era_from_lte_to",
            ),
        ),
        migrations.AddIndex(
            model_name="download",
            index=models.Index(fields=["user", "created_at"], name="download_user_recent"),
        ),
        migrations.AddIndex(
            model_name="download",
            index=models.Index(
                condition=models.Q(("user__isnull", True)),
                fields=["ip", "created_at"],
                name="download_ip_recent",
            ),
        ),
        migrations.AddConstraint(
            model_name="download",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("ip__isnull", True), ("user__isnull", False)),
                    models.Q(("ip__isnull", False), ("user__isnull", True)),
                    _connector="OR",
                ),
                name="download_one_subject",
            ),
        ),
        migrations.AddConstraint(
            model_name="download",
            constraint=models.CheckConstraint(
                condition=models.Q(("channel__in", ["API", "WEB"])), name="download_channel_known"
            ),
        ),
        migrations.AddIndex(
            model_name="company",
            index=GinIndex(
                OpClass(models.F("search_doc"), name="gin_trgm_ops"),
                fastupdate=False,
                name="directory_company_search",
            ),
        ),
        migrations.AddIndex(
            model_name="company",
            index=models.Index(Length("search_doc"), name="directory_company_search_len"),
        ),
        migrations.AddIndex(
            model_name="company",
            index=models.Index(fields=["name_fold", "id"], name="directory_company_name"),
        ),
        migrations.AddIndex(
            model_name="company",
            index=models.Index(
                fields=["province_fold", "name_fold"], name="directory_company_prov"
            ),
        ),
        migrations.AddIndex(
            model_name="company",
            index=models.Index(fields=["sector", "name_fold"], name="directory_company_sector"),
        ),
        migrations.AddConstraint(
            model_name="variant",
            constraint=models.UniqueConstraint(
                fields=("logo", "key"), name="directory_variant_key"
            ),
        ),
        migrations.AddConstraint(
            model_name="variant",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind", "VERSION"), ("parent__isnull", True), _connector="OR"),
                name="directory_variant_only_versions_have_parent",
            ),
        ),
        migrations.AddConstraint(
            model_name="asset",
            constraint=models.UniqueConstraint(
                fields=("logo", "variant", "format"),
                name="directory_asset_one_per_format",
                nulls_distinct=False,
            ),
        ),
        migrations.RunSQL(text(APP, *SIDE_OBJECTS), SIDE_OBJECTS_REVERSE),
        migrations.RunSQL(
            CURRENT_LOGO_OWNER,
            "ALTER TABLE directory_company DROP CONSTRAINT directory_company_current_logo_owner;",
        ),
        ApplySqlFiles(drop_on_reverse=True),
        migrations.RunPython(learn_business_words, migrations.RunPython.noop),
    ]
