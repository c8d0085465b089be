"""The demo catalogue's logos: marks drawn from simple shapes in brand colours, their
horizontal and negative versions, and those drawings as SVG or PNG files.

Every choice comes from the random.Random the catalogue is built with (directory/demo/catalogue.py).
"""

import io
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

WHITE = "#FFFFFF"
# Negative versions sit on this; no brand colour is this dark, so nothing vanishes.
NIGHT = "#121417"
INK = "#1D2733"
GREY = "#8A9099"
# Brand colours by family; a logo takes each of its colours from a different family,
# so its shapes never blur into one another.
COLOUR_FAMILIES = (
    ("#C8102E", "#E4002B", "#A6192E"),  # red
    ("#003865", "#004B87", "#003DA5"),  # navy
    ("#0057B8", "#0093B2", "#00A3E0"),  # blue
    ("#00843D", "#2D6A4F", "#007A53"),  # green
    ("#78BE20", "#97D700"),  # lime
    ("#FFB81C", "#F4C300"),  # yellow
    ("#FF8200", "#E35205"),  # orange
    ("#6D2077", "#512D6D"),  # purple
    ("#00B2A9", "#008C95"),  # teal
    ("#C5B783", "#A39161"),  # sand
    ("#D0006F",),  # magenta
)


# Drawings. Shapes are in units of a 100-high box; a drawing's scale makes them pixels.


@dataclass(frozen=True)
class Shape:
    """rect: x, y, w, h, radius; circle: cx, cy, r; ring: cx, cy, r, width;
    polygon: x1, y1, x2, y2...; wedge: cx, cy, r, start, end (degrees, clockwise)."""

    kind: Literal["rect", "circle", "ring", "polygon", "wedge"]
    colour: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Drawing:
    format: Literal["SVG", "PNG"]
    width: float
    height: float
    shapes: tuple[Shape, ...]
    scale: float = 3.0  # pixels per unit, for a PNG


def _star(
    cx: float, cy: float, outer: float, inner: float, points: int, turn: float
) -> tuple[float, ...]:
    """A regular polygon when inner == outer, else a star; flat x, y values."""
    values: list[float] = []
    corners = points * (1 if inner == outer else 2)
    for index in range(corners):
        radius = outer if index % 2 == 0 or inner == outer else inner
        angle = math.radians(turn - 90 + 360 * index / corners)
        values += [round(cx + radius * math.cos(angle), 2), round(cy + radius * math.sin(angle), 2)]
    return tuple(values)


def _second(colours: list[str]) -> str:
    # A one-colour mark cuts its inner shape out in white instead.
    return colours[1] if len(colours) > 1 else WHITE


def _badge(rng: random.Random, colours: list[str]) -> list[Shape]:
    points = rng.choice((3, 4, 5, 6, 8))
    inner = 24 if points in (3, 4) else rng.choice((12, 16))
    return [
        Shape("circle", colours[0], (50, 50, 44)),
        Shape("polygon", _second(colours), _star(50, 52, 28, inner, points, 0)),
    ]


def _tile(rng: random.Random, colours: list[str]) -> list[Shape]:
    shapes = [
        Shape("rect", colours[0], (6, 6, 88, 88, rng.choice((0, 12, 22)))),
        Shape("ring", _second(colours), (50, 50, rng.choice((26, 30)), rng.choice((8, 11)))),
    ]
    if len(colours) > 2:
        shapes.append(Shape("circle", colours[2], (50, 50, 8)))
    return shapes


def _stripes(rng: random.Random, colours: list[str]) -> list[Shape]:
    count = rng.choice((3, 4))
    pitch = 72 / count
    thickness = round(pitch * 0.6, 2)
    top = (100 - pitch * (count - 1) - thickness) / 2
    lengths = [80, *(rng.choice((48, 64, 80)) for _ in range(count - 1))]
    return [
        Shape(
            "rect",
            colours[index % len(colours)],
            (10, round(top + index * pitch, 2), length, thickness, thickness / 2),
        )
        for index, length in enumerate(lengths)
    ]


