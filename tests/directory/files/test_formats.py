import pytest

from directory.files.formats import detect_format
from tests.factories import EPS_BYTES, PDF_BYTES, ZIP_BYTES, png_bytes, svg_bytes

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&lol2;</text></svg>"""


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (svg_bytes(), "SVG"),
        (b"\xef\xbb\xbf<?xml version='1.0'?>\n" + svg_bytes(), "SVG"),
        (png_bytes(), "PNG"),
        (PDF_BYTES, "PDF"),
        (b"%PDF-1.6\n<</AIMetaData 3 0 R>>\n%%EOF", "AI"),
        (b"%!PS-Adobe-3.0\n%AI5_FileFormat 14.0\n", "AI"),
        (EPS_BYTES, "EPS"),
        (b"\xc5\xd0\xd3\xc6" + b"\x00" * 26, "EPS"),
        (ZIP_BYTES, "ZIP"),
    ],
)
def test_it_recognises_each_format_by_its_bytes(data, expected):
    assert detect_format(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"hello",
        b"<html><body/></html>",
        b'<svg width="1"/>',  # no SVG namespace
        b"<svg xmlns='http://www.w3.org/2000/svg'>",  # not well-formed
        b"%!PS-Adobe-3.0\nshowpage\n",  # PostScript, not EPS
        b"\xff\xd8\xff\xe0JFIF",  # JPEG is not a catalogue format
        BILLION_LAUGHS,
    ],
)
def test_it_recognises_nothing_else(data):
    assert detect_format(data) is None
