"""Input and output serializers of the catalogue endpoints, one pair per endpoint.

Output field names are the contract's (camel case); nullable fields are always
present.
"""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api.inputs import QueryChoiceField
from config.api.pagination import PageEnvelopeSerializer, PageQuerySerializer
from directory.models import FORMAT_ORDER, EntityType, FileFormat, VariantKind
from directory.selectors import company_url, logo_url, preview_url


def sorted_formats(assets) -> list[str]:
    return sorted({asset.format for asset in assets}, key=FORMAT_ORDER.__getitem__)


class FormatListField(serializers.ListField):
    child = serializers.ChoiceField(choices=FileFormat.values)


@extend_schema_field({"type": "string", "format": "uri", "nullable": True})
class PreviewUrlField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value):
        return preview_url(value.name if value else None)

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


# -- shared pieces --------------------------------------------------------------------


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

    def to_representation(self, row: dict) -> dict:
        # A row of selectors.company_summaries, built here directly: search pages are the
        # hot path. The fields above are its schema; the contract tests hold them equal.
        current = row["current_logo_id"]
        return {
            "id": str(row["id"]),
            "slug": row["slug"],
            "name": row["name"],
            "entityType": row["entity_type"],
            "isVerified": row["is_verified"],
            "sector": (
                {"slug": row["sector__slug"], "name": row["sector__name"]}
                if row["sector__slug"] is not None
                else None
            ),
            "province": row["province"],
            "logoCount": row["logo_count"] or 0,
            "currentLogo": (
                {
                    "id": str(current),
                    "slug": row["current_logo__slug"],
                    "title": row["current_logo__title"],
                    "previewUrl": preview_url(row["current_logo__preview"]),
                }
                if current is not None
                else None
            ),
            "url": company_url(row["slug"]),
        }


# -- GET /companies -------------------------------------------------------------------


class CompanySearchInputSerializer(PageQuerySerializer):
    q = serializers.CharField(
        max_length=100, required=False, allow_blank=True, trim_whitespace=True
    )
    sector = serializers.CharField(max_length=100, required=False, allow_blank=True)
    province = serializers.CharField(max_length=120, required=False, allow_blank=True)
    related = QueryChoiceField(
        choices=["0", "1", "true", "false"],
        required=False,
        help_text="true or 1: add `related`, companies related by meaning (first page only).",
    )

    def validate_related(self, value: str) -> bool:
        return value in ("1", "true")


class CompanySearchOutputSerializer(PageEnvelopeSerializer):
    data = CompanySummarySerializer(many=True)
    related = CompanySummarySerializer(
        many=True,
        required=False,
        help_text="Present only when related=true: companies related to q by meaning.",
    )


# -- GET /companies/{slug} ------------------------------------------------------------


class CompanyLookupInputSerializer(serializers.Serializer):
    slug = serializers.CharField(min_length=1, max_length=255)


class CompanyDetailSerializer(CompanyIdentitySerializer):
    about = serializers.CharField(allow_null=True)
    website = serializers.CharField(allow_null=True)
    location = serializers.CharField(allow_null=True)
    foundedYear = serializers.CharField(source="founded_year", allow_null=True)
    currentLogoId = serializers.UUIDField(source="current_logo_id", allow_null=True)
    logos = LogoSummarySerializer(many=True)


class CompanyDetailOutputSerializer(serializers.Serializer):
    data = CompanyDetailSerializer()


# -- GET /domains ---------------------------------------------------------------------


class DomainEntrySerializer(serializers.Serializer):
    domain = serializers.CharField()
    slug = serializers.CharField()
    name = serializers.CharField()


class DomainListOutputSerializer(serializers.Serializer):
    data = DomainEntrySerializer(many=True)
    generatedAt = serializers.DateTimeField()


# -- GET /logos -----------------------------------------------------------------------


class LogoSearchInputSerializer(PageQuerySerializer):
    q = serializers.CharField(
        max_length=100, required=False, allow_blank=True, trim_whitespace=True
    )


class LogoCompanyRefSerializer(serializers.Serializer):
    slug = serializers.CharField(allow_null=True)
    name = serializers.CharField()


class LogoSearchItemSerializer(LogoSummarySerializer):
    company = LogoCompanyRefSerializer(allow_null=True)

    def to_representation(self, row: dict) -> dict:
        # A row of selectors.logo_summaries, built directly like company summaries.
        return {
            "id": str(row["id"]),
            "slug": row["slug"],
            "title": row["title"],
            "previewUrl": preview_url(row["preview"]),
            "isCurrent": row["is_current"],
            "isProduct": row["is_product"],
            "era": {"from": row["era_from"], "to": row["era_to"], "label": row["era_label"]},
            "formats": row["formats"],
            "url": logo_url(row["slug"]),
            "company": {"slug": row["company__slug"], "name": row["company__name"]},
        }


class LogoSearchOutputSerializer(PageEnvelopeSerializer):
    data = LogoSearchItemSerializer(many=True)


# -- GET /logos/{id} ------------------------------------------------------------------


class LogoLookupInputSerializer(serializers.Serializer):
    id = serializers.CharField(min_length=1, max_length=255)


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
        assets = self.context["assets_by_variant"].get(variant.id, [])
        return sorted_formats(assets)


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


class LogoDetailOutputSerializer(serializers.Serializer):
    data = LogoDetailSerializer()
