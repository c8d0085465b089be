"""Brand colours of an SVG file: the paints its drawn elements use, as a browser shows it,
at most 8 `#RRGGBB` codes, upper case, biggest area first (rasters: test_raster_colors.py)."""

import pytest
import resvg_py

from directory.colors.extraction import MAX_COLORS, ColorError, extract_colors
from tests.factories import png_bytes, svg_bytes

RED = "#C8102E"
BLUE = "#003DA5"
GOLD = "#FFC72C"
GREEN = "#00843D"
PINK = "#E38796"  # halfway between RED and white


def svg(body: str, width: int = 200, height: int = 100) -> bytes:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">{body}</svg>'
    ).encode()


def svg_colors(body: str, **size: int) -> list[str]:
    return extract_colors(svg(body, **size), "SVG")


# As Illustrator exports it: classes in a <style>, a gradient, a white cut-out, a
# stroked frame, and a wordmark group painted with currentColor.
ILLUSTRATOR_LOGO = svg(
    "<defs><style>.cls-1{fill:#c8102e;}.cls-2{fill:url(#linear-gradient);}"
    ".cls-3{fill:#fff;}.cls-4{fill:none;stroke:#003da5;stroke-miterlimit:10;stroke-width:4px;}"
    "</style>"
    '<linearGradient id="linear-gradient" x1="0" y1="0" x2="1" y2="0">'
    '<stop offset="0" stop-color="#ffc72c"/><stop offset="1" stop-color="#f7a800"/>'
    "</linearGradient></defs><title>Acme</title>"
    '<rect class="cls-1" width="200" height="100"/>'
    '<circle class="cls-2" cx="50" cy="50" r="30"/>'
    '<path class="cls-3" d="M100 20h80v60h-80z"/>'
    '<g color="#1d2733" fill="currentColor"><path d="M110 30h60v10h-60zM110 50h40v10h-40z"/></g>'
    '<rect class="cls-4" x="6" y="6" width="188" height="88"/>'
)


def test_it_reads_an_illustrator_style_logo():
    assert extract_colors(ILLUSTRATOR_LOGO, "SVG") == [
        RED,  # the field
        "#FFFFFF",  # the cut-out, less the wordmark
        BLUE,  # the frame
        GOLD,  # the gradient's first half
        "#F7A800",  # and its second
        "#1D2733",  # the wordmark
    ]


def test_it_reads_the_fill_of_the_factory_logo():
    assert extract_colors(svg_bytes(RED), "SVG") == [RED]


def test_it_reads_fills_and_strokes():
    body = (
        f'<rect x="20" y="20" width="160" height="60" fill="{RED}" '
        f'stroke="{BLUE}" stroke-width="4"/>'
    )

    assert svg_colors(body) == [RED, BLUE]


def test_it_lets_the_style_attribute_win_over_the_presentation_attribute():
    body = f'<rect width="200" height="100" fill="{RED}" style="fill: {BLUE}"/>'

    assert svg_colors(body) == [BLUE]


def test_it_applies_style_rules_by_type_class_and_id():
    body = (
        f"<style>rect {{ fill: {RED} }} .accent {{ fill: {BLUE} }} #dot {{ fill: {GOLD} }}"
        "</style>"
        '<rect width="200" height="60"/>'
        '<rect class="accent" y="60" width="200" height="30"/>'
        '<circle id="dot" class="accent" cx="100" cy="95" r="4"/>'
    )

    assert svg_colors(body) == [RED, BLUE, GOLD]


def test_it_ranks_style_sources_like_a_browser():
    # attribute < type rule < class rule < id rule < style attribute < !important rule;
    # each rect is narrower than the one before, so the list follows the document.
    body = (
        "<style>rect { fill: #111111 } .c { fill: #222222 } #i { fill: #333333 }"
        ".imp { fill: #444444 !important }</style>"
        '<rect width="60" height="100" fill="#000001"/>'
        '<rect class="c" x="60" width="50" height="100"/>'
        '<rect id="i" class="c" x="110" width="40" height="100"/>'
        '<rect class="c" x="150" width="30" height="100" style="fill: #555555"/>'
        '<rect class="imp" x="180" width="20" height="100" style="fill: #666666"/>'
    )

    assert svg_colors(body) == ["#111111", "#222222", "#333333", "#555555", "#444444"]


