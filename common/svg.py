"""The public copy of an SVG logo: a new document rebuilt from an allow-list, so it can only draw.

Nothing is copied because it looks harmless; only what is known to be harmless is copied.
An element, attribute, CSS property or CSS function that is not on a list of
common/svg_allowlist.py is left out, so whatever SVG, CSS or a browser adds later stays
out until someone adds it there.

- Elements: the drawing subset of SVG (shapes, text, gradients, patterns, clipping,
  masking, a few filter primitives), in the SVG namespace only. Any other element is
  dropped with everything inside it: script, foreignObject, a, animate/set/animate*,
  feImage, metadata, elements of editors' namespaces, and ones never heard of.
- Attributes: geometry, presentation and a few accessibility attributes without a
  namespace, plus xlink:href and xml:space. Event handlers (on*) are on no list.
- References: href/xlink:href only as a local fragment (#id) on the elements that use
  one; on <image> only a base64 PNG, JPEG, WEBP or GIF data: URL whose bytes decode as
  that format. An element whose reference is refused is dropped.
- Values: every function in a value must be on an allow-list and url() may only be
  url(#id); no scheme (javascript:, data:, ...), backslash (CSS escapes), comment
  or brace survives, so a value cannot hide a reference or break out of its rule.
- CSS, read by tinycss2 as a browser tokenizes it: style="" keeps allow-listed
  properties with safe values; <style> keeps rules whose selectors use only SVG element
  names, classes and ids, and drops at-rules. Kept declarations are written anew from
  the tokens, so an escape or a comment cannot make them mean something else.

Comments and processing instructions are never read into the tree. The copy is written
by the standard library's serializer: no XML declaration, the SVG namespace as its
default namespace (and xlink's when an xlink:href is kept), and the same bytes for the
same input.
"""

import base64
import binascii
import io
import re

# Parsing goes through defusedxml; the standard library only builds and writes the copy.
from xml.etree.ElementTree import Element, tostring

import tinycss2
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring
from PIL import Image

from common.images import UNREADABLE, bombs_refused
from common.svg_allowlist import (
    ATTRIBUTES,
    ELEMENTS,
    FUNCTIONS,
    LOCAL_HREF,
    MIXED,
    PROPERTIES,
    TEXT_ONLY,
)
from common.svg_size import fitted_attributes

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"

_SVG_PREFIX = f"{{{SVG_NS}}}"
_XLINK_HREF = f"{{{XLINK_NS}}}href"
_XML_SPACE = f"{{{XML_NS}}}space"

# Far deeper than any logo; bounds the recursion well below Python's limit.
MAX_DEPTH = 200
# 4,000 x 4,000: far above a raster embedded in a logo; more is a decompression bomb.
MAX_EMBEDDED_PIXELS = 16_000_000

_ID = re.compile(r"[A-Za-z_][\w.:-]*")
_FRAGMENT = re.compile(r"#[A-Za-z_][\w.:-]*")
_FUNCTION = re.compile(r"([A-Za-z_-][\w-]*)\s*\(")
_LOCAL_URL = re.compile(r"""url\(\s*(['"]?)#[A-Za-z_][\w.:-]*\1\s*\)""", re.IGNORECASE)
# Looked for once whitespace and control characters are gone: "java\tscript:" is still one.
_SCHEME = re.compile(r"(?:javascript|vbscript|livescript|data):")
# Backslashes are CSS escapes (u\72l), comments split tokens, braces, semicolons and @ end a
# rule or start another, angle brackets belong to markup: none has a place in a logo's value.
_FORBIDDEN = ("\\", "/*", "*/", "{", "}", ";", "@", "<", ">")
_INVISIBLE = re.compile(r"[\s\x00-\x1f\x7f]+")
_SELECTOR_PART = re.compile(r"(?:[A-Za-z][\w-]*)?(?:[.#][A-Za-z_-][\w-]*)*")
_COMBINATOR = re.compile(r"\s*[>+~]\s*|\s+")
_DATA_IMAGE = re.compile(
    r"data:image/(png|jpeg|webp|gif)((?:;[\w.+-]+=[\w.+-]+)*);base64,(.*)",
    re.IGNORECASE | re.DOTALL,
)
_RASTERS = {"png": "PNG", "jpeg": "JPEG", "webp": "WEBP", "gif": "GIF"}


