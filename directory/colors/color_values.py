"""What the readers of brand colours share: colour values (RGB triples, CSS colour
parsing, distances and blends), and the test for a logo drawn on white.

directory.colors.extraction reads the colours of a file (directory.colors.svg_colors those of an
SVG); directory.colors.contrast judges how a logo reads on a background.
"""

import functools
import math
import re

from PIL import Image, ImageChops, ImageColor

MAX_COLORS = 8
# Work size: enough to rank areas, small enough to stay within a few milliseconds.
SAMPLE_PX = 256
# A pixel this opaque or more is part of the artwork (rasters).
OPAQUE_ALPHA = 128
# All channels at least this high: "near white".
NEAR_WHITE = 240
# Share of the border that must be opaque near-white for the image to be "on white".
BACKGROUND_BORDER_SHARE = 0.5

RGB = tuple[int, int, int]


class ColorError(Exception):
    """The file cannot be read as the format it claims."""


def hex_code(rgb: RGB) -> str:
    return "#{:02X}{:02X}{:02X}".format(*rgb)


def distance2(a: RGB, b: RGB) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def nearest_on_ramp(pixel: RGB, start: RGB, end: RGB) -> tuple[float, bool]:
    """Squared distance from a pixel to the blend of two stops, and whether the end is nearer."""
    dr, dg, db = end[0] - start[0], end[1] - start[1], end[2] - start[2]
    pr, pg, pb = pixel[0] - start[0], pixel[1] - start[1], pixel[2] - start[2]
    t = (pr * dr + pg * dg + pb * db) / (dr * dr + dg * dg + db * db)
    t = min(max(t, 0.0), 1.0)
    return (pr - t * dr) ** 2 + (pg - t * dg) ** 2 + (pb - t * db) ** 2, t >= 0.5


# --- CSS colour values ---------------------------------------------------------------

_FUNCTION = re.compile(r"^(rgba?|hsla?)\((.*)\)$", re.IGNORECASE | re.DOTALL)


def _alpha(text: str) -> float:
    text = text.strip()
    value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return min(max(value, 0.0), 1.0)


@functools.lru_cache(maxsize=4096)
def parse_color(value: str) -> tuple[RGB, float] | None:
    """RGB and alpha (0..1) of a CSS colour; None when it is not one Pillow knows."""
    value = value.strip()
    if value.lower() == "transparent":
        return (0, 0, 0), 0.0
    alpha = 1.0
    match = _FUNCTION.match(value)
    if match:
        # Pillow reads CSS's rgba() alpha as 0..255 and knows no space-separated form.
        name, args = match.group(1).lower(), match.group(2)
        parts = [p for p in re.split(r"[\s,/]+", args.strip()) if p]
        if len(parts) not in (3, 4):
            return None
        try:
            if len(parts) == 4:
                alpha = _alpha(parts[3])
        except ValueError:
            return None
        parts = [parts[0].removesuffix("deg"), *parts[1:3]]
        value = f"{name[:3]}({','.join(parts)})"
    try:
        parsed = ImageColor.getrgb(value)
    except ValueError:
        return None
    if len(parsed) == 4:
        alpha *= parsed[3] / 255
    return (parsed[0], parsed[1], parsed[2]), alpha


def on_white(image: Image.Image) -> bool:
    """Whether most of the border is opaque near-white: a white background."""
    near_white = near_white_mask(image)
    width, height = image.size
    strips = [(0, 0, width, 1), (0, height - 1, width, height)]
    strips += [(0, 1, 1, height - 1), (width - 1, 1, width, height - 1)]
    total = white = 0
    for box in strips:
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        histogram = near_white.crop(box).histogram()
        total += sum(histogram)
        white += histogram[255]
    return total > 0 and white / total > BACKGROUND_BORDER_SHARE


def near_white_mask(image: Image.Image) -> Image.Image:
    """255 where a pixel is opaque and near white, 0 elsewhere."""
    red, green, blue, alpha = image.split()
    lightest_min = ImageChops.darker(red, ImageChops.darker(green, blue))
    white = lightest_min.point(lambda v: 255 if v >= NEAR_WHITE else 0)
    opaque = alpha.point(lambda v: 255 if v >= OPAQUE_ALPHA else 0)
    return ImageChops.multiply(white, opaque)