def test_it_matches_comma_lists_universal_and_descendant_selectors():
    body = (
        "<style>* { stroke: none } .a, .b { fill: #0000FF } g > .c { fill: #00FF00 }"
        "svg .d { fill: #FF0000 }</style>"
        '<rect class="a" width="100" height="50"/>'
        '<rect class="b" y="50" width="50" height="50"/>'
        '<g><rect class="c" x="100" width="60" height="60"/></g>'
        '<rect class="d" x="160" width="20" height="20"/>'
    )

    assert svg_colors(body) == ["#0000FF", "#00FF00", "#FF0000"]


def test_it_matches_selectors_as_a_browser_shows_the_logo_at_rest_on_a_screen():
    # Attribute selectors and sibling combinators apply; a state (:hover) and another
    # medium (@media print) never do.
    body = (
        "<style>rect:hover { fill: #FF0000 } @media print { rect { fill: #FFFF00 } }"
        "[data-x] { fill: #00FF00 } .a + .b { fill: #0000FF }</style>"
        f'<rect data-x="1" width="200" height="60" fill="{RED}"/>'
        f'<rect class="a" y="60" width="100" height="40" fill="{RED}"/>'
        f'<rect class="b" x="100" y="60" width="60" height="40" fill="{RED}"/>'
    )

    assert svg_colors(body) == ["#00FF00", RED, "#0000FF"]


def test_it_reads_stylesheets_with_comments_and_at_rules():
    body = (
        '<style><![CDATA[<!-- @charset "utf-8"; @import url(x.css);'
        f"/* .a {{ fill: #00FF00 }} */ .a {{ fill: {RED}; stroke: {BLUE} }} -->]]></style>"
        '<rect class="a" x="10" y="10" width="180" height="80" stroke-width="6"/>'
    )

    assert svg_colors(body) == [RED, BLUE]


def test_it_inherits_paint_from_a_group_and_lets_children_override_it():
    body = (
        f'<g fill="{RED}" stroke="{BLUE}" stroke-width="2">'
        '<rect x="10" y="10" width="120" height="80"/>'
        f'<circle cx="170" cy="50" r="20" fill="{GOLD}" stroke="none"/>'
        "</g>"
    )

    assert svg_colors(body) == [RED, GOLD, BLUE]


def test_it_resolves_current_color_to_the_inherited_color():
    body = (
        f'<g color="{GREEN}"><rect width="150" height="100" fill="currentColor"/>'
        f'<circle cx="175" cy="50" r="20" style="color: {GOLD}; fill: currentcolor"/></g>'
    )

    assert svg_colors(body) == [GREEN, GOLD]


def test_it_inherits_color_itself_through_current_color():
    body = (
        f'<g color="{GREEN}"><g color="currentColor">'
        '<rect width="200" height="100" fill="currentColor"/></g></g>'
    )

    assert svg_colors(body) == [GREEN]


def test_it_paints_undeclared_fills_black_like_a_browser():
    assert svg_colors('<rect width="200" height="100"/>') == ["#000000"]


def test_it_reads_gradient_stops_through_url_references_and_href_chains():
    body = (
        "<defs>"
        f'<linearGradient id="base"><stop offset="0" stop-color="{RED}"/>'
        f'<stop offset="1" style="stop-color: {GOLD}"/></linearGradient>'
        '<linearGradient id="alias" xlink:href="#base" x2="0" y2="1"/>'
        '<radialGradient id="fade"><stop offset="0" stop-color="#00FF00"/>'
        '<stop offset="1" stop-color="#0000FF" stop-opacity="0"/></radialGradient>'
        "</defs>"
        '<rect width="150" height="100" fill="url(#alias)"/>'
        '<circle cx="175" cy="50" r="20" fill="url(\'#fade\')"/>'
    )

    assert svg_colors(body) == [RED, GOLD, "#00FF00"]


