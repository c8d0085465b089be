"""Input and output serializers of the catalogue endpoints, one pair per endpoint.

The shapes of companies and logos the outputs hold are in directory/catalogue/shapes.py. Output
field names are the contract's (camel case); nullable fields are always present.
"""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.errors import error_codes
from api.inputs import (
    QueryChoiceField,
    QueryIntegerField,
    StrictCharField,
    StrictUUIDField,
)
from api.pagination import PageEnvelopeSerializer, PageQuerySerializer
from api.rows import RowSerializer, shared_serializer
from api.schema import EitherShape
from api.times import TimestampField
from directory.catalogue.models import FileFormat
from directory.catalogue.shapes import (
    AssetSerializer,
    CompanyDetailSerializer,
    CompanySummarySerializer,
    LogoDetailSerializer,
    LogoSearchItemSerializer,
)
from directory.images import logolink
from directory.search.selectors import CONTROL_CHARACTERS

SEARCH_TERM_HELP = (
    "Words to look for, ignoring accents and case. Punctuation and control characters "
    "(NUL among them) separate words."
)


class SearchTextField(serializers.CharField):
    """Text typed into a search: control characters, NUL among them, are word breaks as
    everywhere search reads a term (directory/search/selectors.py), not a reason to refuse it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_blank", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = CONTROL_CHARACTERS.sub(" ", data)
        return super().to_internal_value(data)


# -- GET /companies -------------------------------------------------------------------


class CompanySearchInputSerializer(PageQuerySerializer):
    q = SearchTextField(max_length=100, help_text=SEARCH_TERM_HELP)
    sector = SearchTextField(
        max_length=100,
        help_text="A sector's slug, or its name ignoring accents and case; control "
        "characters count as spaces.",
    )
    province = SearchTextField(
        max_length=120,
        help_text="A province, ignoring accents and case; control characters count as spaces.",
    )
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


# A path segment is looked up as it is: one of spaces is no company, not an invalid
# request (DRF would trim it to blank).
class CompanyLookupInputSerializer(serializers.Serializer):
    slug = serializers.CharField(min_length=1, max_length=255, trim_whitespace=False)


class CompanyDetailOutputSerializer(RowSerializer):
    data = CompanyDetailSerializer()


# -- GET /domains ---------------------------------------------------------------------


class DomainEntrySerializer(serializers.Serializer):
    domain = serializers.CharField()
    slug = serializers.CharField()
    name = serializers.CharField()


class DomainListOutputSerializer(serializers.Serializer):
    data = DomainEntrySerializer(many=True)
    generatedAt = TimestampField()


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
    q = SearchTextField(max_length=100, help_text=SEARCH_TERM_HELP)


class LogoSearchOutputSerializer(RowSerializer, PageEnvelopeSerializer):
    data = LogoSearchItemSerializer(many=True)


# -- GET /logos/{id} ------------------------------------------------------------------


class LogoLookupInputSerializer(serializers.Serializer):
    id = serializers.CharField(min_length=1, max_length=255, trim_whitespace=False)


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


# A NUL is refused in every text field (DRF's validator): the document says so, as it
# does for path identifiers.
@extend_schema_field({"type": "string", "pattern": "^[^\\u0000]*$"})
class VariantInputField(StrictCharField):
    pass


class DownloadByFormatInputSerializer(serializers.Serializer):
    """The body as the document tells it: by format (and variant)..."""

    format = FileFormatInputField(help_text="SVG, PNG, PDF, AI, EPS or ZIP, in any case.")
    variant = VariantInputField(
        min_length=1, max_length=120, required=False, help_text="A variant's id or name."
    )
    assetId = StrictUUIDField(required=False, help_text="One exact file of the logo.")


class DownloadByAssetInputSerializer(serializers.Serializer):
    """...or by one exact file."""

    assetId = StrictUUIDField(help_text="One exact file of the logo.")
    format = FileFormatInputField(
        required=False, help_text="SVG, PNG, PDF, AI, EPS or ZIP, in any case."
    )
    variant = VariantInputField(
        min_length=1, max_length=120, required=False, help_text="A variant's id or name."
    )


class LogoDownloadInputSerializer(serializers.Serializer):
    format = FileFormatInputField(
        required=False, help_text="SVG, PNG, PDF, AI, EPS or ZIP, in any case."
    )
    variant = VariantInputField(
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


class DownloadByFormatOrAsset(EitherShape):
    """The document shows LogoDownloadInputSerializer as its two shapes."""

    target_class = LogoDownloadInputSerializer
    shapes = (
        "directory.api.serializers.DownloadByFormatInputSerializer",
        "directory.api.serializers.DownloadByAssetInputSerializer",
    )


class DownloadQuotaSerializer(serializers.Serializer):
    unlimited = serializers.BooleanField(help_text="Read first: true means no limit applies.")
    used = serializers.IntegerField()
    limit = serializers.IntegerField()
    remaining = serializers.IntegerField()
    resetAt = TimestampField(source="reset_at", allow_null=True)


class DownloadLinkSerializer(serializers.Serializer):
    url = serializers.URLField()
    expiresIn = serializers.IntegerField()
    expiresAt = TimestampField()
    filename = serializers.CharField()
    asset = AssetSerializer()


class LogoDownloadOutputSerializer(serializers.Serializer):
    data = DownloadLinkSerializer()
    quota = DownloadQuotaSerializer()


class DownloadLimitErrorSerializer(serializers.Serializer):
    error = serializers.ChoiceField(choices=error_codes())
    message = serializers.CharField()
    quota = DownloadQuotaSerializer(required=False, help_text="With DOWNLOAD_LIMIT_REACHED.")


def download_body(*, url: str, expires_in: int, expires_at, filename: str, asset, quota) -> dict:
    """What LogoDownloadOutputSerializer shows of a granted link (through one shared
    instance: downloads are a hot path)."""
    link = {
        "url": url,
        "expiresIn": expires_in,
        "expiresAt": expires_at,
        "filename": filename,
        "asset": asset,
    }
    return shared_serializer(LogoDownloadOutputSerializer).to_representation(
        {"data": link, "quota": quota}
    )


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
