"""The pictures of the Logo Link (GET /v1/public/img/{identifier}): drawn with Pillow,
an SVG rasterised by resvg from its sanitised copy only (directory.files.previews.svg_png).

Everything here is bytes in, bytes out, and the same bytes for the same input: the
address's ETag is a digest of the input (directory/images/logolink.py), which therefore names
the font too (monogram_font_id).

The monogram's letters are DejaVu Sans Bold from Debian's fonts-dejavu-core (the scripts
and the Dockerfile install it; MONOGRAM_FONT names another file). The font inside
Pillow's wheel (Aileron Regular, through ImageFont.load_default) needs no package, but it
covers ASCII only: the Ñ of Ñandú and the Á of Área come out as crossed boxes, and a
Spanish directory's initials need them; and a bold face reads better at 16 to 32 pixels.
Without the file, monograms fall back to Pillow's font, letters stripped of their accents
(N, A), and say so in the log once.
"""

import colorsys
import hashlib
import io
import logging
import re
import unicodedata
from functools import cache, lru_cache

import idna
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from PIL import Image, ImageDraw, ImageFont, ImageOps

from directory.catalogue.models import FileFormat
from directory.colors.color_values import RGB
from directory.colors.contrast import contrast_ratio, plate, readable_share
from directory.files.previews import PreviewError, open_png, svg_png

# The page a dark theme means. Dark modes run from #000000 to about #2A2A2A; this is the
# usual one (Material's dark surface), and a logo that reads on it reads on the others.
DARK_BACKGROUND: RGB = (0x12, 0x12, 0x12)
# How large a logo is drawn to measure its colours: enough for their areas.
MEASURE_PX = 64
WHITE: RGB = (255, 255, 255)
INK: RGB = (0x11, 0x11, 0x11)
# Words a monogram skips: articles, conjunctions and prepositions of company names.
MINOR_WORDS = frozenset(
    {"de", "del", "la", "las", "el", "los", "y", "e", "i", "o", "en", "the", "of", "and"}
)
CONTENT_TYPES = {"png": "image/png", "webp": "image/webp"}


logger = logging.getLogger(__name__)


class DrawError(Exception):
    """A logo file that cannot be drawn (broken, unsafe, or not a drawable format)."""


def rasterise(data: bytes, file_format: str, longest: int) -> Image.Image:
    """A logo file as an RGBA image whose longer side is `longest` pixels: an SVG drawn
    from its sanitised copy at that size, a PNG decoded (bombs refused) and resampled."""
    try:
        if file_format == FileFormat.SVG:
            image = Image.open(io.BytesIO(svg_png(data, longest)), formats=["PNG"])
            image.load()
        elif file_format == FileFormat.PNG:
            image = open_png(data)
        else:
            raise DrawError(f"{file_format} files are not drawn")
    except (PreviewError, OSError, SyntaxError) as exc:
        raise DrawError(str(exc)) from exc
    return _fit(image.convert("RGBA"), longest)


def _fit(image: Image.Image, longest: int) -> Image.Image:
    """Scaled, in proportion, so that the longer side is exactly `longest`."""
    width, height = image.size
    if max(width, height) == longest:
        return image
    scale = longest / max(width, height)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)


def dark_score(data: bytes, file_format: str) -> float:
    """How well a logo file reads on the dark theme's background (contrast.readable_share)."""
    return readable_share(rasterise(data, file_format, MEASURE_PX), DARK_BACKGROUND)


def carries_backdrop(image: Image.Image) -> bool:
    """Whether a logo sits on an opaque plate of its own (contrast.plate): a near-white one,
    or one as dark as the dark theme's page. Drawn in white, it would be a white box."""
    return plate(image, DARK_BACKGROUND) is not None


def silhouette(image: Image.Image) -> Image.Image:
    """The logo in one colour, white, keeping its shape (its opacity)."""
    white = Image.new("RGBA", image.size, (*WHITE, 0))
    white.putalpha(image.getchannel("A"))
    return white