def test_it_styles_gradient_stops_with_rules_and_current_color():
    body = (
        f"<style>.start {{ stop-color: {BLUE} }}</style>"
        f'<linearGradient id="g" color="{GOLD}"><stop class="start" offset="0"/>'
        '<stop offset="0.3" stop-color="currentColor"/></linearGradient>'
        '<rect width="200" height="100" fill="url(#g)"/>'
    )

    assert svg_colors(body) == [GOLD, BLUE]


def test_it_gives_a_gradient_blend_to_its_stops_not_to_a_colour_that_happens_to_lie_between():
    # Orange sits between the gradient's red and yellow: the blend must not count for it.
    body = (
        '<linearGradient id="g"><stop offset="0" stop-color="#FF0000"/>'
        '<stop offset="1" stop-color="#FFFF00"/></linearGradient>'
        '<rect width="200" height="90" fill="url(#g)"/>'
        '<rect y="90" width="30" height="10" fill="#FF8000"/>'
    )

    assert svg_colors(body) == ["#FF0000", "#FFFF00", "#FF8000"]


def test_it_uses_the_fallback_of_a_reference_to_nothing():
    body = f'<rect width="200" height="100" fill="url(#missing) {BLUE}"/>'

    assert svg_colors(body) == [BLUE]


def test_it_normalises_named_short_hex_and_functional_colours_to_upper_case():
    body = (
        '<rect width="60" height="100" fill="Teal"/>'
        '<rect x="60" width="50" height="100" fill="#aBc"/>'
        '<rect x="110" width="40" height="100" fill="rgb(10, 20, 30)"/>'
        '<rect x="150" width="30" height="100" fill="rgba(200, 16, 46, 0.5)"/>'
        '<rect x="180" width="20" height="100" fill="hsl(120, 100%, 25%)"/>'
    )

    # The half-transparent red counts for half its area, so it comes after the green.
    assert svg_colors(body) == ["#008080", "#AABBCC", "#0A141E", "#008000", RED]


def test_it_reads_the_modern_css_colour_syntax_too():
    # resvg draws these two black, so area cannot rank them: they are found all the same.
    body = (
        '<rect width="100" height="100" fill="rgb(200 16 46 / 50%)"/>'
        '<rect x="100" width="100" height="100" fill="rebeccapurple"/>'
    )

    assert sorted(svg_colors(body)) == ["#663399", RED]


def test_it_ignores_paint_that_draws_nothing():
    body = (
        f'<rect width="200" height="100" fill="{RED}"/>'
        '<rect width="10" height="10" fill="none" stroke="transparent"/>'
        '<rect width="10" height="10" fill="#00FF00" fill-opacity="0"/>'
        '<rect width="10" height="10" fill="rgba(0, 0, 255, 0)"/>'
        '<rect width="10" height="10" fill="#FFFF0000"/>'
        '<rect width="10" height="10" fill="none" stroke="#00FFFF" stroke-opacity="0"/>'
        '<rect width="10" height="10" fill="none" stroke="#FF00FF" stroke-width="0"/>'
        '<g opacity="0"><rect width="10" height="10" fill="#123456"/></g>'
        '<g style="display: none"><rect width="10" height="10" fill="#654321"/></g>'
    )

    assert svg_colors(body) == [RED]


def test_it_never_weighs_a_local_file_an_image_names(tmp_path):
    # A red local picture over most of the canvas would rank the small red rect first.
    secret = tmp_path / "secret.png"
    secret.write_bytes(png_bytes(color=(200, 16, 46, 255), size=(120, 100)))
    body = (
        f'<rect width="20" height="100" fill="{RED}"/>'
        f'<rect x="20" width="60" height="100" fill="{BLUE}"/>'
        f'<image href="{secret}" x="80" width="120" height="100"/>'
    )

    assert svg_colors(body) == [BLUE, RED]


