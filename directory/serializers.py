"""Input and output serializers of the catalogue endpoints, one pair per endpoint.

Output field names are the contract's (camel case); nullable fields are always
present.
"""

import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

from config.api.errors import ErrorCode
from config.api.inputs import (
    QueryChoiceField,
    QueryIntegerField,
    StrictCharField,
    StrictUUIDField,
    parse,
)
from config.api.pagination import (
    DEFAULT_PAGE_SIZE,
    MAX_PAGE,
    MAX_PAGE_SIZE,
    PageEnvelopeSerializer,
    PageQuerySerializer,
)
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


def logo_summary(row: dict) -> dict:
    """A logo row of a page function or a detail statement as LogoSummarySerializer shows
    it, built directly like company_summary."""
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
    }


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
        return company_summary(row)


def company_summary(row: dict) -> dict:
    """A company summary row (the keys directory_company_summaries_refresh writes, in
    directory/sql/functions/) as CompanySummarySerializer shows it.

    Built directly: search pages are the hot path. The serializer's fields are its
    schema; the contract tests hold them equal.
    """
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


# -- search inputs and envelopes ------------------------------------------------------
#
# Search is the API's hot path, and a DRF serializer deep-copies its fields each time it
# is instantiated. The search serializers below keep their fields as the schema and as
# the validation of anything unusual, and read the common well-formed queries directly:
# digits for page and pageSize, text without NUL or surrogates within its length,
# `related` among its choices. Anything else goes through the fields, errors included,
# so both paths give the same result.

_SURROGATES = re.compile("[\ud800-\udfff]")
_PAGE_LIMITS = {"page": (1, MAX_PAGE, 1), "pageSize": (1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE)}


def _quick_text(value: str, max_length: int) -> str | None:
    """What CharField(allow_blank=True, trim_whitespace=True) gives, if plainly valid."""
    value = value.strip()
    if len(value) > max_length or "\x00" in value or _SURROGATES.search(value):
        return None
    return value


class _QuickSearchQueryMixin:
    # Optional text parameters and their max_length, as the fields declare them.
    quick_text: dict[str, int] = {}
    quick_related = False  # whether the serializer has the `related` choice

    def run_validation(self, data=empty):
        quick = self._quick_validation(data)
        return quick if quick is not None else super().run_validation(data)

    def _quick_validation(self, data) -> dict | None:
        if not hasattr(data, "__contains__") or not hasattr(data, "__getitem__"):
            return None
        validated = {}
        for name, (low, high, default) in _PAGE_LIMITS.items():
            if name not in data:
                validated[name] = default
                continue
            raw = data[name]
            if not (isinstance(raw, str) and raw.isascii() and raw.isdigit()):
                return None
            number = int(raw)
            if not low <= number <= high:
                return None
            validated[name] = number
        for name, max_length in self.quick_text.items():
            if name in data:
                raw = data[name]
                value = _quick_text(raw, max_length) if isinstance(raw, str) else None
                if value is None:
                    return None
                validated[name] = value
        if self.quick_related and "related" in data:
            related = data["related"]
            if related not in ("0", "1", "true", "false"):
                return None
            validated["related"] = related in ("1", "true")
        return validated


# -- GET /companies -------------------------------------------------------------------


class CompanySearchInputSerializer(_QuickSearchQueryMixin, PageQuerySerializer):
    quick_text = {"q": 100, "sector": 100, "province": 120}
    quick_related = True

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

    def to_representation(self, body: dict) -> dict:
        # Built directly like the summaries; the fields above are the schema.
        shown = _envelope(body, company_summary)
        if "related" in body:
            shown["related"] = [company_summary(row) for row in body["related"]]
        return shown


def _envelope(body: dict, item) -> dict:
    return {
        "page": body["page"],
        "pageSize": body["pageSize"],
        "total": body["total"],
        "totalPages": body["totalPages"],
        "data": [item(row) for row in body["data"]],
    }


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

    def to_representation(self, row: dict) -> dict:
        return company_detail(row)


class CompanyDetailOutputSerializer(serializers.Serializer):
    data = CompanyDetailSerializer()

    def to_representation(self, body: dict) -> dict:
        return {"data": company_detail(body["data"])}


