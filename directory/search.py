"""Catalogue search: the one place that decides what matches and in which order.

The API and the admin both call it. Matching is accent- and case-insensitive
substring matching on precomputed, folded text columns under GIN trigram
indexes (directory/models.py); the term is folded by the same SQL function.

Ranking (decisions.md): exact name, then name prefix, then trigram similarity,
then name. Alternative names count as names. Logos: current logos first.
"""

import json
import re

from django.db.models import BooleanField, FloatField, IntegerField, Q, QuerySet, Value
from django.db.models.expressions import RawSQL

from config.db_router import catalogue_connection
from directory.models import FORMAT_ORDER, Company, Fold, Logo, Sector

# U+001F separates the names inside search_text; other control characters have no
# business in a search term either.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_term(term: str | None) -> str:
    return " ".join(_CONTROL.sub(" ", term or "").split())


def _like_escape(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


# RawSQL below: column names are constants of this module; terms are bound parameters.


def _match(column: str, term: str) -> RawSQL:
    return RawSQL(  # noqa: S611
        f"{column} LIKE '%%' || directory_fold(%s) || '%%'",
        (_like_escape(term),),
        output_field=BooleanField(),
    )


def _rank(column: str, term: str) -> RawSQL:
    """0 when the term is a whole name, 1 when a name starts with it, else 2."""
    escaped = _like_escape(term)
    return RawSQL(  # noqa: S611
        f"CASE WHEN {column} LIKE '%%' || chr(31) || directory_fold(%s) || chr(31) || '%%' THEN 0"
        f" WHEN {column} LIKE '%%' || chr(31) || directory_fold(%s) || '%%' THEN 1 ELSE 2 END",
        (escaped, escaped),
        output_field=IntegerField(),
    )


def _similarity(column: str, term: str) -> RawSQL:
    return RawSQL(  # noqa: S611
        f"similarity({column}, directory_fold(%s))", (term,), output_field=FloatField()
    )


def _ranked_matches(
    queryset: QuerySet, term: str | None, *, table: str, name: str, first: tuple[str, ...] = ()
) -> QuerySet:
    """Rows whose search_text contains `term`, ordered by `first`, then the ranking."""
    term = clean_term(term)
    if not term:
        return queryset.order_by(*first, name, "id")
    return (
        queryset.filter(_match(f'"{table}"."search_text"', term))
        .alias(
            search_rank=_rank(f'"{table}"."search_text"', term),
            search_similarity=_similarity(f'"{table}"."{name}"', term),
        )
        .order_by(*first, "search_rank", "-search_similarity", name, "id")
    )


def company_matches(queryset: QuerySet[Company], term: str | None) -> QuerySet[Company]:
    """Companies whose name or an alternative name contains `term`, best match first."""
    return _ranked_matches(queryset, term, table="directory_company", name="name_fold")


def company_search(
    *, term: str | None, sector: str | None = None, province: str | None = None
) -> QuerySet[Company]:
    queryset = Company.objects.all()
    if sector:
        # A sector slug exactly, or its name ignoring accents and case.
        queryset = queryset.filter(
            sector__in=Sector.objects.filter(Q(slug=sector) | Q(name_fold=Fold(Value(sector))))
        )
    if province:
        queryset = queryset.filter(province_fold=Fold(Value(province)))
    return company_matches(queryset, term)


def logo_matches(queryset: QuerySet[Logo], term: str | None) -> QuerySet[Logo]:
    """Logos whose title or company name contains `term`; current logos first."""
    return _ranked_matches(
        queryset, term, table="directory_logo", name="title_fold", first=("-is_current",)
    )


def logo_search(*, term: str | None) -> QuerySet[Logo]:
    return logo_matches(Logo.objects.all(), term)


# -- Pages for the API -----------------------------------------------------------------
#
# The API asks for one page and the exact total. Ranking every match by similarity()
# costs ~4 µs a row, which is most of a search for a common three-letter term (20k+
# matches in 100k companies). Since similarity = c / (|Tq| + |Tn| - c) with c <= |Tq|,
# a name of |Tn| distinct trigrams scores at most |Tq| / |Tn|. So: score the rows with
# the fewest trigrams, take the k-th best of them (k = rows up to the end of the page)
# as a bar that k rows reach, and score only rows that can still reach it. The order is the
# one company_matches/logo_matches give (tests hold them equal), and the total comes
# from the same scan.
#
# Pages run that statement inside directory_company_page (migration 0005) and
# directory_logo_page (0008), PL/pgSQL functions whose statements are planned once per
# connection, with two cheaper answers beside it: a term that folds to three to five
# letters or digits, without a filter, reads precomputed groups of its matches (such
# terms are the broadest searches, and ranking their matches made the four- and
# five-letter ones the slowest; migration 0013), and a company listing without a term
# counts from a per-(sector, province) tally. Triggers keep both exact. The functions
# return the page as JSON, which Python decodes faster than rows.


def _page(function: str, term: str | None, *filters) -> tuple[list, int]:
    """One call of a page function: the page's summary rows and the exact total."""
    term = clean_term(term) or None
    with catalogue_connection().cursor() as cursor:
        # `function` is one of this module's constants; every value is a bound parameter.
        cursor.execute(
            f"SELECT * FROM {function}(%s, %s{', %s' * len(filters)})",  # noqa: S608
            (term, _like_escape(term) if term else None, *filters),
        )
        total, rows = cursor.fetchone()
    return json.loads(rows), total


def company_page(
    *, term: str | None, sector: str | None, province: str | None, offset: int, limit: int
) -> tuple[list, int]:
    """Summary rows of one page of company_search, best first, and the exact total.

    The rows are directory_company_summary's (migration 0010), ids as strings.
    """
    return _page("directory_company_page", term, sector or None, province or None, offset, limit)


def logo_page(*, term: str | None, offset: int, limit: int) -> tuple[list, int]:
    """Summary rows of one page of logo_search, best first, and the exact total.

    The rows have the keys directory_logo_page (migration 0008) lists, ids as strings.
    """
    rows, total = _page("directory_logo_page", term, offset, limit)
    for row in rows:
        row["formats"].sort(key=FORMAT_ORDER.__getitem__)
    return rows, total