def test_it_lets_an_invalid_colour_fall_back_to_what_the_element_would_otherwise_get():
    body = (
        f'<g fill="{RED}"><rect width="150" height="100" fill="not-a-colour"/></g>'
        f'<rect x="150" width="50" height="100" fill="{BLUE}" style="fill: #12"/>'
    )

    assert svg_colors(body) == [RED, BLUE]


def test_it_counts_nothing_that_is_only_defined():
    body = (
        '<defs><rect id="r" width="200" height="100" fill="#FF0000"/></defs>'
        '<clipPath id="c"><rect width="10" height="10" fill="#00FF00"/></clipPath>'
        '<mask id="m"><rect width="10" height="10" fill="#FFFFFF"/></mask>'
        '<symbol id="s"><rect width="10" height="10" fill="#0000FF"/></symbol>'
        '<linearGradient id="unused"><stop stop-color="#FFFF00"/></linearGradient>'
        f'<rect width="200" height="100" fill="{RED}" clip-path="url(#c)"/>'
    )

    assert svg_colors(body) == [RED]


def test_it_counts_what_use_draws_with_the_paint_of_the_use():
    body = (
        '<defs><symbol id="mark"><rect width="150" height="100"/></symbol>'
        f'<circle id="dot" cx="175" cy="50" r="20" fill="{GOLD}"/></defs>'
        f'<use href="#mark" fill="{BLUE}"/><use xlink:href="#dot"/>'
    )

    assert svg_colors(body) == [BLUE, GOLD]


def test_it_stops_at_a_use_that_refers_to_its_own_group():
    body = f'<g id="loop" fill="{RED}"><rect width="200" height="100"/><use href="#loop"/></g>'

    assert svg_colors(body) == [RED]


def test_it_ranks_a_use_bomb_by_counts_without_drawing_it(monkeypatch):
    rendered = []
    monkeypatch.setattr(resvg_py, "svg_to_bytes", lambda **kwargs: rendered.append(1))
    defs = f'<rect id="l0" width="1" height="1" fill="{RED}"/>'
    for level in range(1, 6):  # 10**5 rectangles once expanded
        defs += f'<g id="l{level}">' + f'<use href="#l{level - 1}"/>' * 10 + "</g>"
    body = f'<rect width="200" height="100" fill="{BLUE}"/><defs>{defs}</defs><use href="#l5"/>'

    assert svg_colors(body) == [RED, BLUE]
    assert rendered == []


def test_it_returns_nothing_when_nothing_is_drawn():
    assert svg_colors("") == []
    assert svg_colors('<rect width="200" height="100" fill="none"/>') == []


# --- SVG: ordering by drawn area ------------------------------------------------------


@pytest.mark.parametrize("circle_first", [True, False])
def test_it_puts_the_biggest_area_first_whatever_the_document_order(circle_first):
    rect = f'<rect width="150" height="100" fill="{BLUE}"/>'
    circle = f'<circle cx="175" cy="50" r="10" fill="{RED}"/>'

    body = circle + rect if circle_first else rect + circle

    assert svg_colors(body) == [BLUE, RED]


def test_it_ranks_a_tall_svg_as_well():
    body = (
        f'<rect width="100" height="300" fill="{BLUE}"/>'
        f'<rect y="300" width="100" height="100" fill="{RED}"/>'
    )

    assert svg_colors(body, width=100, height=400) == [BLUE, RED]


def test_it_counts_only_what_remains_visible_on_top():
    body = (
        f'<rect width="200" height="100" fill="{BLUE}"/>'
        f'<rect x="10" y="10" width="180" height="80" fill="{RED}"/>'
    )

    assert svg_colors(body) == [RED, BLUE]


