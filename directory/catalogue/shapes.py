"""The shapes of companies and logos the catalogue shows: a summary in lists, a detail on
its own, and the pieces they share.

Each serializer here is the one definition of its shape: its fields are the OpenAPI
schema, DRF shows the ORM's instances through it (the website, the admin), and
api.rows shows the JSON rows PostgreSQL builds for the hot paths, keyed by the
fields' sources (the SQL of directory/sql/ and selectors.py;
tests/directory/catalogue/test_rows.py holds the keys and the sources equal). Field names are
the contract's (camel case); nullable fields are always present.
"""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from directory.catalogue.models import FORMAT_ORDER, EntityType, FileFormat, VariantKind
from directory.catalogue.selectors import company_url, logo_url, preview_url


def sorted_formats(assets) -> list[str]:
    return sorted({asset.format for asset in assets}, key=FORMAT_ORDER.__getitem__)


class FormatListField(serializers.ListField):
    child = serializers.ChoiceField(choices=FileFormat.values)


@extend_schema_field({"type": "string", "format": "uri", "nullable": True})
class PreviewUrlField(serializers.Field):
    """The public address of a preview: from an image field, or its name as rows hold it."""

    def __init__(self, **kwargs):
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value):
        return preview_url(value if value is None or isinstance(value, str) else value.name)

    def get_attribute(self, instance):
        return getattr(instance, self.source)


@extend_schema_field({"type": "string", "format": "uri", "nullable": True})
class SiteUrlField(serializers.Field):
    """The page of a company or logo on the website, from its slug."""

    def __init__(self, build, **kwargs):
        self.build = build
        super().__init__(read_only=True, source="slug", **kwargs)

    def to_representation(self, value):
        return self.build(value)


class SectorRefSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class EraSerializer(serializers.Serializer):
    def get_fields(self):
        # "from" is a Python keyword, so the fields are listed here, in contract order.
        return {
            "from": serializers.IntegerField(source="era_from", allow_null=True),
            "to": serializers.IntegerField(source="era_to", allow_null=True),
            "label": serializers.CharField(source="era_label", allow_null=True),
        }


class LogoSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    slug = serializers.CharField(allow_null=True)
    title = serializers.CharField()
    previewUrl = PreviewUrlField(source="preview")
    isCurrent = serializers.BooleanField(source="is_current")
    isProduct = serializers.BooleanField(source="is_product")
    era = EraSerializer(source="*")
    formats = serializers.SerializerMethodField()
    url = SiteUrlField(logo_url)

    @extend_schema_field(FormatListField)
    def get_formats(self, logo) -> list[str]:
        return sorted_formats(logo.assets.all())


class CurrentLogoRefSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    slug = serializers.CharField(allow_null=True)
    title = serializers.CharField()
    previewUrl = PreviewUrlField(source="preview")


class CompanyIdentitySerializer(serializers.Serializer):
    """The fields a company summary and a company detail share."""

    id = serializers.UUIDField()
    slug = serializers.CharField(allow_null=True)
    name = serializers.CharField()
    entityType = serializers.ChoiceField(source="entity_type", choices=EntityType.choices)
    isVerified = serializers.BooleanField(source="is_verified")
    sector = SectorRefSerializer(allow_null=True)
    province = serializers.CharField(allow_null=True)
    url = SiteUrlField(company_url)


class CompanySummarySerializer(CompanyIdentitySerializer):
    logoCount = serializers.IntegerField(source="logo_count")
    currentLogo = CurrentLogoRefSerializer(source="current_logo", allow_null=True)


class CompanyDetailSerializer(CompanyIdentitySerializer):
    about = serializers.CharField(allow_null=True)
    website = serializers.CharField(allow_null=True)
    location = serializers.CharField(allow_null=True)
    foundedYear = serializers.CharField(source="founded_year", allow_null=True)
    currentLogoId = serializers.UUIDField(source="current_logo_id", allow_null=True)
    logos = LogoSummarySerializer(many=True)


class LogoCompanyRefSerializer(serializers.Serializer):
    # Read from the logo's own row: search.logo_page's rows are flat.
    slug = serializers.CharField(source="company__slug", allow_null=True)
    name = serializers.CharField(source="company__name")


class LogoSearchItemSerializer(LogoSummarySerializer):
    company = LogoCompanyRefSerializer(source="*", allow_null=True)


class LogoDetailCompanySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    slug = serializers.CharField(allow_null=True)
    name = serializers.CharField()
    url = SiteUrlField(company_url)


class VariantSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=VariantKind.choices)
    name = serializers.CharField()
    parentId = serializers.UUIDField(source="parent_id", allow_null=True)
    previewUrl = PreviewUrlField(source="preview")
    formats = serializers.SerializerMethodField()

    @extend_schema_field(FormatListField)
    def get_formats(self, variant) -> list[str]:
        return sorted_formats(variant.assets.all())


class AssetSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    format = serializers.ChoiceField(choices=FileFormat.choices)
    variantId = serializers.UUIDField(source="variant_id", allow_null=True)
    size = serializers.IntegerField()
    contentType = serializers.CharField(source="content_type")


class LogoDetailSerializer(LogoSummarySerializer):
    description = serializers.CharField(allow_null=True)
    company = LogoDetailCompanySerializer(allow_null=True)
    colorPalette = serializers.ListField(source="color_palette", child=serializers.CharField())
    downloadCount = serializers.IntegerField(source="download_count")
    variants = VariantSerializer(many=True)
    assets = AssetSerializer(many=True)
