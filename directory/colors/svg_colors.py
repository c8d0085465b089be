"""The brand colours of an SVG file (directory.colors.extraction.extract_colors for the rules).

The paints the drawn elements actually use, resolved as a browser would for what logos
use: the cascade of presentation attributes, `<style>` rules (tinycss2 reads them,
cssselect2 matches them) and `style`; inheritance; `currentColor`; gradient stops
through `url(#id)` and `href` chains. They are then ranked by the area each covers in a
rendering by resvg.
"""

import copy
import io
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, tostring

import cssselect2
import resvg_py
import tinycss2
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring
from PIL import Image, ImageColor

from common.svg_size import SvgSizeError, fitted_attributes
from directory.colors.color_values import (
    MAX_COLORS,
    NEAR_WHITE,
    OPAQUE_ALPHA,
    RGB,
    ColorError,
    distance2,
    hex_code,
    nearest_on_ramp,
    on_white,
    parse_color,
)
from directory.files.previews import empty_folder

# Pixels at most this far (Euclidean RGB) from a declared colour count for it; farther
# ones (embedded images, filters, the middle of a contrasting gradient) count for none.
MATCH_DISTANCE = 80
# Declared SVG colours this close (Euclidean RGB) are one colour written twice
# (#E33B26 and #E23A26): the more used code stands for both.
SVG_MERGE_DISTANCE = 12
# The rendering's longer side. Crisp edges make each shape's pixels its exact colour, so
# 128 px ranks the areas as 256 did: on the 2,593 SVGs of the 2,000-company demo the same
# colours every time, in another order in 199 palettes, a new first colour in 96, each
# time two areas within 0.6% of each other drawn at 1,024 px: a tie. 4.2 ms a file
# instead of 10.1 (docs/performance.md).
SVG_SAMPLE_PX = 128
# More distinct colours than this in a rendering are folded into a palette first.
MAX_RENDER_COLORS = 4096
# Bounds on `<use>` expansion, so nested references cannot make the walk explode; a
# file past MAX_VISITS drawn elements is ranked by use counts, without rendering it.
MAX_USE_DEPTH = 16
MAX_VISITS = 20_000

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


# --- CSS: style attributes and <style> rules -------------------------------------------

# The properties that decide which colours are drawn; everything else is ignored.
PROPERTIES = {
    "fill",
    "stroke",
    "color",
    "opacity",
    "fill-opacity",
    "stroke-opacity",
    "stroke-width",
    "display",
    "visibility",
    "stop-color",
    "stop-opacity",
}
INHERITED = {
    "fill",
    "stroke",
    "color",
    "fill-opacity",
    "stroke-opacity",
    "stroke-width",
    "visibility",
}
INITIAL = {
    "fill": "black",
    "stroke": "none",
    "color": "black",
    "fill-opacity": "1",
    "stroke-opacity": "1",
    "stroke-width": "1",
    "visibility": "visible",
    "stop-color": "black",
    "stop-opacity": "1",
}


