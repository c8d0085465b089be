"""One input and one output serializer per proposal endpoint."""

from urllib.parse import urlsplit

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.models import Source
from api.pagination import PageEnvelopeSerializer, PageQuerySerializer
from api.times import TimestampField
from proposals.models import MAX_FILE_BYTES, ProposalFormat, ProposalStatus

# -- POST /proposals -------------------------------------------------------------------


@extend_schema_field({"type": "string", "format": "uri", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"})
class WebAddressField(serializers.CharField):
    """An absolute http(s) address (RFC 3986), as the document says.

    Not Django's URLField, which also refuses some valid URIs (a host name over 253
    characters, say) by rules the document has no way to state.
    """

    default_error_messages = {"invalid": "An absolute http or https address."}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            parts = urlsplit(value)
        except ValueError:
            self.fail("invalid")
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            self.fail("invalid")
        if any(character.isspace() or ord(character) < 32 for character in value):
            self.fail("invalid")
        return value


class ProposalCreateInputSerializer(serializers.Serializer):
    file = serializers.FileField(
        allow_empty_file=False,
        help_text=f"SVG, PNG, JPEG or WEBP, judged by its bytes; at most {MAX_FILE_BYTES} bytes.",
    )
    companyName = serializers.CharField(max_length=255, required=False, allow_blank=False)
    companySlug = serializers.CharField(max_length=255, required=False, allow_blank=False)
    logoId = serializers.CharField(
        max_length=255, required=False, allow_blank=False, help_text="A logo's id or slug."
    )
    website = serializers.CharField(max_length=255, required=False, allow_blank=True)
    sourceUrl = WebAddressField(max_length=2048, required=False, allow_blank=True)
    notes = serializers.CharField(max_length=1000, required=False, allow_blank=True)

    def validate(self, attrs):
        if not attrs.get("companySlug") and not attrs.get("companyName"):
            raise serializers.ValidationError(
                {"companyName": [_("Required when companySlug is not given.")]}
            )
        return attrs


class ProposalCompanySerializer(serializers.Serializer):
    slug = serializers.CharField(allow_null=True)
    name = serializers.CharField()


class ProposalLogoSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    slug = serializers.CharField(allow_null=True)


class ProposalFileSerializer(serializers.Serializer):
    filename = serializers.CharField(source="file_name")
    format = serializers.ChoiceField(source="file_format", choices=ProposalFormat.choices)
    size = serializers.IntegerField(source="file_size")
    contentType = serializers.CharField(source="content_type")


class ProposalSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=ProposalStatus.choices)
    companyName = serializers.CharField(source="company_name")
    company = ProposalCompanySerializer(allow_null=True)
    logo = ProposalLogoSerializer(allow_null=True)
    website = serializers.CharField(allow_null=True)
    sourceUrl = serializers.CharField(source="source_url", allow_null=True)
    notes = serializers.CharField(allow_null=True)
    file = ProposalFileSerializer(source="*")
    source = serializers.ChoiceField(choices=Source.choices)
    createdAt = TimestampField(source="created_at")
    reviewedAt = TimestampField(source="reviewed_at", allow_null=True)
    reviewNote = serializers.CharField(source="review_note", allow_null=True)


class ProposalOutputSerializer(serializers.Serializer):
    data = ProposalSerializer()


# -- GET /proposals --------------------------------------------------------------------


class ProposalListInputSerializer(PageQuerySerializer):
    pass


class ProposalListOutputSerializer(PageEnvelopeSerializer):
    data = ProposalSerializer(many=True)