def _pinwheel(rng: random.Random, colours: list[str]) -> list[Shape]:
    blades = rng.choice((3, 4, 6))
    turn = rng.choice((0, 15, 45))
    span = 360 / blades
    return [
        Shape(
            "wedge",
            colours[index % len(colours)],
            (50, 50, 44, turn + index * span, turn + index * span + span * 0.72),
        )
        for index in range(blades)
    ]


def _hexagon(rng: random.Random, colours: list[str]) -> list[Shape]:
    return [
        Shape("polygon", colours[0], _star(50, 50, 46, 46, 6, rng.choice((0, 30)))),
        Shape("circle", _second(colours), (50, 50, rng.choice((14, 18, 22)))),
    ]


def _rings(rng: random.Random, colours: list[str]) -> list[Shape]:
    width = rng.choice((8, 10))
    return [
        Shape("ring", colours[0], (34, 50, 28, width)),
        Shape("ring", colours[-1], (66, 50, 28, width)),
    ]


def _chevrons(rng: random.Random, colours: list[str]) -> list[Shape]:
    count = rng.choice((2, 3))
    tops = (20, 46) if count == 2 else (10, 32, 54)
    return [
        Shape(
            "polygon",
            colours[index % len(colours)],
            (10, top + 26, 50, top, 90, top + 26, 90, top + 38, 50, top + 12, 10, top + 38),
        )
        for index, top in enumerate(tops)
    ]


def _peaks(rng: random.Random, colours: list[str]) -> list[Shape]:
    sun = colours[2] if len(colours) > 2 else colours[-1]
    return [
        Shape("circle", sun, (rng.choice((66, 72)), 30, rng.choice((10, 14)))),
        Shape("polygon", colours[0], (6, 88, 40, 28, 74, 88)),
        Shape("polygon", colours[1 % len(colours)], (46, 88, 70, 50, 94, 88)),
    ]


def _grid(rng: random.Random, colours: list[str]) -> list[Shape]:
    round_cell = rng.randrange(4)
    shapes = []
    for index, (x, y) in enumerate(((8, 8), (52, 8), (8, 52), (52, 52))):
        colour = colours[index % len(colours)]
        if index == round_cell:
            shapes.append(Shape("circle", colour, (x + 20, y + 20, 20)))
        else:
            shapes.append(Shape("rect", colour, (x, y, 40, 40, rng.choice((0, 6)))))
    return shapes


MARKS: tuple[Callable[[random.Random, list[str]], list[Shape]], ...] = (
    _badge, _tile, _stripes, _pinwheel, _hexagon, _rings, _chevrons, _peaks, _grid,
)  # fmt: skip


def logo_mark(rng: random.Random) -> tuple[str, tuple[Shape, ...]]:
    """A symbol and its main colour."""
    families = rng.sample(COLOUR_FAMILIES, rng.choice((1, 2, 2, 3)))
    colours = [rng.choice(family) for family in families]
    return colours[0], tuple(rng.choice(MARKS)(rng, colours))


def horizontal_version(mark: tuple[Shape, ...], name: str, rng: random.Random) -> Drawing:
    """The mark with two bars standing for the name and a tagline: fonts are not guaranteed."""
    name_width = min(max(len(name) * 7, 90), 220)
    tagline_width = round(name_width * rng.uniform(0.45, 0.85), 1)
    wordmark = (
        Shape("rect", INK, (116, 32, name_width, 18, 9)),
        Shape("rect", GREY, (116, 58, tagline_width, 10, 5)),
    )
    return Drawing("SVG", 116 + name_width + 10, 100, mark + wordmark)


def negative_version(horizontal: Drawing, brand: str) -> Drawing:
    """The horizontal layout for dark backgrounds: the main colour and text turn white."""
    swap = {brand: WHITE, INK: WHITE, GREY: "#C9CED6", WHITE: NIGHT}
    background = Shape("rect", NIGHT, (0, 0, horizontal.width, horizontal.height, 0))
    shapes = tuple(
        Shape(shape.kind, swap.get(shape.colour, shape.colour), shape.values)
        for shape in horizontal.shapes
    )
    return Drawing("PNG", horizontal.width, horizontal.height, (background, *shapes), scale=1.6)


