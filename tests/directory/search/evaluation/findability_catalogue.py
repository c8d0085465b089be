"""Catalogue for the findability set: invented companies of Spain, searched by name.

Every name is made up (any likeness to a real company is chance). The names are written
as companies write them: accents, ñ, ç, l·l, apostrophes, hyphens, "&", dots and legal
forms in their various spellings, and abbreviations (Hnos., Cía., Sta., Ntra. Sra. ...)
in some names but in full in others. They are in Spanish, Basque, Catalan and Galician.

The companies come in small clusters: a company that a query in `findability.py` looks
for, next to two to four distractors that share a word, the start of a word, a surname
or a place with it. The distractors are what make the set hard. The data is in
findability_catalogue.json, one cluster after another; this module holds no queries, and
the set was written without looking at how search is implemented.
"""

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Company:
    slug: str
    name: str
    alternative_names: tuple[str, ...] = ()


_FILE = Path(__file__).with_name("findability_catalogue.json")
_CLUSTERS = json.loads(_FILE.read_text(encoding="utf-8"))["clusters"]

COMPANIES: tuple[Company, ...] = tuple(
    Company(row["slug"], row["name"], tuple(row.get("alternative_names", ())))
    for cluster in _CLUSTERS
    for row in cluster["companies"]
)