def company_detail(row: dict) -> dict:
    """The row of selectors.company_detail_row as CompanyDetailSerializer shows it.

    Built directly like company_summary: nested serializers copy their fields for each
    request and walk each value through them. The fields above stay the schema; the
    tests hold the whole body.
    """
    return {
        "id": row["id"],
        "slug": row["slug"],
        "name": row["name"],
        "entityType": row["entity_type"],
        "isVerified": row["is_verified"],
        "sector": row["sector"],
        "province": row["province"],
        "url": company_url(row["slug"]),
        "about": row["about"],
        "website": row["website"],
        "location": row["location"],
        "foundedYear": row["founded_year"],
        "currentLogoId": row["current_logo_id"],
        "logos": [logo_summary(logo) for logo in row["logos"]],
    }


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


class DomainLookupOutputSerializer(serializers.Serializer):
    data = CompanySummarySerializer()

    def to_representation(self, body: dict) -> dict:
        return {"data": company_summary(body["data"])}


# -- GET /logos -----------------------------------------------------------------------


class LogoSearchInputSerializer(_QuickSearchQueryMixin, PageQuerySerializer):
    quick_text = {"q": 100}

    q = serializers.CharField(
        max_length=100, required=False, allow_blank=True, trim_whitespace=True
    )


class LogoCompanyRefSerializer(serializers.Serializer):
    slug = serializers.CharField(allow_null=True)
    name = serializers.CharField()


class LogoSearchItemSerializer(LogoSummarySerializer):
    company = LogoCompanyRefSerializer(allow_null=True)

    def to_representation(self, row: dict) -> dict:
        return logo_search_item(row)


def logo_search_item(row: dict) -> dict:
    """A row of search.logo_page as LogoSearchItemSerializer shows it."""
    return {
        **logo_summary(row),
        "company": {"slug": row["company__slug"], "name": row["company__name"]},
    }


class LogoSearchOutputSerializer(PageEnvelopeSerializer):
    data = LogoSearchItemSerializer(many=True)

    def to_representation(self, body: dict) -> dict:
        return _envelope(body, logo_search_item)


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
    def get_formats(self, variant: dict) -> list[str]:
        return variant["formats"]

    def to_representation(self, row: dict) -> dict:
        return _detail_variant(row)


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

    def to_representation(self, row: dict) -> dict:
        return logo_detail(row)


class LogoDetailOutputSerializer(serializers.Serializer):
    data = LogoDetailSerializer()

    def to_representation(self, body: dict) -> dict:
        return {"data": logo_detail(body["data"])}


def logo_detail(row: dict) -> dict:
    """The row of selectors.logo_detail_row as LogoDetailSerializer shows it, built
    directly like company_detail."""
    company = row["company"]
    return {
        **logo_summary(row),
        "description": row["description"],
        "company": {
            "id": company["id"],
            "slug": company["slug"],
            "name": company["name"],
            "url": company_url(company["slug"]),
        },
        "colorPalette": row["color_palette"],
        "downloadCount": row["download_count"],
        "variants": [_detail_variant(variant) for variant in row["variants"]],
        "assets": [
            {
                "id": asset["id"],
                "format": asset["format"],
                "variantId": asset["variant_id"],
                "size": asset["size"],
                "contentType": asset["content_type"],
            }
            for asset in row["assets"]
        ],
    }


def _detail_variant(variant: dict) -> dict:
    return {
        "id": variant["id"],
        "kind": variant["kind"],
        "name": variant["name"],
        "parentId": variant["parent_id"],
        "previewUrl": preview_url(variant["preview"]),
        "formats": variant["formats"],
    }


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

    Built directly, like company_summary: downloads are a hot path. The serializers
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


_IMAGE_CHOICES = {
    "format": logolink.FORMATS,
    "theme": logolink.THEMES,
    "fallback": logolink.FALLBACKS,
    "shape": logolink.SHAPES,
    "greyscale": ("true", "false"),
}


def image_options(query) -> logolink.ImageOptions:
    """The Logo Link's options from a query string. Plainly valid ones are read
    directly (an image tag's address is the hot path); anything else goes through
    LogoImageInputSerializer, errors included."""
    values: dict = {}
    for name, choices in _IMAGE_CHOICES.items():
        if name in query:
            if query[name] not in choices:
                return _image_options_checked(query)
            values[name] = query[name]
    if "size" in query:
        raw = query["size"]
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 3):
            return _image_options_checked(query)
        size = int(raw)
        if not logolink.SIZES[0] <= size <= logolink.SIZES[1]:
            return _image_options_checked(query)
        values["size"] = size
    if "greyscale" in values:
        values["greyscale"] = values["greyscale"] == "true"
    return logolink.ImageOptions(**values)


def _image_options_checked(query) -> logolink.ImageOptions:
    return logolink.ImageOptions(**parse(LogoImageInputSerializer, query))
