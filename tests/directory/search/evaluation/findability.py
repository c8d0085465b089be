"""Findability set: what people type to find a company by name, and the company they mean.

Each query names the slug of the one company in `findability_catalogue.COMPANIES` that a
careful reader of the catalogue would call the single best answer (other companies share
a word, a surname or a place with it, and are plausible but worse); a hit is that company
in the top three results. Noise queries (`expected=None`) match no company, even allowing
for typos, and should find nothing. `KINDS` says what each kind of query tests.

The queries were written over the catalogue, without looking at how search is
implemented and before running them. Split: within each kind, in the order they were
written, queries go alternately to DEV and TEST (first to DEV), so both halves have the
same size and the same mix of kinds. Tune on DEV; report on TEST. The queries are in
findability.json.
"""

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Query:
    text: str
    expected: str | None
    kind: str


_DATA = json.loads(Path(__file__).with_name("findability.json").read_text(encoding="utf-8"))

KINDS: dict[str, str] = _DATA["kinds"]
DEV: tuple[Query, ...] = tuple(Query(**row) for row in _DATA["dev"])
TEST: tuple[Query, ...] = tuple(Query(**row) for row in _DATA["test"])
