"""Catalogue for the related set: invented companies for searching by meaning.

Most names are brand-like and do not say what the company does, so a related search can
only place a company through its `about` text (about 60% Spanish, 40% English, a few in
Catalan or Galician) and its broad sector, which several groups share, so the sector alone
does not give the answer. `group` is the kind of business, which the queries in
`related.py` ask for; the last companies belong to groups that no query asks for, and
are there to be left out. Every company is made up; any likeness to a real one is chance.
It was written without looking at how search is implemented. The data is in
related_catalogue.json: the sectors (slug: name), then the companies group by group.
"""

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Company:
    slug: str
    name: str
    sector: str | None
    province: str | None
    about: str
    group: str


_FILE = Path(__file__).with_name("related_catalogue.json")
_DATA = json.loads(_FILE.read_text(encoding="utf-8"))

SECTORS: dict[str, str] = _DATA["sectors"]
COMPANIES: tuple[Company, ...] = tuple(Company(**row) for row in _DATA["companies"])
