"""One input and one output serializer per palette endpoint."""

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.inputs import (
    QueryChoiceField,
    StrictBooleanField,
    StrictCharField,
    StrictNumberField,
)
from api.pagination import PageEnvelopeSerializer, PageQuerySerializer
from api.times import TimestampField
from palettes.models import GradientKind, PaletteSource, PaletteType

_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")
MIN_COLORS, MAX_COLORS = 2, 10


@extend_schema_field({"type": "string", "pattern": _HEX.pattern})
class HexColorField(StrictCharField):
    """#RRGGBB in either case on the way in, stored and shown in upper case."""

    # Translatable: the website shows the API's texts in its visitor's language (the API
    # itself always speaks English).
    default_error_messages = {"invalid_hex": _("A colour is #RRGGBB (six hex digits).")}

    def __init__(self, **kwargs):
        super().__init__(trim_whitespace=False, **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not _HEX.match(value):
            self.fail("invalid_hex")
        return value.upper()


class GradientStopSerializer(serializers.Serializer):
    hex = HexColorField()
    position = StrictNumberField(min_value=0, max_value=100)


class GradientSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=GradientKind.values)
    angle = StrictNumberField(min_value=0, max_value=360)
    # A ListField, not many=True: drf-spectacular documents its bounds (minItems, maxItems).
    stops = serializers.ListField(
        child=GradientStopSerializer(), min_length=MIN_COLORS, max_length=MAX_COLORS
    )


def _palette_colors() -> serializers.ListField:
    # A field of its own each time: DRF words a length error once per field instance
    # (lazy_format keeps its first text), and the website asks in two languages.
    return serializers.ListField(
        child=HexColorField(), min_length=MIN_COLORS, max_length=MAX_COLORS
    )


COLORS_SCHEMA = {
    "oneOf": [
        {
            "type": "array",
            "items": {"type": "string", "pattern": _HEX.pattern},
            "minItems": MIN_COLORS,
            "maxItems": MAX_COLORS,
            "description": "PALETTE: the colours.",
        },
        {
            "type": "object",
            "description": "GRADIENT: its kind, angle and stops.",
            "properties": {
                "kind": {"type": "string", "enum": GradientKind.values},
                "angle": {"type": "number", "minimum": 0, "maximum": 360},
                "stops": {
                    "type": "array",
                    "minItems": MIN_COLORS,
                    "maxItems": MAX_COLORS,
                    "items": {
                        "type": "object",
                        "properties": {
                            "hex": {"type": "string", "pattern": _HEX.pattern},
                            "position": {"type": "number", "minimum": 0, "maximum": 100},
                        },
                        "required": ["hex", "position"],
                    },
                },
            },
            "required": ["kind", "angle", "stops"],
        },
    ]
}


@extend_schema_field(COLORS_SCHEMA)
class PaletteColorsField(serializers.Field):
    """A PALETTE's list of colours or a GRADIENT's object; which one the type decides."""

    default_error_messages = {
        "invalid": _("colors is a list of #RRGGBB colours or a gradient object."),
    }

    def to_internal_value(self, data):
        if isinstance(data, list):
            return _palette_colors().run_validation(data)
        if isinstance(data, dict):
            gradient = GradientSerializer(data=data)
            gradient.is_valid(raise_exception=True)
            return dict(gradient.validated_data)
        self.fail("invalid")

    def to_representation(self, value):
        return value


def _check_shape(type: str, colors) -> None:
    shape = PaletteType.PALETTE if isinstance(colors, list) else PaletteType.GRADIENT
    if shape != type:
        message = (
            gettext("A PALETTE has a list of colours.")
            if type == PaletteType.PALETTE
            else gettext("A GRADIENT has a gradient object.")
        )
        raise serializers.ValidationError({"colors": [message]})


class CompanyIdField(serializers.UUIDField):
    default_error_messages = {"invalid": "A company id is a UUID."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


# -- GET /palettes ---------------------------------------------------------------------


class PaletteListInputSerializer(PageQuerySerializer):
    type = QueryChoiceField(choices=PaletteType.values, required=False)


class PaletteCompanySerializer(serializers.Serializer):
    slug = serializers.CharField(allow_null=True)
    name = serializers.CharField()


class PaletteSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    type = serializers.ChoiceField(choices=PaletteType.values)
    colors = PaletteColorsField()
    source = serializers.ChoiceField(choices=PaletteSource.choices)
    isPublic = serializers.BooleanField(source="is_public")
    isMine = serializers.SerializerMethodField()
    company = PaletteCompanySerializer(allow_null=True)
    createdAt = TimestampField(source="created_at")
    updatedAt = TimestampField(source="updated_at")

    def get_isMine(self, palette) -> bool:
        return palette.owner_id == self.context["user"].pk


class PaletteQuotaSerializer(serializers.Serializer):
    used = serializers.IntegerField()
    max = serializers.IntegerField()


class PaletteListOutputSerializer(PageEnvelopeSerializer):
    data = PaletteSerializer(many=True)
    quota = PaletteQuotaSerializer()


# -- POST /palettes --------------------------------------------------------------------


class PaletteCreateInputSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=PaletteType.values)
    colors = PaletteColorsField()
    name = StrictCharField(min_length=1, max_length=60)
    source = serializers.ChoiceField(choices=PaletteSource.choices, default=PaletteSource.MANUAL)
    companyId = CompanyIdField(required=False, allow_null=True, default=None)
    isPublic = StrictBooleanField(required=False, default=False)

    def validate(self, attrs):
        _check_shape(attrs["type"], attrs["colors"])
        return attrs


class PaletteOutputSerializer(serializers.Serializer):
    data = PaletteSerializer()


# What the document says of the create body: one shape per type, which the single
# serializer above checks in validate(). A pattern, not an enum: drf-spectacular would
# make a component of each one-value enum.


@extend_schema_field({"type": "string", "pattern": "^PALETTE$"})
class _PaletteTypeField(serializers.CharField):
    pass


@extend_schema_field({"type": "string", "pattern": "^GRADIENT$"})
class _GradientTypeField(serializers.CharField):
    pass


class _PaletteCreateFields(serializers.Serializer):
    name = StrictCharField(min_length=1, max_length=60)
    source = serializers.ChoiceField(choices=PaletteSource.choices, default=PaletteSource.MANUAL)
    companyId = CompanyIdField(required=False, allow_null=True, default=None)
    isPublic = StrictBooleanField(required=False, default=False)


class PaletteShapeInputSerializer(_PaletteCreateFields):
    type = _PaletteTypeField()
    colors = serializers.ListField(
        child=HexColorField(), min_length=MIN_COLORS, max_length=MAX_COLORS
    )


class GradientShapeInputSerializer(_PaletteCreateFields):
    type = _GradientTypeField()
    colors = GradientSerializer()


# -- GET /palettes/{id} ----------------------------------------------------------------
# The path id is read as text: a malformed id is PALETTE_NOT_FOUND like an unknown one.


# -- PATCH /palettes/{id} --------------------------------------------------------------


class PaletteUpdateInputSerializer(serializers.Serializer):
    name = StrictCharField(min_length=1, max_length=60, required=False)
    colors = PaletteColorsField(required=False)
    isPublic = StrictBooleanField(required=False)
    companyId = CompanyIdField(required=False, allow_null=True)

    def validate(self, attrs):
        # The type never changes: new colours keep the palette's shape.
        if "colors" in attrs:
            _check_shape(self.context["type"], attrs["colors"])
        return attrs
