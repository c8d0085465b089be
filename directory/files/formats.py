"""What a file is, judged by its bytes only: never by its name or a declared type."""

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

from directory.catalogue.models import FileFormat

SVG_ROOT = "{http://www.w3.org/2000/svg}svg"

CONTENT_TYPES = {
    FileFormat.SVG: "image/svg+xml",
    FileFormat.PNG: "image/png",
    FileFormat.PDF: "application/pdf",
    FileFormat.AI: "application/postscript",
    FileFormat.EPS: "application/postscript",
    FileFormat.ZIP: "application/zip",
}

# Illustrator writes these into the PDF-compatible files it saves (and its PostScript ones).
_ILLUSTRATOR_MARKERS = (b"AIPrivateData", b"/AIMetaData", b"%AI5_FileFormat", b"%%AI8_")
_SNIFF_BYTES = 1024 * 1024


def is_svg(data: bytes) -> bool:
    """A well-formed XML document whose root is <svg> in the SVG namespace.

    Parsed with defusedxml and DTDs forbidden, so no entity expansion and no
    external reference is ever followed.
    """
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"<"):
        return False
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except (ParseError, DefusedXmlException, ValueError):
        return False
    return root.tag == SVG_ROOT


def detect_format(data: bytes) -> FileFormat | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return FileFormat.PNG
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return FileFormat.ZIP
    head = data[:_SNIFF_BYTES]
    if data.startswith(b"%PDF-"):
        return FileFormat.AI if any(m in head for m in _ILLUSTRATOR_MARKERS) else FileFormat.PDF
    if data.startswith(b"\xc5\xd0\xd3\xc6"):  # DOS EPS binary header
        return FileFormat.EPS
    if data.startswith(b"%!PS-Adobe-"):
        if any(marker in head for marker in _ILLUSTRATOR_MARKERS):
            return FileFormat.AI
        first_line = data.split(b"\n", 1)[0]
        return FileFormat.EPS if b"EPSF" in first_line else None
    if is_svg(data):
        return FileFormat.SVG
    return None