# Rendering.


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _on_circle(cx: float, cy: float, r: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return cx + r * math.cos(angle), cy + r * math.sin(angle)


def _svg_element(shape: Shape) -> str:
    fill = f'fill="{shape.colour}"'
    n = [_number(value) for value in shape.values]
    if shape.kind == "rect":
        return f'<rect x="{n[0]}" y="{n[1]}" width="{n[2]}" height="{n[3]}" rx="{n[4]}" {fill}/>'
    if shape.kind == "circle":
        return f'<circle cx="{n[0]}" cy="{n[1]}" r="{n[2]}" {fill}/>'
    if shape.kind == "ring":
        cx, cy, r, width = shape.values
        # Pillow draws an outline inside its box; a centred stroke on a smaller circle matches.
        return (
            f'<circle cx="{n[0]}" cy="{n[1]}" r="{_number(r - width / 2)}" fill="none" '
            f'stroke="{shape.colour}" stroke-width="{n[3]}"/>'
        )
    if shape.kind == "polygon":
        points = " ".join(f"{x},{y}" for x, y in zip(n[::2], n[1::2], strict=True))
        return f'<polygon points="{points}" {fill}/>'
    cx, cy, r, start, end = shape.values
    x1, y1 = _on_circle(cx, cy, r, start)
    x2, y2 = _on_circle(cx, cy, r, end)
    large = 1 if end - start > 180 else 0
    path = (
        f"M{n[0]} {n[1]}L{_number(x1)} {_number(y1)}"
        f"A{n[2]} {n[2]} 0 {large} 1 {_number(x2)} {_number(y2)}Z"
    )
    return f'<path d="{path}" {fill}/>'


def svg_draw(drawing: Drawing) -> bytes:
    width, height = _number(drawing.width), _number(drawing.height)
    body = "".join(_svg_element(shape) for shape in drawing.shapes)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{_number(drawing.width * 3)}" height="{_number(drawing.height * 3)}">'
        f"{body}</svg>\n"
    ).encode()


# Drawn at twice the size and scaled down, since Pillow's shapes have no anti-aliasing.
_OVERSAMPLE = 2


def _png_shape(draw: ImageDraw.ImageDraw, shape: Shape, scale: float) -> None:
    v = shape.values
    if shape.kind == "rect":
        x, y, w, h, radius = (value * scale for value in v)
        draw.rounded_rectangle((x, y, x + w, y + h), radius=radius, fill=shape.colour)
    elif shape.kind in ("circle", "ring"):
        cx, cy, r = (value * scale for value in v[:3])
        box = (cx - r, cy - r, cx + r, cy + r)
        if shape.kind == "circle":
            draw.ellipse(box, fill=shape.colour)
        else:
            draw.ellipse(box, outline=shape.colour, width=round(v[3] * scale))
    elif shape.kind == "polygon":
        points = [(x * scale, y * scale) for x, y in zip(v[::2], v[1::2], strict=True)]
        draw.polygon(points, fill=shape.colour)
    else:
        cx, cy, r = (value * scale for value in v[:3])
        draw.pieslice((cx - r, cy - r, cx + r, cy + r), v[3], v[4], fill=shape.colour)


def png_draw(drawing: Drawing) -> bytes:
    size = (round(drawing.width * drawing.scale), round(drawing.height * drawing.scale))
    big = Image.new("RGBA", (size[0] * _OVERSAMPLE, size[1] * _OVERSAMPLE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    for shape in drawing.shapes:
        _png_shape(draw, shape, drawing.scale * _OVERSAMPLE)
    out = io.BytesIO()
    # reduce() averages premultiplied, so edges keep their colour; a low compression
    # level halves the time for files a few kilobytes larger.
    big.reduce(_OVERSAMPLE).save(out, format="PNG", compress_level=1)
    return out.getvalue()


def file_draw(drawing: Drawing) -> bytes:
    return svg_draw(drawing) if drawing.format == "SVG" else png_draw(drawing)
