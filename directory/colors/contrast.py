"""How a logo reads on a background: WCAG 2.x relative luminance and contrast ratio, the
plate a logo may sit on, and the share of its artwork that reads.

A logo's colour reads on a background when the two reach 3:1, WCAG's minimum for
graphics (2.1, SC 1.4.11 non-text contrast).
"""

from PIL import Image

from directory.colors.color_values import (
    BACKGROUND_BORDER_SHARE,
    NEAR_WHITE,
    OPAQUE_ALPHA,
    RGB,
    distance2,
)

READABLE_CONTRAST = 3.0
# A backdrop of the logo's own this close to the page's colour blends into the page.
BACKDROP_BLEND = 1.5
# Pixels this close (Euclidean RGB) to a backdrop are the backdrop, not the artwork.
BACKDROP_DISTANCE = 24


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def relative_luminance(rgb: RGB) -> float:
    red, green, blue = (_linear(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: RGB, second: RGB) -> float:
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)))[::-1]
    return (lighter + 0.05) / (darker + 0.05)


def backdrop(image: Image.Image) -> RGB | None:
    """The colour a logo image carries as its own background: the most common colour of
    its border when that colour, opaque, covers more than half of the border. None for
    a logo drawn on transparency."""
    image = image.convert("RGBA")
    width, height = image.size
    strips = [(0, 0, width, 1), (0, height - 1, width, height)]
    strips += [(0, 1, 1, height - 1), (width - 1, 1, width, height - 1)]
    counts: dict[RGB, int] = {}
    total = 0
    for box in strips:
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        strip = image.crop(box)
        for count, (r, g, b, a) in strip.getcolors(strip.width * strip.height) or []:
            total += count
            if a >= OPAQUE_ALPHA:
                counts[(r, g, b)] = counts.get((r, g, b), 0) + count
    if not counts or not total:
        return None
    colour, count = max(counts.items(), key=lambda item: item[1])
    return colour if count / total > BACKGROUND_BORDER_SHARE else None


def is_near_white(rgb: RGB) -> bool:
    return min(rgb) >= NEAR_WHITE


# Of a plate's pixels, at least this share must be artwork of other colours: a shape of
# one colour filling its canvas is the logo itself, not a plate.
PLATE_MIN_ARTWORK = 0.01


def plate(image: Image.Image, background: RGB) -> RGB | None:
    """The plate a logo image sits on, as a page of colour `background` shows it: a
    backdrop (backdrop) that is near white (a light box) or that blends into the
    page (contrast at most BACKDROP_BLEND, like the dark plate of a negative version),
    with artwork of other colours on it. None for a logo on transparency, a backdrop of
    any other colour (a badge's own colour), or a shape of one colour."""
    image = image.convert("RGBA")
    own = backdrop(image)
    if own is None:
        return None
    if not (is_near_white(own) or contrast_ratio(own, background) <= BACKDROP_BLEND):
        return None
    opaque = artwork = 0
    for count, (r, g, b, a) in image.getcolors(image.width * image.height) or []:
        if a:
            opaque += count
            if distance2((r, g, b), own) > BACKDROP_DISTANCE**2:
                artwork += count
    return own if opaque and artwork / opaque >= PLATE_MIN_ARTWORK else None


def readable_share(image: Image.Image, background: RGB) -> float:
    """How well a logo image reads on a page of colour `background`, from 0 to 1: the
    share of its drawn area (pixels weighted by their opacity) whose colour reaches
    READABLE_CONTRAST against what it is seen on.

    A logo is seen on the page, unless it sits on a plate of its own (plate): a
    dark one blends into the page and the artwork is seen on it; a near-white one is a
    light box on a dark page, not a logo for it, and scores 0 however well its artwork
    reads inside the box.
    """
    image = image.convert("RGBA")
    own = plate(image, background)
    if own is not None and is_near_white(own) and not is_near_white(background):
        return 0.0
    reference = own or background
    readable = total = 0
    for count, (r, g, b, a) in image.getcolors(image.width * image.height) or []:
        if a == 0 or (own is not None and distance2((r, g, b), own) <= BACKDROP_DISTANCE**2):
            continue
        weight = count * a
        total += weight
        if contrast_ratio((r, g, b), reference) >= READABLE_CONTRAST:
            readable += weight
    return readable / total if total else 0.0


# WCAG 2.x success criteria 1.4.3 and 1.4.6: text at 4.5:1 (AA) and 7:1 (AAA); large
# text (18 pt, or 14 pt bold) needs 3:1 (AA) and 4.5:1 (AAA).
WCAG_LEVELS = ((7.0, "AAA"), (4.5, "AA"), (3.0, "AA-large"))
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)


def rgb_of(code: str) -> RGB:
    """#RRGGBB as an RGB triple."""
    return (int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16))


def wcag_level(ratio: float) -> str | None:
    """The highest WCAG text level a contrast ratio reaches: AAA, AA, AA-large (large
    text only), or None."""
    return next((level for bar, level in WCAG_LEVELS if ratio >= bar), None)


class Swatch:
    """A colour as the website shows it: its code and how it reads as text on white
    and on black."""

    def __init__(self, code: str) -> None:
        rgb = rgb_of(code)
        self.code = code
        self.on_white = contrast_ratio(rgb, WHITE)
        self.on_black = contrast_ratio(rgb, BLACK)
        self.white_level = wcag_level(self.on_white)
        self.black_level = wcag_level(self.on_black)


def swatches(codes: list[str]) -> list[Swatch]:
    return [Swatch(code) for code in codes]
