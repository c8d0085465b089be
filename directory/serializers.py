"""Input and output serializers of the catalogue endpoints, one pair per endpoint.

Output field names are the contract's (camel case); nullable fields are always
present. Each output serializer is the one definition of its shape: the OpenAPI
schema, what the website's and the admin's instances show, and (RowSerializer) what
the hot paths build from the JSON rows PostgreSQL gives them, keyed by the fields'
sources (the SQL of directory/sql/ and selectors.py; tests/directory/test_rows.py holds
the keys and the sources equal).
"""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api.errors import ErrorCode
from config.api.inputs import (
    QueryChoiceField,
    QueryIntegerField,
    StrictCharField,
    StrictUUIDField,
)
from config.api.pagination import PageEnvelopeSerializer, PageQuerySerializer
from config.api.rows import RowSerializer
from directory import logolink
from directory.models import (
    FORMAT_ORDER,
    EntityType,
    FileFormat,
    VariantKind,
)
from directory.selectors import company_url, logo_url, preview_url


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


class CompanySearchOutputSerializer(RowSerializer, PageEnvelopeSerializer):
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


class CompanyDetailOutputSerializer(RowSerializer):
    data = CompanyDetailSerializer()


# -- GET /domains ---------------------------------------------------------------------


class DomainEntrySerializer(serializers.Serializer):
    domain = serializers.CharField()
    slug = serializers.CharField()
    name = serializers.CharField()


class DomainListOutputSerializer(serializers.Serializer):
    data = DomainEntrySerializer(many=True)
    generatedAt = serializers.DateTimeField()


# -- GET /domains/{domain} ------------------------------------------------------------

DOMAIN_INPUT_MAX_LENGTH = 2048


class DomainLookupInputSerializer(serializers.Serializer):
    """The domain as typed; the view normalises it. Text that is no domain name is not
    refused here: no company is known by it (404), as no schema could tell a domain or a
    web address on one from other text."""

    domain = serializers.CharField(max_length=DOMAIN_INPUT_MAX_LENGTH, trim_whitespace=False)


class DomainLookupOutputSerializer(RowSerializer):
    data = CompanySummarySerializer()


# -- GET /logos -----------------------------------------------------------------------


class LogoSearchInputSerializer(PageQuerySerializer):
    q = serializers.CharField(
        max_length=100, required=False, allow_blank=True, trim_whitespace=True
    )


class LogoCompanyRefSerializer(serializers.Serializer):
    # Read from the logo's own row: search.logo_page's rows are flat.
    slug = serializers.CharField(source="company__slug", allow_null=True)
    name = serializers.CharField(source="company__name")


class LogoSearchItemSerializer(LogoSummarySerializer):
    company = LogoCompanyRefSerializer(source="*", allow_null=True)


class LogoSearchOutputSerializer(RowSerializer, PageEnvelopeSerializer):
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


class LogoDetailOutputSerializer(RowSerializer):
    data = LogoDetailSerializer()


# -- GET /companies/{slug}/colors ------------------------------------------------------


class ColorsLogoSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    slug = serializers.CharField(allow_null=True)


class ColorsCompanySerializer(serializers.Serializer):
    slug = serializers.CharField(allow_null=True)
    name = serializers.CharField()


class CompanyColorsSerializer(serializers.Serializer):
    company = ColorsCompanySerializer()
    logo = ColorsLogoSerializer(allow_null=True)
    colors = serializers.ListField(child=serializers.CharField())
    cached = serializers.BooleanField(help_text="false: not computed yet for this logo.")
    message = serializers.CharField(allow_null=True)


class CompanyColorsOutputSerializer(serializers.Serializer):
    data = CompanyColorsSerializer()


# -- POST /logos/{id}/download ---------------------------------------------------------


def _any_case(word: str) -> str:
    return "".join(f"[{letter.upper()}{letter.lower()}]" for letter in word)


# Described as a pattern, not an enum: the format is accepted in any case ("svg", "Svg").
_FORMAT_PATTERN = "^(?:" + "|".join(_any_case(value) for value in FileFormat.values) + ")$"


@extend_schema_field({"type": "string", "pattern": _FORMAT_PATTERN})
class FileFormatInputField(StrictCharField):
    pass


class DownloadByFormatInputSerializer(serializers.Serializer):
    """The body as the document tells it: by format (and variant)..."""

    format = FileFormatInputField(help_text="SVG, PNG, PDF, AI, EPS or ZIP, in any case.")
    variant = StrictCharField(
        min_length=1, max_length=120, required=False, help_text="A variant's id or name."
    )
    assetId = StrictUUIDField(required=False, help_text="One exact file of the logo.")


