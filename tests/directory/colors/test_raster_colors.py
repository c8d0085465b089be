"""Brand colours of a raster file (PNG, JPEG...): at most 8 `#RRGGBB` codes, upper case,
most used first, and the files colours are not read from (SVG: test_svg_colors.py)."""

import io
import struct
import zlib

import pytest
from PIL import Image, ImageDraw

from directory.colors.extraction import MAX_COLORS, ColorError, extract_colors
from tests.factories import PDF_BYTES, png_bytes

RED = "#C8102E"
BLUE = "#003DA5"
GOLD = "#FFC72C"
GREEN = "#00843D"
PINK = "#E38796"  # halfway between RED and white


def rgb(code: str) -> tuple[int, int, int]:
    return int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16)


def raster(
    boxes: list[tuple[tuple[int, int, int, int], tuple[int, ...]]],
    background: tuple[int, ...] = (0, 0, 0, 0),
    size: tuple[int, int] = (200, 100),
    image_format: str = "PNG",
    **options,
) -> bytes:
    """An image of filled rectangles (x0, y0, x1, y1) over a background."""
    mode = "RGBA" if image_format == "PNG" else "RGB"
    image = Image.new(mode, size, background[: len(mode)])
    draw = ImageDraw.Draw(image)
    for box, fill in boxes:
        draw.rectangle(box, fill=fill[: len(mode)])
    out = io.BytesIO()
    image.save(out, format=image_format, **options)
    return out.getvalue()


def rgba(code: str, alpha: int = 255) -> tuple[int, int, int, int]:
    return (*rgb(code), alpha)


@pytest.mark.parametrize("file_format", ["PDF", "AI", "EPS", "ZIP"])
def test_it_refuses_formats_it_cannot_read_colours_from(file_format):
    with pytest.raises(ColorError):
        extract_colors(PDF_BYTES, file_format)


# --- rasters ------------------------------------------------------------------------------


def test_it_reads_the_colour_of_the_factory_png():
    assert extract_colors(png_bytes((200, 16, 46, 255)), "PNG") == [RED]


def test_it_ignores_transparent_and_mostly_transparent_pixels_of_a_png():
    data = raster(
        [
            ((0, 0, 119, 99), rgba(BLUE)),
            ((120, 0, 159, 99), rgba(RED)),
            ((160, 0, 199, 99), rgba(GOLD, alpha=100)),
        ]
    )

    assert extract_colors(data, "PNG") == [BLUE, RED]


def test_it_reads_a_palette_png_with_a_transparent_index():
    image = Image.new("P", (60, 40), 0)
    image.putpalette([0, 0, 0, *rgb(RED)])
    ImageDraw.Draw(image).rectangle((10, 10, 40, 30), fill=1)
    out = io.BytesIO()
    image.save(out, format="PNG", transparency=0)

    assert extract_colors(out.getvalue(), "PNG") == [RED]


def test_it_drops_a_white_background():
    data = raster(
        [((20, 20, 139, 79), rgba(BLUE)), ((150, 20, 179, 79), rgba(RED))],
        background=(255, 255, 255, 255),
    )

    assert extract_colors(data, "PNG") == [BLUE, RED]


def test_it_keeps_a_small_tint_of_a_logo_on_transparency_that_only_white_would_explain():
    # Pink lies halfway between the red and white: on a white background it would be the
    # red's anti-aliased edge, but this logo has no white background to blend with.
    data = raster(
        [
            ((0, 0, 119, 99), rgba(RED)),
            ((120, 0, 193, 99), rgba(BLUE)),
            ((194, 0, 199, 99), rgba(PINK)),
        ]
    )

    assert extract_colors(data, "PNG") == [RED, BLUE, PINK]


def test_it_keeps_white_artwork_on_a_coloured_field():
    # The border is red, so there is no white background: white is part of the logo.
    data = raster([((40, 20, 159, 79), (255, 255, 255, 255))], background=rgba(RED))

    assert extract_colors(data, "PNG") == [RED, "#FFFFFF"]


def test_it_returns_the_exact_colours_of_an_anti_aliased_logo():
    big = Image.new("RGBA", (800, 400), (255, 255, 255, 0))
    draw = ImageDraw.Draw(big)
    draw.ellipse((20, 20, 380, 380), fill=rgba(RED))
    draw.ellipse((460, 100, 660, 300), fill=rgba(BLUE))
    small = big.resize((200, 100), Image.Resampling.LANCZOS)  # soft, blended edges
    out = io.BytesIO()
    small.save(out, format="PNG")

    assert extract_colors(out.getvalue(), "PNG") == [RED, BLUE]


def test_it_drops_specks_under_one_percent_of_the_logo():
    data = raster([((0, 0, 199, 99), rgba(RED)), ((0, 0, 5, 5), rgba(BLUE))])

    assert extract_colors(data, "PNG") == [RED]


def test_it_returns_at_most_eight_raster_colours_biggest_first():
    codes = [f"#{v:02X}{(v * 7) % 256:02X}{255 - v:02X}" for v in range(0, 250, 25)]
    boxes, x = [], 0
    for width, code in zip(range(30, 10, -2), codes, strict=True):
        boxes.append(((x, 0, x + width - 1, 99), rgba(code)))
        x += width

    assert extract_colors(raster(boxes, size=(x, 100)), "PNG") == codes[:MAX_COLORS]


def test_it_reads_a_jpeg_on_white_close_to_its_colours():
    data = raster(
        [((20, 10, 139, 89), rgba(BLUE)), ((150, 10, 189, 89), rgba(RED))],
        background=(255, 255, 255, 255),
        image_format="JPEG",
        quality=95,
    )

    found = extract_colors(data, "JPEG")

    # JPEG is lossy: the codes come back within a few units per channel.
    assert len(found) == 2
    for code, expected in zip(found, [BLUE, RED], strict=True):
        assert max(abs(a - b) for a, b in zip(rgb(code), rgb(expected), strict=True)) <= 6
        assert code == code.upper() and len(code) == 7


def test_it_detects_the_raster_format_from_the_bytes():
    jpeg = raster([], background=rgba(GREEN), image_format="JPEG", quality=95)
    webp = raster([], background=rgba(GREEN), image_format="WEBP", lossless=True)

    assert len(extract_colors(jpeg, "PNG")) == 1
    assert extract_colors(webp, "WEBP") == [GREEN]


def test_it_returns_nothing_for_a_blank_raster():
    assert extract_colors(raster([]), "PNG") == []
    assert extract_colors(raster([], background=(255, 255, 255, 255)), "PNG") == []


@pytest.mark.parametrize("data", [b"", b"\x89PNG\r\n\x1a\nbroken", b"<svg/>", PDF_BYTES])
def test_it_refuses_an_unreadable_raster(data):
    with pytest.raises(ColorError):
        extract_colors(data, "PNG")


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims the given size (what a decompression bomb does)."""
    data = png_bytes(size=(1, 1))
    header = b"IHDR" + struct.pack(">II", width, height) + data[24:29]
    return data[:12] + header + struct.pack(">I", zlib.crc32(header)) + data[33:]


@pytest.mark.parametrize("size", [(7000, 7000), (20000, 20000)])
def test_it_refuses_a_decompression_bomb(size):
    with pytest.raises(ColorError):
        extract_colors(png_claiming(*size), "PNG")
