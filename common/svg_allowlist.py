"""The allow-lists of the SVG sanitiser (common/svg.py), read from common/svg_allowlist.toml:
what a public copy of a logo may hold. Anything not named there is left out of the copy;
adding a name is a decision that it can only draw.
"""

import tomllib
from pathlib import Path

DATA = Path(__file__).with_name("svg_allowlist.toml")
_LISTS = tomllib.loads(DATA.read_text(encoding="utf-8"))

ELEMENTS = frozenset(_LISTS["elements"])
# Character content only: markup inside them is never drawn, so it is not kept either.
TEXT_ONLY = frozenset(_LISTS["text_only"])
# Where text is drawn, so the words around a dropped child still belong to the logo.
MIXED = frozenset(_LISTS["mixed"])
# Elements whose href names another element of the same file; <image> is handled apart.
LOCAL_HREF = frozenset(_LISTS["local_href"])
# Properties allowed both as presentation attributes and in CSS.
PROPERTIES = frozenset(_LISTS["properties"])
ATTRIBUTES = PROPERTIES | frozenset(_LISTS["attributes"])
# Colours, lengths and transforms; anything that could fetch is not here (the .toml).
FUNCTIONS = frozenset(_LISTS["functions"])