class DownloadByAssetInputSerializer(serializers.Serializer):
    """...or by one exact file."""

    assetId = StrictUUIDField(help_text="One exact file of the logo.")
    format = FileFormatInputField(
        required=False, help_text="SVG, PNG, PDF, AI, EPS or ZIP, in any case."
    )
    variant = StrictCharField(
        min_length=1, max_length=120, required=False, help_text="A variant's id or name."
    )


class LogoDownloadInputSerializer(serializers.Serializer):
    format = FileFormatInputField(
        required=False, help_text="SVG, PNG, PDF, AI, EPS or ZIP, in any case."
    )
    variant = StrictCharField(
        min_length=1, max_length=120, required=False, help_text="A variant's id or name."
    )
    assetId = StrictUUIDField(required=False, help_text="One exact file of the logo.")

    def validate_format(self, value: str) -> str:
        upper = value.upper()
        if upper not in FileFormat.values:
            raise serializers.ValidationError(f"One of {', '.join(FileFormat.values)}.")
        return upper

    def validate(self, attrs):
        if "assetId" not in attrs and "format" not in attrs:
            raise serializers.ValidationError({"format": ["Required unless assetId is given."]})
        return attrs


class DownloadQuotaSerializer(serializers.Serializer):
    unlimited = serializers.BooleanField(help_text="Read first: true means no limit applies.")
    used = serializers.IntegerField()
    limit = serializers.IntegerField()
    remaining = serializers.IntegerField()
    resetAt = serializers.DateTimeField(source="reset_at", allow_null=True)


class DownloadLinkSerializer(serializers.Serializer):
    url = serializers.URLField()
    expiresIn = serializers.IntegerField()
    expiresAt = serializers.DateTimeField()
    filename = serializers.CharField()
    asset = AssetSerializer()


class LogoDownloadOutputSerializer(serializers.Serializer):
    data = DownloadLinkSerializer()
    quota = DownloadQuotaSerializer()


class DownloadLimitErrorSerializer(serializers.Serializer):
    error = serializers.ChoiceField(choices=[code.value for code in ErrorCode])
    message = serializers.CharField()
    quota = DownloadQuotaSerializer(required=False, help_text="With DOWNLOAD_LIMIT_REACHED.")


_DOWNLOAD_TIME = serializers.DateTimeField()


def download_quota_body(quota) -> dict:
    """A downloads.Quota as DownloadQuotaSerializer shows it.

    Built directly: downloads are a hot path. The serializers
    above stay the schema; tests/directory/test_downloads.py holds the two equal.
    """
    return {
        "unlimited": quota.unlimited,
        "used": quota.used,
        "limit": quota.limit,
        "remaining": quota.remaining,
        "resetAt": (_DOWNLOAD_TIME.to_representation(quota.reset_at) if quota.reset_at else None),
    }


def download_body(*, url: str, expires_in: int, expires_at, filename: str, asset, quota) -> dict:
    """What LogoDownloadOutputSerializer shows, built directly (see download_quota_body)."""
    return {
        "data": {
            "url": url,
            "expiresIn": expires_in,
            "expiresAt": _DOWNLOAD_TIME.to_representation(expires_at),
            "filename": filename,
            "asset": {
                "id": str(asset.id),
                "format": asset.format,
                "variantId": str(asset.variant_id) if asset.variant_id is not None else None,
                "size": asset.size,
                "contentType": asset.content_type,
            },
        },
        "quota": download_quota_body(quota),
    }


# -- GET /img/{identifier} ------------------------------------------------------------


class LogoImageInputSerializer(serializers.Serializer):
    """The options of the Logo Link. The answer is an image, not JSON: no output
    serializer; the view documents the binary responses."""

    size = QueryIntegerField(
        min_value=logolink.SIZES[0],
        max_value=logolink.SIZES[1],
        default=128,
        help_text="The longer side in pixels; the image is a square of this side unless "
        "shape=original.",
    )
    format = QueryChoiceField(choices=logolink.FORMATS, default="png")
    theme = QueryChoiceField(
        choices=logolink.THEMES,
        default="light",
        help_text="The background the image goes on. dark: the variant that reads best on "
        "a dark background, or the logo in white (docs/api.md, Logo Link).",
    )
    greyscale = QueryChoiceField(choices=["true", "false"], default="false")
    fallback = QueryChoiceField(
        choices=logolink.FALLBACKS,
        default="monogram",
        help_text="What answers when there is no logo to draw: the initials on the brand "
        "colour, a transparent square, or the 404 error.",
    )
    shape = QueryChoiceField(
        choices=logolink.SHAPES,
        default="square",
        help_text="square: centred on a transparent square; original: the logo's own proportions.",
    )

    def validate_greyscale(self, value: str) -> bool:
        return value == "true"