def _declarations(css: str | list) -> Iterator[tuple[str, str, bool]]:
    """(property, value, important) of a declaration block, known properties only."""
    for item in tinycss2.parse_blocks_contents(css, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration" or item.lower_name not in PROPERTIES:
            continue
        value = tinycss2.serialize(item.value).strip()
        if value:
            yield item.lower_name, value, item.important


def _style_rules(root: Element) -> cssselect2.Matcher:
    """The rules of the document's style sheets, each with its declarations, by selector.

    Selectors match as a browser's would, except for state (:hover, :visited...), which a
    logo at rest never has. At-rules are skipped: @media describes other media, @import
    and @font-face fetch.
    """
    matcher = cssselect2.Matcher()
    for style in root.iter():
        if _local(style) != "style":
            continue
        if style.get("type", "text/css").strip().lower() not in ("", "text/css"):
            continue
        sheet = tinycss2.parse_stylesheet(
            "".join(style.itertext()), skip_comments=True, skip_whitespace=True
        )
        for rule in sheet:
            if rule.type != "qualified-rule":
                continue
            declarations = tuple(_declarations(rule.content))
            if not declarations:
                continue
            try:
                selectors = cssselect2.compile_selector_list(rule.prelude)
            except cssselect2.SelectorError:
                continue
            for selector in selectors:
                matcher.add_selector(selector, declarations)
    return matcher


def _local(element: Element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag.startswith(SVG_NS):
        return tag[len(SVG_NS) :]
    return tag if not tag.startswith("{") else ""  # other namespaces are never SVG


# --- SVG: the paints drawn elements use ------------------------------------------------

SHAPES = {"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"}
TEXT = {"text", "tspan", "textPath"}
CONTAINERS = {"svg", "g", "a", "switch"}
GRADIENTS = {"linearGradient", "radialGradient"}


@dataclass
class Paint:
    """Declared colour codes in first-use order with how many paints use each, and the
    pairs of neighbouring gradient stops (their blends are drawn between them)."""

    uses: dict[str, int] = field(default_factory=dict)
    ramps: set[tuple[str, str]] = field(default_factory=set)
    # More elements than MAX_VISITS to draw (a <use> bomb, most likely): not rendered.
    truncated: bool = False

    def add(self, code: str) -> None:
        self.uses[code] = self.uses.get(code, 0) + 1


class _Document:
    def __init__(self, root: Element) -> None:
        self.root = root
        self.parents = {child: parent for parent in root.iter() for child in parent}
        self.by_id = {}
        for element in root.iter():
            element_id = element.get("id")
            if element_id and element_id not in self.by_id:
                self.by_id[element_id] = element
        rules = _style_rules(root)
        self.cascaded: dict[Element, dict[str, str]] = {}
        for wrapper in cssselect2.ElementWrapper.from_xml_root(root).iter_subtree():
            element = wrapper.etree_element
            self.cascaded[element] = self._cascade(element, rules.match(wrapper))
        self._document_styles: dict[Element, dict[str, str]] = {}
        self.visits = 0

    def _cascade(self, element: Element, matches: list[tuple]) -> dict[str, str]:
        # Presentation attributes lose to any stylesheet rule, which loses to `style`;
        # `!important` lifts a declaration above all the normal ones. `matches` are
        # cssselect2's, by specificity, then order.
        ranked: list[tuple[tuple, str, str]] = []
        for name, value in element.attrib.items():
            if name in PROPERTIES and value.strip():
                ranked.append(((0, 0, (0, 0, 0), 0), name, value.strip()))
        for specificity, order, pseudo_element, declarations in matches:
            if pseudo_element is not None:
                continue  # ::before and the like: no such box in SVG
            for name, value, important in declarations:
                ranked.append(((important, 1, specificity, order), name, value))
        for order, (name, value, important) in enumerate(_declarations(element.get("style", ""))):
            ranked.append(((important, 2, (0, 0, 0), order), name, value))
        ranked.sort(key=lambda item: item[0])
        # An invalid value is dropped, as CSS does: the element keeps what it would
        # otherwise get (a weaker declaration, or the inherited paint).
        return {name: value for _, name, value in ranked if _valid(name, value)}

    def computed(self, element: Element, parent: dict[str, str]) -> dict[str, str]:
        style = {name: parent[name] for name in INHERITED}
        for name in ("stop-color", "stop-opacity"):
            style[name] = INITIAL[name]
        for name, value in self.cascaded.get(element, {}).items():
            lowered = value.strip().lower()
            if lowered == "inherit" or (name == "color" and lowered == "currentcolor"):
                style[name] = parent.get(name, INITIAL.get(name, ""))
            else:
                style[name] = value
        return style

    def document_style(self, element: Element) -> dict[str, str]:
        """The style along the document tree: what a gradient stop inherits, wherever used."""
        if element not in self._document_styles:
            chain = [element]
            while chain[-1] in self.parents and chain[-1] not in self._document_styles:
                chain.append(self.parents[chain[-1]])
            style = self._document_styles.get(chain[-1], dict(INITIAL))
            for ancestor in reversed(chain):
                if ancestor not in self._document_styles:
                    self._document_styles[ancestor] = self.computed(ancestor, style)
                style = self._document_styles[ancestor]
        return self._document_styles[element]

    def href(self, element: Element) -> Element | None:
        target = element.get("href") or element.get(XLINK_HREF) or ""
        return self.by_id.get(target[1:]) if target.startswith("#") else None

    def gradient_stops(self, gradient: Element) -> list[Element]:
        seen: set[int] = set()
        current: Element | None = gradient
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            if _local(current) not in GRADIENTS:
                return []
            stops = [child for child in current if _local(child) == "stop"]
            if stops:
                return stops
            current = self.href(current)
        return []


PAINTS = {"fill", "stroke", "color", "stop-color"}
KEYWORDS = {"none", "currentcolor", "inherit", "transparent"}


def _valid(name: str, value: str) -> bool:
    if name not in PAINTS:
        return True
    lowered = value.strip().lower()
    if lowered in KEYWORDS or lowered.startswith("url("):
        return True
    return parse_color(value.split(" icc-color(")[0]) is not None


def _number(value: str, default: float) -> float:
    try:
        number = float(value)
    except ValueError:
        # A unit or junk after the number: its leading number, as resvg reads it.
        match = re.match(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", value)
        number = float(match.group(1)) if match else default
    return number if math.isfinite(number) else default


def _opacity(value: str) -> float:
    if value == "1":
        return 1.0
    value = value.strip()
    number = _number(value, 1.0)
    if value.endswith("%"):
        number /= 100
    return min(max(number, 0.0), 1.0)


def _resolve_paint(
    doc: _Document, value: str, style: dict[str, str], alpha: float, paint: Paint
) -> None:
    """Add the colours a fill or stroke value paints with, unless fully transparent."""
    if alpha <= 0:
        return
    value = value.strip()
    lowered = value.lower()
    if lowered == "none":
        return
    if lowered.startswith("url("):
        close = value.find(")")
        reference = value[4:close].strip().strip("'\"") if close > 0 else ""
        target = doc.by_id.get(reference[1:]) if reference.startswith("#") else None
        if target is not None and _local(target) in GRADIENTS:
            previous = None
            for stop in doc.gradient_stops(target):
                stop_style = doc.document_style(stop)
                stop_color = stop_style["stop-color"]
                if stop_color.strip().lower() == "currentcolor":
                    stop_color = stop_style["color"]
                parsed = parse_color(stop_color)
                if parsed and parsed[1] * _opacity(stop_style["stop-opacity"]) * alpha > 0:
                    code = hex_code(parsed[0])
                    paint.add(code)
                    if previous is not None and previous != code:
                        paint.ramps.add((previous, code))
                    previous = code
            return
        if target is not None:
            return  # a pattern or something else: no single colour to report
        value = value[close + 1 :].strip() if close > 0 else ""  # the fallback colour
        if not value or value.lower() == "none":
            return
        lowered = value.lower()
    if lowered == "currentcolor":
        value = style["color"]
    # ICC colours follow an sRGB fallback: keep the fallback.
    value = value.split(" icc-color(")[0]
    parsed = parse_color(value)
    if parsed and parsed[1] * alpha > 0:
        paint.add(hex_code(parsed[0]))


def _has_text(element: Element) -> bool:
    # Text of a <text> before, between or after its <tspan>s is its own.
    return bool((element.text or "").strip()) or any(
        (child.tail or "").strip() for child in element
    )


def _walk(
    doc: _Document,
    element: Element,
    parent: dict[str, str],
    opacity: float,
    paint: Paint,
    depth: int,
) -> None:
    doc.visits += 1
    if doc.visits > MAX_VISITS:
        paint.truncated = True
        return
    name = _local(element)
    style = doc.computed(element, parent)
    if style.get("display", "").strip().lower() == "none":
        return
    opacity *= _opacity(style.get("opacity", "1"))
    if opacity <= 0:
        return
    if name in SHAPES or name in TEXT:
        visible = style["visibility"].strip().lower() == "visible"
        if visible and name != "line" and (name not in TEXT or _has_text(element)):
            alpha = opacity * _opacity(style["fill-opacity"])
            _resolve_paint(doc, style["fill"], style, alpha, paint)
        if visible and _number(style["stroke-width"], 1.0) > 0:
            alpha = opacity * _opacity(style["stroke-opacity"])
            _resolve_paint(doc, style["stroke"], style, alpha, paint)
        if name not in TEXT:
            return
    elif name == "use":
        target = doc.href(element)
        if target is None or depth >= MAX_USE_DEPTH:
            return  # the depth bound also ends a <use> that refers to its own ancestor
        if _local(target) == "symbol":
            target_style = doc.computed(target, style)
            for child in target:
                _walk(doc, child, target_style, opacity, paint, depth + 1)
        else:
            _walk(doc, target, style, opacity, paint, depth + 1)
        return
    elif name not in CONTAINERS and name not in TEXT:
        return  # defs, symbol, clipPath, mask, pattern, marker...: never drawn directly
    for child in element:
        _walk(doc, child, style, opacity, paint, depth)


def declared_paint(root: Element) -> Paint:
    """The codes the drawn elements paint with (first-use order) and their gradient ramps."""
    doc = _Document(root)
    paint = Paint()
    _walk(doc, root, dict(INITIAL), 1.0, paint, 0)
    return paint


def _external(element: Element) -> bool:
    """Whether the element names another file: an href neither #id nor a data: URL."""
    for name in ("href", XLINK_HREF):
        value = (element.get(name) or "").strip()
        if value and not value.startswith("#") and value[:5].lower() != "data:":
            return True
    return False


def _render(root: Element) -> Image.Image | None:
    # Drawn with the root's size replaced (common/svg_size.py): the canvas is at most
    # SVG_SAMPLE_PX square whatever the file says; a file of unknowable size is not drawn.
    # Elements that name another file are left out: resvg reads any local file an
    # <image> names by an absolute path, and its pixels would weigh in the published
    # ranking (previews draw the sanitised copy for the same reason,
    # directory/files/previews.py). The file's own CSS stays, as a browser applies it.
    if any(_external(element) for element in root.iter()):
        root = copy.deepcopy(root)
        for parent in list(root.iter()):
            for child in [child for child in parent if _external(child)]:
                parent.remove(child)
    drawn = copy.copy(root)
    try:
        drawn.attrib = {**root.attrib, **fitted_attributes(root.attrib, SVG_SAMPLE_PX)}
    except SvgSizeError:
        return None
    try:
        png = resvg_py.svg_to_bytes(
            svg_string=tostring(drawn, encoding="unicode"),
            # An empty resources folder: a file's relative references resolve to nothing.
            resources_dir=empty_folder(),
            # Without anti-aliasing nearly every pixel is exactly a declared colour.
            shape_rendering="crisp_edges",
        )
        image = Image.open(io.BytesIO(bytes(png)), formats=["PNG"])
        image.load()
    except BaseException as exc:  # resvg panics surface as BaseException
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        return None
    return image.convert("RGBA")


def _nearest(pixel: RGB, colors: dict[str, RGB], ramps: list[tuple[str, str]]) -> str | None:
    """The declared code a pixel is drawn with, or None when it is near none."""
    best, best_distance2 = None, MATCH_DISTANCE**2 + 1
    r, g, b = pixel
    for code, (cr, cg, cb) in colors.items():
        distance2 = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2
        if distance2 < best_distance2:
            best, best_distance2 = code, distance2
    # A pixel on a gradient's blend belongs to that gradient's nearer stop, even when
    # another declared colour happens to be closer to it (orange between red and yellow).
    for start, end in ramps:
        distance2, end_nearer = nearest_on_ramp(pixel, colors[start], colors[end])
        if distance2 < best_distance2:
            best, best_distance2 = (end if end_nearer else start), distance2
    return best


def _area_weights(image: Image.Image, paint: Paint) -> dict[str, int]:
    """Alpha-weighted pixel count per declared code."""
    colors = {code: ImageColor.getrgb(code)[:3] for code in paint.uses}
    exact = {rgb: code for code, rgb in colors.items()}
    ramps = sorted(paint.ramps)
    weights = dict.fromkeys(paint.uses, 0)
    skip_white = on_white(image)
    found = image.getcolors(MAX_RENDER_COLORS)
    if found is None:
        # An embedded photo or a filter: fold it into a palette first to stay fast.
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE).convert("RGBA")
        found = image.getcolors(MAX_RENDER_COLORS) or []
    nearest: dict[RGB, str | None] = {}  # one search per colour, whatever its alphas
    for count, (r, g, b, a) in found:
        if a == 0 or (skip_white and a >= OPAQUE_ALPHA and min(r, g, b) >= NEAR_WHITE):
            continue
        pixel = (r, g, b)
        code = exact.get(pixel)
        if code is None:
            if pixel not in nearest:
                nearest[pixel] = _nearest(pixel, colors, ramps)
            code = nearest[pixel]
        if code is not None:
            weights[code] += count * a
    return weights


def svg_colors(data: bytes) -> list[str]:
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        raise ColorError(f"unreadable SVG: {exc}") from exc
    if _local(root) != "svg":
        raise ColorError("not an SVG document")
    try:
        paint = declared_paint(root)
    except RecursionError as exc:
        raise ColorError("SVG nested too deeply") from exc
    uses = paint.uses
    if not uses:
        return []
    image = None if paint.truncated else _render(root)
    weights = _area_weights(image, paint) if image is not None else dict.fromkeys(uses, 0)
    # Declared but covering nothing (hidden, tiny, white on white): after the drawn
    # ones, by how often they are used, since they are still paints the author chose.
    # When the file cannot be drawn, that use count is all there is to go by.
    scores = {code: (weights[code], uses[code]) for code in uses}
    kept: dict[str, tuple[int, int]] = {}
    for code in sorted(uses, key=lambda code: scores[code], reverse=True):
        rgb = ImageColor.getrgb(code)[:3]
        twin = next(
            (
                other
                for other in kept
                if distance2(rgb, ImageColor.getrgb(other)[:3]) <= SVG_MERGE_DISTANCE**2
            ),
            None,
        )
        if twin is None:
            kept[code] = scores[code]
        else:  # a rounding twin of a colour already listed: one brand colour, not two
            kept[twin] = (kept[twin][0] + scores[code][0], kept[twin][1] + scores[code][1])
    return sorted(kept, key=lambda code: kept[code], reverse=True)[:MAX_COLORS]
