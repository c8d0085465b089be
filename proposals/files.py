"""What an uploaded proposal file is, judged by its bytes alone.

Rasters must carry their format's signature and decode completely with Pillow
under a pixel limit; an SVG must parse safely (no DTD, no entities) with an <svg>
root in the SVG namespace and nothing active in it (scripts, event handlers,
embedded documents, references outside the file). Anything else is refused.
"""

import io
import re
import struct

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring
from PIL import Image

from common.images import UNREADABLE, bombs_refused, unreadable_reason
from common.svg import xml_refusal
from common.svg_size import SvgSizeError, view_box
from directory.files.formats import SVG_ROOT
from proposals.models import ProposalFormat

# 8,000 x 8,000: far above a logo; a file that decodes to more is a decompression bomb.
MAX_PIXELS = 64_000_000
_SIGNATURES = {
    ProposalFormat.PNG: (b"\x89PNG\r\n\x1a\n",),
    ProposalFormat.JPEG: (b"\xff\xd8\xff",),
}
_PILLOW_FORMATS = {
    ProposalFormat.PNG: "PNG",
    ProposalFormat.JPEG: "JPEG",
    ProposalFormat.WEBP: "WEBP",
}
_ACTIVE_ELEMENTS = {"script", "foreignObject", "iframe", "embed", "object", "handler"}
_SAFE_DATA_IMAGE = re.compile(r"^data:image/(png|jpeg|webp|gif)[;,]", re.IGNORECASE)
# url() not to a fragment of the file, and image-set(), which loads images by itself.
_OUTSIDE_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)|image-set\(", re.IGNORECASE)
# Looked for once whitespace and control characters are gone: "java\tscript:" is still one.
_SCRIPT_SCHEME = re.compile(r"(?:javascript|vbscript):")
_INVISIBLE = re.compile(r"[\s\x00-\x1f\x7f]+")
_PNG_END = b"IEND"


class UnsupportedFile(Exception):
    """Not an SVG, PNG, JPEG or WEBP we accept; the message says why."""


def _raster_format(data: bytes) -> ProposalFormat | None:
    for file_format, signatures in _SIGNATURES.items():
        if data.startswith(signatures):
            return file_format
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ProposalFormat.WEBP
    return None


def _png_trailer(data: bytes) -> int:
    """How many bytes follow the PNG's IEND chunk (an HTML page or a zip, appended)."""
    offset = 8
    while offset + 8 <= len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        chunk_type = data[offset + 4 : offset + 8]
        offset += 12 + length
        if chunk_type == _PNG_END:
            return max(0, len(data) - offset)
    return 0  # no IEND: a truncated file, which decoding refuses


def _decode(data: bytes, file_format: ProposalFormat) -> None:
    with bombs_refused():
        try:
            with Image.open(io.BytesIO(data), formats=[_PILLOW_FORMATS[file_format]]) as image:
                if image.width * image.height > MAX_PIXELS:
                    raise UnsupportedFile(
                        f"the image is {image.width} x {image.height} pixels; "
                        f"at most {MAX_PIXELS:,} pixels are accepted"
                    )
                image.load()  # every pixel: a truncated or corrupt file fails here
        except UnsupportedFile:
            raise
        except UNREADABLE as exc:
            raise UnsupportedFile(unreadable_reason(exc, f"the {file_format} image")) from exc
    # Bytes after the end are no part of the image, and would be stored and served with
    # it: a polyglot (a PNG that is also an HTML page) is refused, not carried along.
    if file_format == ProposalFormat.PNG:
        trailer = _png_trailer(data)
        if trailer:
            raise UnsupportedFile(f"the PNG has {trailer} bytes of other data after its end")


def _local_name(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _svg_threat(root) -> str | None:
    """Why this parsed SVG could do more than draw, or None."""
    for element in root.iter():
        tag = _local_name(element.tag) if isinstance(element.tag, str) else ""
        if tag in _ACTIVE_ELEMENTS:
            return f"it contains <{tag}>"
        for name, value in element.attrib.items():
            attribute = _local_name(name).lower()
            if attribute.startswith("on"):
                return f"it has an event handler ({attribute})"
            if attribute == "href" and not (
                value.startswith("#") or _SAFE_DATA_IMAGE.match(value.strip())
            ):
                return "it refers to something outside the file"
            if _SCRIPT_SCHEME.search(_INVISIBLE.sub("", value).lower()):
                return "it contains a javascript: address"
            if _OUTSIDE_URL.search(value):
                return "it refers to something outside the file"
            if attribute == "style" and "\\" in value:
                return "its styles use CSS escapes, which can hide an address"
        if tag == "style" and element.text:
            text = element.text.lower()
            if "@import" in text or _OUTSIDE_URL.search(text):
                return "its styles load something from outside the file"
            if _SCRIPT_SCHEME.search(_INVISIBLE.sub("", text)):
                return "it contains a javascript: address"
            if "\\" in text:
                return "its styles use CSS escapes, which can hide an address"
    return None


def _check_svg(data: bytes) -> bool:
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"<"):
        return False
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        if b"<svg" in data[:4096]:
            raise UnsupportedFile(f"the SVG {xml_refusal(exc)}") from exc
        return False
    if root.tag != SVG_ROOT:
        return False
    threat = _svg_threat(root)
    if threat is not None:
        raise UnsupportedFile(f"the SVG is unsafe: {threat}")
    try:
        view_box(root.attrib)
    except SvgSizeError as exc:
        raise UnsupportedFile(f"the SVG cannot be drawn at a known size: {exc}") from exc
    return True


def proposal_file_format(data: bytes) -> ProposalFormat:
    """The file's format, from its bytes; UnsupportedFile when it is not acceptable."""
    raster = _raster_format(data)
    if raster is not None:
        _decode(data, raster)
        return raster
    if _check_svg(data):
        return ProposalFormat.SVG
    raise UnsupportedFile("the file is not an SVG, PNG, JPEG or WEBP image")
