"""The Logo Link's options (GET /img/{identifier})."""

from rest_framework import serializers

from api.inputs import (
    QueryChoiceField,
    QueryIntegerField,
)
from directory.images import logolink


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
