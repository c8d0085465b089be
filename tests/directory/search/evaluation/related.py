"""Related set: queries for `related=true` search, and the kinds of business they mean.

Each query names the groups (`related_catalogue.Company.group`) that a good answer belongs
to: one company of an `expected` group in the top three is a hit. `acceptable` lists
neighbouring groups that are fair answers too, and are not counted against precision;
any other company listed counts against it. The query words mostly do not appear in the
companies' names, so hits must come from meaning. `KINDS` says what each kind tests.

The queries were written over the catalogue, without looking at how search is
implemented and before running them. Split: within each kind, in the order they were
written, queries go alternately to DEV and TEST (first to DEV), so both halves have the
same size and the same mix of kinds. Tune on DEV; report on TEST. The queries are in
related.json.
"""

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Query:
    text: str
    expected: frozenset[str]
    acceptable: frozenset[str] = frozenset()
    kind: str = ""


def queries(rows: list[dict]) -> tuple[Query, ...]:
    """Queries as the JSON files of this package write them."""
    return tuple(
        Query(
            row["text"],
            frozenset(row["expected"]),
            frozenset(row.get("acceptable", ())),
            row["kind"],
        )
        for row in rows
    )


_DATA = json.loads(Path(__file__).with_name("related.json").read_text(encoding="utf-8"))

KINDS: dict[str, str] = _DATA["kinds"]
DEV: tuple[Query, ...] = queries(_DATA["dev"])
TEST: tuple[Query, ...] = queries(_DATA["test"])
