"""Catalogue search: the one place that decides what matches and in which order.

The API, the admin and the website all call this module, and it has one door to the
engine: the page functions. What a term matches and how the matches rank is written
once, in SQL (directory/sql/, docs/search.md): a term is read into a plan of LIKE
patterns (directory_search_plan), every company and logo has a search document those
patterns run against (directory_search_doc), and directory_search_rank orders what
matched. A page function runs that in one call (a PL/pgSQL function, prepared once per
connection, returning the page as JSON and the exact total).
"""

import json
import re

from common.db_router import catalogue_connection
from directory.catalogue.models import FORMAT_ORDER

# Word breaks wherever a term comes from: no one types them on purpose, and PostgreSQL
# refuses NUL in text.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def clean_term(term: str | None) -> str:
    return " ".join(CONTROL_CHARACTERS.sub(" ", term or "").split())


def _page(function: str, term: str | None, *args) -> tuple[list, int]:
    """One call of a page function: the page's summary rows and the exact total."""
    with catalogue_connection().cursor() as cursor:
        # `function` is one of this module's constants; every value is a bound parameter.
        cursor.execute(
            f"SELECT * FROM {function}(%s{', %s' * len(args)})",  # noqa: S608
            (clean_term(term) or None, *args),
        )
        total, rows = cursor.fetchone()
    return json.loads(rows), total


def company_page(
    *, term: str | None, sector: str | None, province: str | None, offset: int, limit: int
) -> tuple[list, int]:
    """Summary rows of one page of company search, best first, and the exact total.

    The rows are directory_company_summary's, ids as strings.
    """
    return _page("directory_company_page", term, sector or None, province or None, offset, limit)


def logo_page(*, term: str | None, offset: int, limit: int) -> tuple[list, int]:
    """Summary rows of one page of logo search, best first, and the exact total.

    The rows have the keys directory_logo_page lists, ids as strings.
    """
    rows, total = _page("directory_logo_page", term, offset, limit)
    for row in rows:
        row["formats"].sort(key=FORMAT_ORDER.__getitem__)
    return rows, total
