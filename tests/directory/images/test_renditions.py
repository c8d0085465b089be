"""How the Logo Link draws: contrast, the dark theme's measure, monograms, encodings."""

import io

import pytest
from PIL import Image

from directory.colors.contrast import backdrop, contrast_ratio, readable_share
from directory.images.renditions import (
    DARK_BACKGROUND,
    INK,
    PILLOW_FONT,
    WHITE,
    carries_backdrop,
    domain_letter,
    encode,
    initials,
    monogram,
    monogram_font_id,
    name_colour,
    silhouette,
)


def test_it_measures_contrast_as_wcag_does():
    assert contrast_ratio((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast_ratio((0x77, 0x77, 0x77), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio((200, 16, 46), DARK_BACKGROUND) == pytest.approx(3.18, abs=0.01)


def _logo(colours: list[tuple], *, plate=None, size=(40, 20)) -> Image.Image:
    """Vertical stripes of colours on transparency, or on an opaque plate."""
    image = Image.new("RGBA", size, (*plate, 255) if plate else (0, 0, 0, 0))
    stripe = (size[0] - 8) // len(colours)
    for index, colour in enumerate(colours):
        left = 4 + index * stripe
        image.paste((*colour, 255), (left, 4, left + stripe, size[1] - 4))
    return image


def test_it_scores_the_share_of_a_logo_that_reads_on_dark():
    red, navy, white = (200, 16, 46), (0, 56, 101), (255, 255, 255)

    assert readable_share(_logo([red]), DARK_BACKGROUND) == 1.0
    assert readable_share(_logo([navy]), DARK_BACKGROUND) == 0.0
    assert readable_share(_logo([white, navy]), DARK_BACKGROUND) == 0.5


def test_it_reads_a_negative_against_its_own_dark_plate():
    plate = (18, 20, 23)
    negative = _logo([(255, 255, 255), (201, 206, 214)], plate=plate)

    assert backdrop(negative) == plate
    assert readable_share(negative, DARK_BACKGROUND) == 1.0
    assert carries_backdrop(negative)


def test_it_gives_nothing_for_a_logo_boxed_in_white_on_dark():
    boxed = _logo([(0, 56, 101)], plate=(255, 255, 255))

    assert readable_share(boxed, DARK_BACKGROUND) == 0.0
    assert carries_backdrop(boxed)


def test_it_takes_a_full_bleed_coloured_logo_as_artwork():
    badge = Image.new("RGBA", (20, 20), (255, 209, 0, 255))

    assert readable_share(badge, DARK_BACKGROUND) == 1.0
    assert not carries_backdrop(badge)


def test_it_draws_a_silhouette_in_white_keeping_the_shape():
    drawn = silhouette(_logo([(0, 56, 101)]))

    assert drawn.getpixel((10, 10)) == (255, 255, 255, 255)
    assert drawn.getpixel((1, 1))[3] == 0


@pytest.mark.parametrize(
    ("name", "letters"),
    [
        ("Acme", "A"),
        ("Banco Ñandú", "BÑ"),
        ("Café Sol", "CS"),
        ("Banco de España", "BE"),
        ("Acme, S.A.", "A"),
        ("Área de Servicios", "ÁS"),
        ("3M España", "3E"),
        ("Y", "Y"),
    ],
)
def test_it_takes_the_initials_of_the_significant_words(name, letters):
    assert initials(name) == letters


def test_it_reads_a_domains_first_letter_as_people_read_it():
    assert domain_letter("acme.es") == "A"
    assert domain_letter("xn--espaa-rta.es") == "E"


def test_it_derives_the_same_colour_from_the_same_name():
    assert name_colour("Acme") == name_colour("ACME") != name_colour("Bravo")


@pytest.mark.parametrize("background", [(255, 255, 255), (0, 0, 0), (250, 220, 0), (0, 56, 101)])
def test_it_writes_a_monogram_in_the_colour_that_contrasts_most(background):
    drawn = monogram("AB", background, 64)

    colours = {rgb for _, rgb in drawn.convert("RGB").getcolors()}
    ink = WHITE if WHITE in colours and background != WHITE else INK
    assert ink in colours
    assert contrast_ratio(ink, background) >= 4.5


def test_it_encodes_the_same_image_to_the_same_bytes():
    logo = _logo([(200, 16, 46)])

    for image_format in ("png", "webp"):
        data = encode(logo, image_format)
        assert data == encode(logo, image_format)
        assert Image.open(io.BytesIO(data)).format == image_format.upper()


def test_it_letters_monograms_in_dejavu_sans_bold():
    assert monogram_font_id() != PILLOW_FONT
    # The tilde is drawn: Ñ is not N.
    assert monogram("Ñ", (0, 56, 101), 64).tobytes() != monogram("N", (0, 56, 101), 64).tobytes()


def test_it_falls_back_to_pillows_font_without_accents_and_says_so(settings, caplog):
    settings.MONOGRAM_FONT = "/nonexistent/DejaVuSans-Bold.ttf"

    with caplog.at_level("WARNING", logger="directory.images.renditions"):
        assert monogram_font_id() == PILLOW_FONT
        drawn = monogram("Ñ", (0, 56, 101), 64)

    assert drawn.tobytes() == monogram("N", (0, 56, 101), 64).tobytes()
    assert "fall back to Pillow's font" in caplog.text


def test_it_takes_a_dark_shape_of_one_colour_as_the_logo_not_as_a_plate():
    dark_square = Image.new("RGBA", (20, 20), (29, 39, 51, 255))

    assert readable_share(dark_square, DARK_BACKGROUND) == 0.0
    assert not carries_backdrop(dark_square)  # so the dark theme draws it in white
