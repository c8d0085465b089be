"""Catalogue search: the one place that decides what matches and in which order.

The API and the admin both call it. Matching is accent- and case-insensitive
substring matching on precomputed, folded text columns under GIN trigram
indexes (directory/models.py); the term is folded by the same SQL function.

Ranking (decisions.md): exact name, then name prefix, then trigram similarity,
then name. Alternative names count as names. Logos: current logos first.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import BooleanField, FloatField, IntegerField, Q, QuerySet, Value
from django.db.models.expressions import RawSQL

from config.db_router import catalogue_connection
from directory import selectors
from directory.models import Company, Fold, Logo, Sector

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
# one company_matches/logo_matches give (a test holds them equal), and the total comes
# from the same scan.
#
# Company pages run that statement inside directory_company_page (migration 0005), a
# PL/pgSQL function whose statements are planned once per connection, with two cheaper
# answers beside it: a term that folds to three letters or digits (a fifth of the
# searches, and the broadest) reads precomputed groups of its matches, and a listing
# without a term counts from a per-(sector, province) tally. Triggers keep both exact.
# The function returns the page as JSON, which Python decodes faster than rows.


# How many of the fewest-trigram matches are scored to set the bar: a larger pool
# gives a higher bar and fewer rows to score after it (measured on 100k companies).
# directory_company_page uses the same number.
SEED_POOL = 500


@dataclass(frozen=True)
class _Ranked:
    table: str
    name: str  # folded name column, scored by similarity() and the last tie-breaker
    trigrams: str  # its number of distinct trigrams (a generated column)
    group: str  # an ordering key that comes before the rank tiers (current logos first)
    rows: str  # the summary statement over page(id, position)
    summaries: Callable[[list], list[dict]]  # the same rows for a page chosen elsewhere


_LOGOS = _Ranked(
    "directory_logo",
    "title_fold",
    "title_trigrams",
    "CASE WHEN s.is_current THEN 0 ELSE 1 END",
    selectors.LOGO_SUMMARY_SQL,
    selectors.logo_summaries,
)


def _ranked_page(spec: _Ranked, *, term: str, offset: int, limit: int) -> tuple[list, int]:
    params = {
        "pattern": _like_escape(term),
        "term": term,
        "k": offset + limit,
        "pool": max(SEED_POOL, offset + limit),
        "offset": offset,
        "limit": limit,
    }
    # Identifiers come from this module's constants; every value is a bound parameter.
    sql = f"""
        WITH matches AS MATERIALIZED (
          SELECT s.id, s.{spec.name} AS name, s.{spec.trigrams} AS trigrams,
                 3 * ({spec.group}) + CASE
                   WHEN strpos(s.search_text, chr(31) || directory_fold(%(term)s) || chr(31)) > 0
                     THEN 0
                   WHEN strpos(s.search_text, chr(31) || directory_fold(%(term)s)) > 0 THEN 1
                   ELSE 2 END AS tier
          FROM {spec.table} s
          WHERE s.search_text LIKE '%%' || directory_fold(%(pattern)s) || '%%'
        ), seed AS (
          -- The k best of the rows with the fewest trigrams; scored outside the inner
          -- LIMIT, since a select list is computed before the sort under it.
          SELECT tier, score FROM (
            SELECT tier, similarity(name, directory_fold(%(term)s)) AS score
            FROM (SELECT tier, name FROM matches ORDER BY tier, trigrams LIMIT %(pool)s) fewest
          ) scored ORDER BY tier, score DESC LIMIT %(k)s
        ), bar AS (
          SELECT max(tier) AS tier,
                 min(score) FILTER (WHERE tier = (SELECT max(tier) FROM seed)) AS score
          FROM seed HAVING count(*) >= %(k)s
        ), page AS (
          SELECT m.id, row_number() OVER (
            ORDER BY m.tier, similarity(m.name, directory_fold(%(term)s)) DESC, m.name, m.id
          ) AS position
          FROM matches m LEFT JOIN bar ON true
          WHERE bar.tier IS NULL OR m.tier < bar.tier OR (
            m.tier = bar.tier AND m.trigrams * bar.score
              <= coalesce(array_length(show_trgm(directory_fold(%(term)s)), 1), 0) + 1e-6)
          ORDER BY position OFFSET %(offset)s LIMIT %(limit)s
        )
        SELECT summary.*, (SELECT count(*) FROM matches) AS search_total
        FROM ({spec.rows}) summary
    """  # noqa: S608
    # Raw SQL passes the router by: the catalogue's reads go to the replica when there is one.
    with catalogue_connection().cursor() as cursor:
        cursor.execute(sql, params)
        rows = selectors.summary_rows(cursor)
        if rows:
            total = rows[0]["search_total"]
            for row in rows:
                del row["search_total"]
            return rows, total
        # Past the last page: no row carries the total, so count on its own.
        cursor.execute(
            f"SELECT count(*) FROM {spec.table} s "  # noqa: S608
            "WHERE s.search_text LIKE '%%' || directory_fold(%(pattern)s) || '%%'",
            params,
        )
        return [], cursor.fetchone()[0]


def _plain_page(
    spec: _Ranked, queryset: QuerySet, *, offset: int, limit: int
) -> tuple[list[dict], int]:
    total = queryset.count()
    if offset >= total:
        return [], total
    return spec.summaries(
        list(queryset.values_list("pk", flat=True)[offset : offset + limit])
    ), total


def company_page(
    *, term: str | None, sector: str | None, province: str | None, offset: int, limit: int
) -> tuple[list, int]:
    """Summary rows of one page of company_search, best first, and the exact total.

    One call of directory_company_page (migration 0005): the ranking above, served
    from precomputed groups for three-character terms and from a tally without a term.
    The rows are selectors.company_summaries' with ids as strings, as JSON gives them.
    """
    term = clean_term(term) or None
    with catalogue_connection().cursor() as cursor:
        cursor.execute(
            "SELECT * FROM directory_company_page(%s, %s, %s, %s, %s, %s)",
            (
                term,
                _like_escape(term) if term else None,
                sector or None,
                province or None,
                offset,
                limit,
            ),
        )
        total, rows = cursor.fetchone()
    return json.loads(rows), total


def logo_page(*, term: str | None, offset: int, limit: int) -> tuple[list, int]:
    """Summary rows of one page of logo_search, best first, and the exact total."""
    term = clean_term(term)
    if not term:
        return _plain_page(_LOGOS, logo_search(term=None), offset=offset, limit=limit)
    return _ranked_page(_LOGOS, term=term, offset=offset, limit=limit)
