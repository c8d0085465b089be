"""How large an SVG is drawn: decided here, before any renderer allocates a pixel.

resvg sizes its canvas from the root's width and height, not from the viewBox: a file
saying width="1" height="100000" over a viewBox of 100000 x 1, drawn 512 px wide, asks
for a canvas 512 x 51,200,000 and the allocation failure aborts the whole process. So
no file is handed to a renderer with its own width and height: the root is given a
viewBox (the file's own, or one made from its absolute width and height) and a width
and height that fit that viewBox into the box the caller asked for. The canvas is then
that box, whatever the file said.

A file whose size cannot be known this way is refused (SvgSizeError): a viewBox that is
not four numbers with a positive width and height, or no viewBox and a width or height
that is missing, relative (a percentage) or not a positive length.
"""

import math
import re
from collections.abc import Mapping

# CSS absolute units in CSS pixels (96 per inch); em and ex as a 16 px font draws them.
_UNITS = {
    "": 1.0,
    "px": 1.0,
    "in": 96.0,
    "cm": 96.0 / 2.54,
    "mm": 96.0 / 25.4,
    "q": 96.0 / 101.6,
    "pt": 96.0 / 72.0,
    "pc": 16.0,
    "em": 16.0,
    "ex": 8.0,
}
_LENGTH = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*([A-Za-z%]*)\s*")


class SvgSizeError(ValueError):
    """The SVG does not say how large it is in a way that can be drawn; the message says why."""


def _length(value: str | None) -> float | None:
    """An absolute, positive, finite length in px; None when it is anything else."""
    match = _LENGTH.fullmatch(value or "")
    if match is None or match.group(2).lower() not in _UNITS:
        return None
    number = float(match.group(1)) * _UNITS[match.group(2).lower()]
    return number if math.isfinite(number) and number > 0 else None


def view_box(attributes: Mapping[str, str]) -> tuple[float, float, float, float]:
    """The root's viewBox, or one made from its absolute width and height.

    SvgSizeError when neither says a positive, finite size.
    """
    raw = attributes.get("viewBox")
    if raw is not None:
        parts = raw.replace(",", " ").split()
        try:
            numbers = [float(part) for part in parts]
        except ValueError:
            numbers = []
        if len(numbers) != 4 or not all(math.isfinite(number) for number in numbers):
            raise SvgSizeError(f'its viewBox "{raw[:60]}" is not four numbers')
        if numbers[2] <= 0 or numbers[3] <= 0:
            raise SvgSizeError(
                f'its viewBox "{raw[:60]}" has a width or height that is zero or negative'
            )
        return numbers[0], numbers[1], numbers[2], numbers[3]
    width, height = _length(attributes.get("width")), _length(attributes.get("height"))
    if width is None or height is None:
        said = ", ".join(
            f'{name}="{attributes[name][:30]}"'
            for name in ("width", "height")
            if name in attributes
        )
        raise SvgSizeError(
            "it has no viewBox, and its width and height "
            + (f"({said}) " if said else "")
            + "do not give a positive size in absolute units"
        )
    return 0.0, 0.0, width, height


def fitted_size(attributes: Mapping[str, str], longest: int) -> tuple[int, int]:
    """Width and height in whole pixels, the longer `longest`, in the viewBox's proportions."""
    _, _, width, height = view_box(attributes)
    scale = longest / max(width, height)
    return max(1, min(longest, round(width * scale))), max(1, min(longest, round(height * scale)))


def fitted_attributes(attributes: Mapping[str, str], longest: int) -> dict[str, str]:
    """The root's width, height and viewBox that make a renderer draw it within a
    `longest` x `longest` box, whatever the file said. SvgSizeError when it cannot."""
    x, y, width, height = view_box(attributes)
    fitted_width, fitted_height = fitted_size(attributes, longest)
    return {
        "width": str(fitted_width),
        "height": str(fitted_height),
        "viewBox": " ".join(repr(number) for number in (x, y, width, height)),
    }