def test_it_keeps_declared_colours_that_cover_nothing_after_the_drawn_ones():
    # Off the canvas and hidden behind: still paints the author chose, so they come last,
    # the more often used first.
    body = (
        '<rect x="500" width="10" height="10" fill="#00FF00"/>'
        '<rect width="10" height="10" fill="#FF00FF"/>'
        '<rect x="600" width="10" height="10" fill="#FF00FF"/>'
        f'<rect width="150" height="100" fill="{BLUE}"/>'
        f'<rect x="150" width="50" height="100" fill="{RED}"/>'
    )

    assert svg_colors(body) == [BLUE, RED, "#FF00FF", "#00FF00"]


def test_it_puts_a_white_backdrop_after_the_artwork():
    body = (
        '<rect width="200" height="100" fill="#FFFFFF"/>'
        f'<rect x="40" y="20" width="120" height="60" fill="{RED}"/>'
    )

    assert svg_colors(body) == [RED, "#FFFFFF"]


def test_it_counts_white_artwork_on_a_coloured_field():
    body = (
        f'<rect width="200" height="100" fill="{RED}"/>'
        '<rect x="40" y="20" width="120" height="60" fill="white"/>'
    )

    assert svg_colors(body) == [RED, "#FFFFFF"]


def test_it_returns_at_most_eight_colours_biggest_first():
    codes = [f"#{value:02X}{value:02X}{255 - value:02X}" for value in range(0, 250, 25)]
    body, x = "", 0
    for width, code in zip(range(10, 0, -1), reversed(codes), strict=True):
        body += f'<rect x="{x}" width="{width * 3}" height="100" fill="{code}"/>'
        x += width * 3

    assert len(codes) == 10
    assert svg_colors(body) == list(reversed(codes))[:MAX_COLORS]


def test_it_lists_near_identical_declared_colours_once_under_the_more_used_code():
    # Rounding twins from an export (one unit apart): one brand colour, not two.
    body = (
        '<rect width="120" height="100" fill="#E33B26"/>'
        '<rect x="120" width="50" height="100" fill="#E23A26"/>'
        f'<rect x="170" width="30" height="100" fill="{BLUE}"/>'
    )

    assert svg_colors(body) == ["#E33B26", BLUE]


def test_it_falls_back_to_how_often_each_colour_is_used_when_it_cannot_render(monkeypatch):
    class Panic(BaseException):  # what a panic inside resvg surfaces as
        pass

    def panic(**kwargs):
        raise Panic("boom")

    monkeypatch.setattr(resvg_py, "svg_to_bytes", panic)
    body = (
        f'<rect width="200" height="100" fill="{BLUE}"/>'
        f'<rect width="10" height="10" fill="{RED}"/>'
        f'<circle r="3" fill="{RED}" stroke="{GOLD}"/>'
    )

    assert svg_colors(body) == [RED, BLUE, GOLD]


# --- SVG: unsafe or unreadable ----------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"<svg xmlns='http://www.w3.org/2000/svg'><rect",
        b"not xml at all",
        b'<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
    ],
)
def test_it_refuses_a_malformed_svg(data):
    with pytest.raises(ColorError):
        extract_colors(data, "SVG")


@pytest.mark.parametrize(
    "data",
    [
        b'<!DOCTYPE svg [<!ENTITY red "#FF0000">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg"><rect fill="&red;"/></svg>',
        b'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg"><rect fill="&x;"/></svg>',
        b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
        b'"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'
        b'<svg xmlns="http://www.w3.org/2000/svg"><rect fill="red"/></svg>',
    ],
)
def test_it_refuses_an_svg_with_a_dtd_and_never_expands_its_entities(data):
    with pytest.raises(ColorError):
        extract_colors(data, "SVG")


def test_it_refuses_an_svg_nested_too_deeply_to_walk():
    body = "<g>" * 5000 + '<rect width="10" height="10"/>' + "</g>" * 5000

    with pytest.raises(ColorError):
        svg_colors(body)
