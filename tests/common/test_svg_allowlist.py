"""The SVG sanitiser's allow-lists (common/svg_allowlist.toml): the shape
common/svg_allowlist.py reads, and nothing in them that runs or fetches."""

import tomllib

from common import svg_allowlist

DATA = tomllib.loads(svg_allowlist.DATA.read_text(encoding="utf-8"))
LISTS = (
    "elements",
    "text_only",
    "mixed",
    "local_href",
    "properties",
    "attributes",
    "functions",
)


def test_it_holds_exactly_the_lists_the_loader_reads_each_name_once():
    assert set(DATA) == set(LISTS)
    for key in LISTS:
        names = DATA[key]
        assert names and all(isinstance(name, str) and name.strip() == name != "" for name in names)
        assert len(set(names)) == len(names), key


def test_it_names_only_kept_elements_as_text_or_local_references():
    kept = set(DATA["elements"])

    assert {*DATA["text_only"], *DATA["mixed"], *DATA["local_href"]} <= kept


def test_it_allows_no_script_no_event_handler_and_no_function_that_fetches():
    assert not {"script", "foreignObject", "iframe", "a"} & svg_allowlist.ELEMENTS
    assert not [name for name in svg_allowlist.ATTRIBUTES if name.lower().startswith("on")]
    assert not {"href", "xlink:href", "src"} & svg_allowlist.ATTRIBUTES
    assert not {"image-set", "image", "src", "attr", "var", "element"} & svg_allowlist.FUNCTIONS