class UnsafeSvg(ValueError):
    """Not a well-formed SVG document that can be parsed safely; the message says why."""


def xml_refusal(error: Exception) -> str:
    """Why a file could not be parsed, in our words (not the parser's class names)."""
    if isinstance(error, DefusedXmlException):
        return "declares a DTD or entities, which are not accepted"
    position = getattr(error, "position", None)
    if isinstance(error, ParseError) and position:
        return f"is not well-formed XML (line {position[0]}, column {position[1] + 1})"
    return "is not well-formed XML"


def _safe_value(value: str) -> bool:
    """Whether an attribute or CSS value can only describe drawing, never fetch or run."""
    if any(token in value for token in _FORBIDDEN):
        return False
    if _SCHEME.search(_INVISIBLE.sub("", value).lower()):
        return False
    if value.count('"') % 2 or value.count("'") % 2:
        return False
    for match in _FUNCTION.finditer(value):
        name = match.group(1).lower()
        if name not in FUNCTIONS:
            return False
        if name == "url" and not _LOCAL_URL.match(value, match.start()):
            return False
    return True


def _filter_declarations(css: str | list) -> str:
    """The allow-listed declarations of a declaration block, each with a safe value.

    Each kept declaration is written anew from tinycss2's tokens, so what survives is
    what a browser's parser reads, not what the text seemed to say.
    """
    kept = []
    for item in tinycss2.parse_blocks_contents(css, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration" or item.lower_name not in PROPERTIES:
            continue
        value = tinycss2.serialize(item.value).strip()
        if value and _safe_value(value):
            kept.append(f"{item.lower_name}:{value}{'!important' if item.important else ''}")
    return ";".join(kept)


def _simple_selector(selector: str) -> str | None:
    """The selector list tidied, or None unless it names only SVG elements, classes and ids.

    Element names are limited to ours so that, drawn inline in a page, a rule cannot reach
    the page's own body, div or *.
    """
    selectors = []
    for one in selector.split(","):
        one = one.strip()
        if not one:
            return None
        for part in _COMBINATOR.split(one):
            if not part or not _SELECTOR_PART.fullmatch(part):
                return None
            element = re.match(r"[A-Za-z][\w-]*", part)
            if element and element.group() not in ELEMENTS:
                return None
        selectors.append(" ".join(one.split()))
    return ",".join(selectors)


def _filter_stylesheet(css: str) -> str:
    """The rules of a style sheet that have simple selectors and safe declarations.

    At-rules (@import, @font-face, @media...) go whole. What is kept is rebuilt from
    checked selectors and declarations.
    """
    rules = []
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule":
            continue
        selector = _simple_selector(tinycss2.serialize(rule.prelude))
        declarations = _filter_declarations(rule.content)
        if selector and declarations:
            rules.append(f"{selector}{{{declarations}}}")
    return "".join(rules)


def _raster(data: bytes, pillow_format: str) -> bool:
    """Whether data is a complete image of that format, within the pixel limit."""
    with bombs_refused():
        try:
            with Image.open(io.BytesIO(data), formats=[pillow_format]) as image:
                if image.width * image.height > MAX_EMBEDDED_PIXELS:
                    return False
                image.load()
                return image.format == pillow_format
        except UNREADABLE:
            return False


def _raster_data_url(value: str) -> str | None:
    """The data: URL rewritten in canonical form when it holds a real PNG, JPEG, WEBP or GIF."""
    match = _DATA_IMAGE.fullmatch(value.strip())
    if match is None:
        return None
    subtype = match.group(1).lower()
    try:
        # validate: no "%" either, so a browser's percent-decoding cannot change the bytes.
        data = base64.b64decode(_INVISIBLE.sub("", match.group(3)), validate=True)
    except (binascii.Error, ValueError):
        return None
    if not _raster(data, _RASTERS[subtype]):
        return None
    return f"data:image/{subtype};base64,{base64.b64encode(data).decode('ascii')}"


def _reference(tag: str, value: str) -> str | None:
    if tag == "image":
        return _raster_data_url(value)
    fragment = value.strip()
    return fragment if _FRAGMENT.fullmatch(fragment) else None


def _attributes(tag: str, element: Element) -> dict[str, str] | None:
    """The element's kept attributes; None when its reference is refused and it must go."""
    kept: dict[str, str] = {}
    has_reference = False
    for name, value in element.attrib.items():
        if name in ("href", _XLINK_HREF):
            if tag != "image" and tag not in LOCAL_HREF:
                continue  # an href elsewhere draws nothing: a, feImage and the like are gone
            reference = _reference(tag, value)
            if reference is None:
                return None
            has_reference = True
            kept["xlink:href" if name == _XLINK_HREF else "href"] = reference
        elif name == _XML_SPACE:
            if value in ("default", "preserve"):
                kept["xml:space"] = value
        elif name == "style":
            declarations = _filter_declarations(value)
            if declarations:
                kept[name] = declarations
        elif name == "id":
            if _ID.fullmatch(value):
                kept[name] = value
        elif name in ATTRIBUTES and _safe_value(value):
            kept[name] = value
    if tag == "image" and not has_reference:
        return None
    return kept


def _clean(element: Element, depth: int) -> Element | None:
    """A copy of the allow-listed parts of `element`, named without a namespace (the
    copy's root declares SVG's as the default); None when the element itself goes."""
    if depth > MAX_DEPTH:
        raise UnsafeSvg(f"the SVG is nested more than {MAX_DEPTH} elements deep")
    if not isinstance(element.tag, str) or not element.tag.startswith(_SVG_PREFIX):
        return None
    tag = element.tag.removeprefix(_SVG_PREFIX)
    if tag not in ELEMENTS:
        return None
    attributes = _attributes(tag, element)
    if attributes is None:
        return None
    node = Element(tag, attributes)
    if tag in TEXT_ONLY:
        text = (element.text or "") + "".join(child.tail or "" for child in element)
        if tag == "style":
            text = _filter_stylesheet(text)
            if not text:
                return None
        node.text = text or None
        return node
    mixed = tag in MIXED
    if mixed:
        node.text = element.text
    for child in element:
        cleaned = _clean(child, depth + 1)
        if cleaned is not None:
            node.append(cleaned)
        if mixed and child.tail:
            # The words after a dropped child follow whatever was kept before it.
            if len(node):
                node[-1].tail = (node[-1].tail or "") + child.tail
            else:
                node.text = (node.text or "") + child.tail
    return node


def sanitize_svg(data: bytes, *, longest: int | None = None) -> bytes:
    """A new SVG document holding only the allow-listed parts of data, as UTF-8 bytes.

    UnsafeSvg when data is not well-formed XML, has a DTD or entities, or its root is not
    <svg> in the SVG namespace: such a file is refused rather than repaired. With
    `longest`, the copy is one to draw: its root's width and height fit its viewBox into
    a `longest` px box (common/svg_size.py), SvgSizeError when its size is unknowable.
    """
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except (ParseError, DefusedXmlException, ValueError, LookupError) as exc:
        raise UnsafeSvg(f"the SVG {xml_refusal(exc)}") from exc
    if root.tag != f"{_SVG_PREFIX}svg":
        raise UnsafeSvg(f"the root element is {root.tag}, not <svg> in the SVG namespace")
    node = _clean(root, 0)
    assert node is not None  # an <svg> root has no reference that could be refused
    namespaces = {"xmlns": SVG_NS}
    if any("xlink:href" in element.attrib for element in node.iter()):
        namespaces["xmlns:xlink"] = XLINK_NS
    node.attrib = {**namespaces, **node.attrib}
    if longest is not None:
        node.attrib.update(fitted_attributes(root.attrib, longest))
    # No XML declaration: the standard library writes none for UTF-8.
    return tostring(node, encoding="utf-8")
