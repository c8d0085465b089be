"""The website's palette form. It reads what a person types into the API's body and
validates it with the API's own serializers: the same rules, limits and error texts
(in the visitor's language), one place that decides them."""

import re

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from palettes.models import GradientKind, Palette, PaletteType
from palettes.serializers import (
    MAX_COLORS,
    PaletteCreateInputSerializer,
    PaletteUpdateInputSerializer,
)

_SEPARATORS = re.compile(r"[\s,;]+")
_ENTRIES = re.compile(r"[\n,;]+")
# Where an error of the API's body goes on the form.
_FIELDS = {"name": "name", "type": "type", "colors": "colors", "isPublic": "is_public"}
_GRADIENT_FIELDS = {"kind": "kind", "angle": "angle", "stops": "colors"}


def flat_errors(detail, prefix: str = "") -> list[str]:
    """DRF's nested errors (lists, and dicts by index or key) as flat messages."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            if isinstance(key, int):
                label = gettext("Colour %(number)s: ") % {"number": key + 1}
                out += flat_errors(value, prefix + label)
            else:
                out += flat_errors(value, prefix)
        return out
    if isinstance(detail, list):
        return [message for item in detail for message in flat_errors(item, prefix)]
    return [f"{prefix}{detail}"]


def _gradient(text: str, kind: str, angle: str) -> dict:
    """ "#C8102E 0, #FFC400 100": a code and its position per stop; without positions,
    the stops are spread evenly."""
    entries = [entry.split() for entry in _ENTRIES.split(text) if entry.strip()]
    spread = not any(len(entry) > 1 for entry in entries)
    stops = []
    for index, entry in enumerate(entries):
        if spread:
            position = round(index * 100 / max(len(entries) - 1, 1), 2)
        else:
            position = entry[1] if len(entry) == 2 else " ".join(entry[1:])
            position = _number(position)
        stops.append({"hex": entry[0], "position": position})
    return {"kind": kind, "angle": _number(angle), "stops": stops}


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return text  # the serializer says what is wrong with it


def colours_text(palette: Palette) -> str:
    if palette.type == PaletteType.PALETTE:
        return " ".join(palette.colors)
    return "\n".join(f"{stop['hex']} {stop['position']:g}" for stop in palette.colors["stops"])


class PaletteForm(forms.Form):
    """Create (with a type) or edit (the type is the palette's) a palette or gradient."""

    name = forms.CharField(
        label=_("Name"),
        required=False,
        strip=False,
        widget=forms.TextInput(attrs={"maxlength": 60}),
    )
    type = forms.ChoiceField(
        label=_("Kind"),
        choices=[(PaletteType.PALETTE, _("Palette")), (PaletteType.GRADIENT, _("Gradient"))],
        initial=PaletteType.PALETTE,
        widget=forms.RadioSelect,
    )
    colors = forms.CharField(
        label=_("Colours"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text=format_lazy(
            _(
                "2 to {max} codes like #C8102E, separated by spaces or commas. For a gradient, "
                "one stop per line: its code and, if you like, its position from 0 to 100."
            ),
            max=MAX_COLORS,
        ),
    )
    kind = forms.ChoiceField(
        label=_("Gradient shape"),
        choices=[(GradientKind.LINEAR, _("Linear")), (GradientKind.RADIAL, _("Radial"))],
        initial=GradientKind.LINEAR,
        required=False,
    )
    angle = forms.CharField(label=_("Gradient angle (0 to 360)"), initial="90", required=False)
    is_public = forms.BooleanField(
        label=_("Public: anyone with its address can see it"), required=False
    )

    def __init__(self, *args, palette: Palette | None = None, **kwargs):
        self.palette = palette
        if palette is not None and "data" not in kwargs and "initial" not in kwargs and not args:
            gradient = palette.colors if palette.type == PaletteType.GRADIENT else {}
            kwargs["initial"] = {
                "name": palette.name,
                "colors": colours_text(palette),
                "kind": gradient.get("kind", GradientKind.LINEAR),
                "angle": f"{gradient.get('angle', 90):g}",
                "is_public": palette.is_public,
            }
        super().__init__(*args, **kwargs)
        if palette is not None:
            del self.fields["type"]  # the type never changes (as PATCH /palettes/{id})
            if palette.type == PaletteType.PALETTE:
                del self.fields["kind"], self.fields["angle"]

    @property
    def palette_type(self) -> str:
        if self.palette is not None:
            return self.palette.type
        return self.data.get("type") or PaletteType.PALETTE

    def _body(self) -> dict:
        data = self.cleaned_data
        text = data.get("colors") or ""
        if self.palette_type == PaletteType.GRADIENT:
            # Left empty, the gradient fields mean what the form shows at first.
            kind, angle = data.get("kind") or GradientKind.LINEAR, data.get("angle") or "90"
            colors = _gradient(text, kind, angle)
        else:
            colors = [code for code in _SEPARATORS.split(text) if code]
        body = {"name": data.get("name", ""), "colors": colors, "isPublic": data["is_public"]}
        if self.palette is None:
            body["type"] = data["type"]
        return body

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        if self.palette is None:
            serializer = PaletteCreateInputSerializer(data=self._body())
        else:
            serializer = PaletteUpdateInputSerializer(
                data=self._body(), context={"type": self.palette.type}
            )
        if not serializer.is_valid():
            for field, detail in serializer.errors.items():
                if field == "colors" and isinstance(detail, dict):
                    for key, value in detail.items():
                        target = _GRADIENT_FIELDS.get(key, "colors")
                        self.add_error(
                            target, flat_errors({key: value} if target == "colors" else value)
                        )
                else:
                    self.add_error(_FIELDS.get(field), flat_errors(detail))
            return cleaned
        self.validated = serializer.validated_data
        return cleaned

    def changes(self) -> dict:
        """The model fields an edit sets, as PATCH /palettes/{id} sets them."""
        return {
            "name": self.validated["name"],
            "colors": self.validated["colors"],
            "is_public": self.validated["isPublic"],
        }
