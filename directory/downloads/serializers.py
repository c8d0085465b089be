"""Input and output serializers of a download (POST /logos/{id}/download)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.errors import error_codes
from api.inputs import (
    StrictCharField,
    StrictUUIDField,
)
from api.rows import shared_serializer
from api.schema import EitherShape
from api.times import TimestampField
from directory.catalogue.models import FileFormat
from directory.catalogue.shapes import (
    AssetSerializer,
)


def _any_case(word: str) -> str:
    return "".join(f"[{letter.upper()}{letter.lower()}]" for letter in word)


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
        "directory.downloads.serializers.DownloadByFormatInputSerializer",
        "directory.downloads.serializers.DownloadByAssetInputSerializer",
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
