import io

import pytest
from PIL import Image

from directory.files.previews import PreviewError, render_preview
from tests.factories import png_bytes, svg_bytes


def size_of(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_it_draws_an_svg_as_a_png_at_most_512_pixels_wide():
    png = render_preview(svg_bytes(width=200, height=100), "SVG")

    assert png.startswith(b"\x89PNG")
    assert size_of(png) == (512, 256)


def test_it_fits_a_tall_svg_within_512_pixels():
    assert size_of(render_preview(svg_bytes(width=100, height=400), "SVG")) == (128, 512)


def test_it_shrinks_a_big_png_and_keeps_a_small_one():
    assert size_of(render_preview(png_bytes(size=(2000, 1000)), "PNG")) == (512, 256)
    assert size_of(render_preview(png_bytes(size=(64, 32)), "PNG")) == (64, 32)


def test_it_keeps_the_colours():
    png = render_preview(svg_bytes("#C8102E"), "SVG")

    assert Image.open(io.BytesIO(png)).convert("RGB").getpixel((10, 10)) == (200, 16, 46)


def test_it_refuses_a_decompression_bomb():
    header = Image.new("1", (20000, 20000))
    out = io.BytesIO()
    header.save(out, format="PNG")

    with pytest.raises(PreviewError):
        render_preview(out.getvalue(), "PNG")


@pytest.mark.parametrize(("data", "file_format"), [(b"%PDF-1.4", "PDF"), (b"<svg", "SVG")])
def test_it_cannot_preview_other_formats_or_broken_files(data, file_format):
    with pytest.raises(PreviewError):
        render_preview(data, file_format)
