import base64
import time
from xml.etree.ElementTree import Element

import pytest
import resvg_py
from defusedxml.ElementTree import fromstring

from common.svg import UnsafeSvg, sanitize_svg
from common.svg_allowlist import ATTRIBUTES, ELEMENTS, PROPERTIES
from tests.factories import png_bytes, raster_bytes

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
OPEN = f'<svg xmlns="{SVG}" xmlns:xlink="{XLINK}" viewBox="0 0 100 100">'

PLAIN_LOGO = f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Generator: some editor -->
<svg xmlns="{SVG}" xmlns:xlink="{XLINK}" viewBox="0 0 120 60" width="120" height="60">
  <title>Acme</title>
  <defs>
    <style>.a{{fill:#c8102e}} .b {{ stroke: #003; stroke-width: 2 }}</style>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#fff"/>
      <stop offset="1" stop-color="#c8102e" stop-opacity="0.5"/>
    </linearGradient>
    <circle id="dot" r="4"/>
  </defs>
  <rect class="a" width="120" height="60" rx="6"/>
  <path class="b" d="M10 50 L60 10 L110 50 Z" fill="url(#g)"/>
  <use href="#dot" x="20" y="20"/>
  <use xlink:href="#dot" x="100" y="20"/>
  <text x="60" y="55" font-family="'Helvetica Neue', Arial" text-anchor="middle">Acme <tspan
    font-weight="bold">Corp</tspan></text>
</svg>""".encode()


def clean(markup: str) -> Element:
    return fromstring(sanitize_svg(f"{OPEN}{markup}</svg>".encode()))


def local_names(root: Element) -> set[str]:
    return {element.tag.rsplit("}", 1)[-1] for element in root.iter()}


def png_data_url(data: bytes, media_type: str = "image/png") -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode()}"


def test_it_keeps_a_plain_logo_and_everything_it_draws():
    root = fromstring(sanitize_svg(PLAIN_LOGO))

    assert root.tag == f"{{{SVG}}}svg"
    assert root.attrib == {"viewBox": "0 0 120 60", "width": "120", "height": "60"}
    assert local_names(root) == {
        "svg",
        "title",
        "defs",
        "style",
        "linearGradient",
        "stop",
        "circle",
        "rect",
        "path",
        "use",
        "text",
        "tspan",
    }
    style = root.find(f".//{{{SVG}}}style")
    assert style.text == ".a{fill:#c8102e}.b{stroke:#003;stroke-width:2}"
    path = root.find(f"{{{SVG}}}path")
    assert path.attrib == {"class": "b", "d": "M10 50 L60 10 L110 50 Z", "fill": "url(#g)"}
    uses = root.findall(f"{{{SVG}}}use")
    assert [use.get("href") or use.get(f"{{{XLINK}}}href") for use in uses] == ["#dot", "#dot"]
    text = root.find(f"{{{SVG}}}text")
    assert "".join(text.itertext()) == "Acme Corp"
    assert text.get("font-family") == "'Helvetica Neue', Arial"


def test_it_writes_a_simple_logo_back_unchanged_but_for_the_spelling_of_empty_tags():
    data = (
        f'<svg xmlns="{SVG}" viewBox="0 0 10 10"><g transform="translate(1,1)">'
        '<rect width="8" height="8" fill="#c00"/><circle cx="4" cy="4" r="2"/></g></svg>'
    ).encode()

    # Empty elements as the standard library writes them: a space before the slash.
    assert sanitize_svg(data) == data.replace(b'"/>', b'" />')


USE_A = '<circle id="a" r="1"/><use href="#a"/>'


def test_it_declares_the_xlink_namespace_only_when_an_xlink_href_is_kept():
    with_xlink = sanitize_svg(f'{OPEN}<circle id="a" r="1"/><use xlink:href="#a"/></svg>'.encode())
    without = sanitize_svg(f"{OPEN}{USE_A}</svg>".encode())

    assert (
        with_xlink
        == (
            f'<svg xmlns="{SVG}" xmlns:xlink="{XLINK}" viewBox="0 0 100 100">'
            '<circle id="a" r="1" /><use xlink:href="#a" /></svg>'
        ).encode()
    )
    assert (
        without
        == (
            f'<svg xmlns="{SVG}" viewBox="0 0 100 100">'
            '<circle id="a" r="1" /><use href="#a" /></svg>'
        ).encode()
    )


def test_it_gives_the_same_bytes_for_the_same_input():
    assert sanitize_svg(PLAIN_LOGO) == sanitize_svg(PLAIN_LOGO)


def test_it_writes_no_xml_declaration_comments_or_processing_instructions():
    data = f'<?xml version="1.0"?><svg xmlns="{SVG}"><!-- hi --><?php x ?><g/></svg>'.encode()

    assert sanitize_svg(data) == f'<svg xmlns="{SVG}"><g /></svg>'.encode()


def test_it_writes_svg_elements_with_a_prefix_as_plain_svg():
    data = b'<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:rect width="1"/></s:svg>'

    assert sanitize_svg(data) == f'<svg xmlns="{SVG}"><rect width="1" /></svg>'.encode()


def test_it_escapes_text_and_attribute_values_it_writes():
    data = f'<svg xmlns="{SVG}"><text font-family="&quot;A&quot;">a &lt;b&gt; &amp; c</text></svg>'

    assert sanitize_svg(data.encode()) == data.encode()


def test_it_renders_the_sanitised_logo_with_resvg():
    png = resvg_py.svg_to_bytes(svg_string=sanitize_svg(PLAIN_LOGO).decode(), width=64)

    assert bytes(png).startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize(
    "markup",
    [
        "<script>alert(1)</script>",
        "<g><g><script>alert(1)</script></g></g>",
        "<script><![CDATA[alert(document.cookie)]]></script>",
        '<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>',
        '<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>',
        '<script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script>',
        '<g xmlns="">alert(1)<script>alert(1)</script></g>',
    ],
)
def test_it_drops_scripts_wherever_and_however_they_are_written(markup):
    output = sanitize_svg(f"{OPEN}<rect width='1'/>{markup}</svg>".encode())

    assert "script" not in local_names(fromstring(output))
    assert b"alert" not in output
    assert b"<rect" in output


@pytest.mark.parametrize("handler", ["onload", "onclick", "ONLOAD", "onMouseOver", "onbegin"])
def test_it_drops_event_handlers_in_any_case(handler):
    root = clean(f'<g {handler}="alert(1)"><rect {handler}="alert(1)" width="1"/></g>')

    for element in root.iter():
        assert not any(name.lower().startswith("on") for name in element.attrib)
    assert root.find(f"{{{SVG}}}g/{{{SVG}}}rect").get("width") == "1"


def test_it_drops_an_event_handler_on_the_root():
    data = f'<svg xmlns="{SVG}" onload="alert(1)" viewBox="0 0 1 1"/>'.encode()

    assert sanitize_svg(data) == f'<svg xmlns="{SVG}" viewBox="0 0 1 1" />'.encode()


def test_it_allows_no_event_handler_attribute_at_all():
    assert not [name for name in ATTRIBUTES | PROPERTIES if name.lower().startswith("on")]
    assert not {"script", "foreignObject", "a", "animate", "set", "feImage"} & ELEMENTS


def test_it_drops_foreign_object_with_its_html():
    root = clean(
        '<foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml">'
        '<iframe src="https://evil/"/><img src="x" onerror="alert(1)"/></body></foreignObject>'
    )

    assert local_names(root) == {"svg"}


@pytest.mark.parametrize(
    "markup",
    [
        '<a xlink:href="javascript:alert(1)"><rect width="10" height="10"/></a>',
        '<a href="https://evil/"><text>click</text></a>',
        '<iframe src="https://evil/"/>',
        '<embed src="https://evil/x.swf"/>',
        '<object data="https://evil/x"/>',
        '<audio src="https://evil/x.mp3"/>',
        '<video src="https://evil/x.mp4"/>',
        "<metadata><rdf>anything</rdf></metadata>",
        '<sodipodi:namedview xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"/>',
        "<blink>new element</blink>",
    ],
)
def test_it_drops_links_embedded_documents_and_unknown_elements_whole(markup):
    assert local_names(clean(markup)) == {"svg"}


@pytest.mark.parametrize(
    "markup",
    [
        '<animate attributeName="href" to="javascript:alert(1)" begin="0s"/>',
        '<a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a>',
        '<set attributeName="onmouseover" to="alert(1)"/>',
        '<rect width="1"><set attributeName="fill" to="url(https://evil/)"/></rect>',
        '<animateTransform attributeName="transform" type="rotate" from="0" to="360"/>',
        '<animateMotion path="M0 0 L1 1"/>',
    ],
)
def test_it_drops_animation_since_it_can_rewrite_any_attribute(markup):
    root = clean(markup)

    assert not {"animate", "set", "animateTransform", "animateMotion"} & local_names(root)
    assert b"javascript" not in sanitize_svg(f"{OPEN}{markup}</svg>".encode())


@pytest.mark.parametrize(
    "href",
    [
        "https://evil/x.png",
        "//evil/x.png",
        "x.png",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "data:image/svg+xml;base64,"
        + base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').decode(),
        "data:image/png,%89PNG",  # not base64
    ],
)
@pytest.mark.parametrize("attribute", ["href", "xlink:href"])
def test_it_drops_an_image_that_is_not_an_embedded_raster(attribute, href):
    root = clean(f'<image {attribute}="{href}" width="10" height="10"/><rect width="1"/>')

    assert local_names(root) == {"svg", "rect"}


def test_it_drops_an_image_without_a_reference():
    assert local_names(clean('<image width="10" height="10"/>')) == {"svg"}


@pytest.mark.parametrize(
    ("media_type", "data"),
    [
        ("image/png", png_bytes()),
        ("image/jpeg", raster_bytes("JPEG")),
        ("image/webp", raster_bytes("WEBP")),
        ("image/gif", raster_bytes("GIF")),
    ],
)
def test_it_keeps_an_embedded_raster_image_whose_bytes_are_that_format(media_type, data):
    url = png_data_url(data, media_type)

    image = clean(f'<image href="{url}" width="64" height="32"/>').find(f"{{{SVG}}}image")

    assert image.attrib == {"href": url, "width": "64", "height": "32"}


def test_it_writes_an_embedded_raster_in_canonical_form():
    encoded = base64.b64encode(png_bytes()).decode()
    wrapped = "\n".join(encoded[i : i + 40] for i in range(0, len(encoded), 40))

    image = clean(f'<image xlink:href=" DATA:image/PNG;Base64,{wrapped}"/>').find(f"{{{SVG}}}image")

    assert image.get(f"{{{XLINK}}}href") == f"data:image/png;base64,{encoded}"


@pytest.mark.parametrize(
    "data",
    [
        b"not a png at all",
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 40,  # the signature, then nothing that decodes
        raster_bytes("JPEG"),  # a real image, but not the declared one
        png_bytes()[:60],  # truncated
    ],
)
def test_it_drops_an_embedded_image_whose_bytes_are_not_the_declared_raster(data):
    assert local_names(clean(f'<image href="{png_data_url(data)}"/>')) == {"svg"}


@pytest.mark.parametrize(
    "href",
    [
        "https://evil/sprite.svg#x",
        "sprite.svg#x",
        "javascript:alert(1)",
        "data:image/svg+xml;base64,PHN2Zy8+#x",
        "#xpointer(id('a'))",
    ],
)
@pytest.mark.parametrize("attribute", ["href", "xlink:href"])
def test_it_drops_a_use_that_points_outside_the_file(attribute, href):
    root = clean(f'<circle id="a" r="1"/><use {attribute}="{href}"/>')

    assert local_names(root) == {"svg", "circle"}


def test_it_drops_a_gradient_that_inherits_from_outside_the_file():
    root = clean('<linearGradient id="g" href="https://evil/g.svg#h"/><rect fill="url(#g)"/>')

    assert local_names(root) == {"svg", "rect"}


def test_it_drops_an_href_on_an_element_that_draws_nothing_with_it():
    rect = clean('<rect href="https://evil/" width="1"/>').find(f"{{{SVG}}}rect")

    assert rect.attrib == {"width": "1"}


@pytest.mark.parametrize(
    "style",
    [
        "fill:url(https://evil)",
        "fill:url('https://evil/x.svg#a')",
        "fill: URL(https://evil)",
        "fill:u\\72l(https://evil)",
        "fill:u/**/rl(https://evil)",
        "fill:expression(alert(1))",
        "fill:javascript:alert(1)",
        "fill:java\tscript:alert(1)",
        "fill:image-set('https://evil/x.png' 1x)",
        "fill:var(--x)",
        "behavior:url(x.htc)",
        "-moz-binding:url(https://evil/x.xml#b)",
        "background-image:url(https://evil/x.png)",
    ],
)
def test_it_drops_a_style_declaration_that_could_fetch_or_run(style):
    rect = clean(f'<rect style="{style}; stroke: blue" width="1"/>').find(f"{{{SVG}}}rect")

    assert rect.attrib == {"style": "stroke:blue", "width": "1"}


def test_it_reads_a_style_as_a_browser_does_so_a_brace_swallows_what_follows():
    rect = clean('<rect style="fill:red}body{display:none; stroke: blue" width="1"/>').find(
        f"{{{SVG}}}rect"
    )

    assert rect.attrib == {"width": "1"}


def test_it_keeps_style_declarations_with_local_references_and_colours():
    rect = clean(
        """<rect style="fill:url(#g); stroke:rgb(0, 0, 255) !important; opacity:.5;
        transform:rotate(45deg); mask:url('#m'); cursor:pointer" width="1"/>"""
    ).find(f"{{{SVG}}}rect")

    assert rect.get("style") == (
        "fill:url(#g);stroke:rgb(0, 0, 255)!important;opacity:.5;"
        'transform:rotate(45deg);mask:url("#m")'
    )


@pytest.mark.parametrize(
    ("attribute", "value"),
    [
        ("fill", "url(https://evil/#a)"),
        ("filter", "url(https://evil/f.svg#f)"),
        ("clip-path", "url(x.svg#c)"),
        ("mask", "url(data:image/svg+xml;base64,PHN2Zy8+)"),
        ("fill", "javascript:alert(1)"),
        ("class", "a javascript:alert(1)"),
        ("transform", "translate(1) expression(alert(1))"),
        ("fill", "red;background:url(https://evil)"),
    ],
)
def test_it_drops_an_attribute_whose_value_refers_outside_the_file(attribute, value):
    rect = clean(f'<rect {attribute}="{value}" width="1"/>').find(f"{{{SVG}}}rect")

    assert rect.attrib == {"width": "1"}


@pytest.mark.parametrize(
    "attribute",
    [
        'xlink:title="x"',
        'xml:lang="en"',
        'inkscape:label="x" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"',
        f's:fill="red" xmlns:s="{SVG}"',
        'data-x="1"',
        'tabindex="0"',
        'requiredExtensions="x"',
    ],
)
def test_it_drops_namespaced_and_unknown_attributes(attribute):
    rect = clean(f'<rect {attribute} width="1"/>').find(f"{{{SVG}}}rect")

    assert rect.attrib == {"width": "1"}


def test_it_keeps_xml_space_with_a_valid_value_only():
    root = clean('<text xml:space="preserve"> a </text><text xml:space="evil">b</text>')

    first, second = root.findall(f"{{{SVG}}}text")
    assert first.attrib == {"{http://www.w3.org/XML/1998/namespace}space": "preserve"}
    assert first.text == " a "
    assert second.attrib == {}


def test_it_drops_at_rules_and_keeps_the_rules_after_them():
    style = clean(
        "<style>@import url(https://evil/x.css); .a{fill:red}"
        "@font-face{font-family:x;src:url(https://evil/f.woff)}"
        "@media screen{.b{fill:url(https://evil/)}} .c{stroke:blue}</style>"
    ).find(f"{{{SVG}}}style")

    assert style.text == ".a{fill:red}.c{stroke:blue}"


@pytest.mark.parametrize(
    "css",
    [
        "* {display:none}",
        "body {visibility:hidden}",
        "div.a {fill:red}",
        "rect[fill] {fill:red}",
        "rect:hover {fill:red}",
        ".a, html {fill:red}",
        ".a\\ b {fill:red}",
        ".a {fill:url(https://evil/)}",
        ".a {behavior:url(x.htc)}",
    ],
)
def test_it_drops_a_style_rule_with_a_complex_selector_or_no_safe_declaration(css):
    root = clean(f"<style>{css} .z{{fill:blue}}</style>")

    assert root.find(f"{{{SVG}}}style").text == ".z{fill:blue}"


def test_it_keeps_simple_selectors_of_svg_elements_classes_and_ids():
    style = clean(
        "<style><![CDATA[g > .a, #logo rect.b{fill:red} text+tspan{font-weight:bold}]]></style>"
    ).find(f"{{{SVG}}}style")

    assert style.text == "g > .a,#logo rect.b{fill:red}text+tspan{font-weight:bold}"


def test_it_drops_a_style_element_left_with_no_rules():
    root = clean("<style>@import url(https://evil/x.css);</style><rect width='1'/>")

    assert local_names(root) == {"svg", "rect"}


def test_it_keeps_the_text_around_a_dropped_element_inside_text():
    text = clean("<text>Ac<a href='https://evil/'>x</a>me <tspan>Corp</tspan>!</text>").find(
        f"{{{SVG}}}text"
    )

    assert "".join(text.itertext()) == "Acme Corp!"


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&lol9;</text></svg>"""


def test_it_refuses_a_billion_laughs_without_expanding_it():
    started = time.monotonic()

    with pytest.raises(UnsafeSvg):
        sanitize_svg(BILLION_LAUGHS)

    assert time.monotonic() - started < 1


@pytest.mark.parametrize(
    "data",
    [
        b'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
        b'<!DOCTYPE svg [<!ENTITY % p SYSTEM "https://evil/x.dtd"> %p;]>'
        b'<svg xmlns="http://www.w3.org/2000/svg"/>',
        b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
        b'"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'
        b'<svg xmlns="http://www.w3.org/2000/svg"/>',
    ],
)
def test_it_refuses_a_document_type_declaration_and_external_entities(data):
    with pytest.raises(UnsafeSvg):
        sanitize_svg(data)


@pytest.mark.parametrize(
    "data",
    [
        b"<html><body><svg xmlns='http://www.w3.org/2000/svg'/></body></html>",
        b'<svg width="1"/>',  # no SVG namespace
        b'<svg xmlns="http://www.w3.org/1999/xhtml"/>',
        b'<g xmlns="http://www.w3.org/2000/svg"/>',
    ],
)
def test_it_refuses_a_root_that_is_not_svg_in_the_svg_namespace(data):
    with pytest.raises(UnsafeSvg):
        sanitize_svg(data)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not xml",
        b"<svg xmlns='http://www.w3.org/2000/svg'>",
        b"<svg xmlns='http://www.w3.org/2000/svg'><g></svg>",
        b"<svg xmlns='http://www.w3.org/2000/svg' a='1' a='2'/>",
        b"\x89PNG\r\n\x1a\n",
    ],
)
def test_it_refuses_malformed_xml(data):
    with pytest.raises(UnsafeSvg):
        sanitize_svg(data)


def test_it_is_a_value_error_so_callers_can_treat_it_as_bad_input():
    assert issubclass(UnsafeSvg, ValueError)


def test_it_refuses_a_document_nested_deeper_than_any_logo():
    data = f'<svg xmlns="{SVG}">{"<g>" * 500}{"</g>" * 500}</svg>'.encode()

    with pytest.raises(UnsafeSvg, match="nested"):
        sanitize_svg(data)