def square(image: Image.Image, size: int) -> Image.Image:
    """The image centred on a transparent size x size square."""
    if image.size == (size, size):
        return image
    canvas = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    canvas.paste(image, ((size - image.width) // 2, (size - image.height) // 2))
    return canvas


def transparent(size: int) -> Image.Image:
    return Image.new("RGBA", (size, size), (0, 0, 0, 0))


def monogram(text: str, background: RGB, size: int) -> Image.Image:
    """A square of `background` with `text` (one or two letters) in white or in near
    black, whichever contrasts more with it (at least 4.5:1 for any background)."""
    image = Image.new("RGBA", (size, size), (*background, 255))
    ink = WHITE if contrast_ratio(WHITE, background) >= contrast_ratio(INK, background) else INK
    font = _font(max(6, round(size * (0.56 if len(text) == 1 else 0.44))))
    if monogram_font_id() == PILLOW_FONT:
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode() or "?"
    ImageDraw.Draw(image).text((size / 2, size / 2), text, fill=ink, font=font, anchor="mm")
    return image


PILLOW_FONT = "pillow-default"


@cache
def monogram_font_id() -> str:
    """Which font monograms are drawn with: a digest of the MONOGRAM_FONT file, or
    PILLOW_FONT when it cannot be read."""
    try:
        with open(settings.MONOGRAM_FONT, "rb") as font:
            return hashlib.sha256(font.read()).hexdigest()[:16]
    except OSError as exc:
        logger.warning("monograms fall back to Pillow's font (ASCII only): %s", exc)
        return PILLOW_FONT


@lru_cache(maxsize=64)
def _font(pixels: int) -> ImageFont.FreeTypeFont:
    if monogram_font_id() == PILLOW_FONT:
        return ImageFont.load_default(size=pixels)
    return ImageFont.truetype(settings.MONOGRAM_FONT, pixels)


@receiver(setting_changed)
def _font_changed(setting: str, **kwargs) -> None:
    if setting == "MONOGRAM_FONT":
        monogram_font_id.cache_clear()
        _font.cache_clear()


def initials(name: str) -> str:
    """One or two letters for a monogram: the first letters of the first two words of a
    name that are neither minor words (de, la, y...) nor single letters (S.A.)."""
    words = re.findall(r"[^\W_]+", name)
    significant = [w for w in words if len(w) > 1 and w.casefold() not in MINOR_WORDS]
    chosen = significant[:2] or words[:1]
    return "".join(word[0] for word in chosen).upper() or "?"


def domain_letter(domain: str) -> str:
    """The first letter of a domain as people read it (xn--espaa-rta.es: E)."""
    try:
        readable = idna.decode(domain)
    except (idna.IDNAError, UnicodeError):
        readable = domain
    return initials(readable.split(".")[0])[:1]


def name_colour(name: str) -> RGB:
    """A colour of a name's own, the same every time: its hue from a digest of the name,
    saturation and lightness fixed so that every hue is a deep, even tone."""
    digest = hashlib.sha256(name.casefold().encode()).digest()
    hue = int.from_bytes(digest[:2], "big") % 360
    red, green, blue = colorsys.hls_to_rgb(hue / 360, 0.42, 0.55)
    return round(red * 255), round(green * 255), round(blue * 255)


def finish(image: Image.Image, *, greyscale: bool) -> Image.Image:
    if greyscale:
        # ITU-R 601-2 luma, the opacity kept.
        grey = ImageOps.grayscale(image.convert("RGB"))
        return Image.merge("LA", (grey, image.getchannel("A")))
    return image


def encode(image: Image.Image, image_format: str) -> bytes:
    out = io.BytesIO()
    if image_format == "webp":
        # Lossless: flat brand colours and sharp edges stay exact, and it is smaller than
        # the PNG. method 4 is the encoder's default effort.
        image.convert("RGBA").save(out, format="WEBP", lossless=True, quality=80, method=4)
    else:
        image.save(out, format="PNG", compress_level=9)
    return out.getvalue()
