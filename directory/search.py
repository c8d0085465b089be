"""Catalogue search: the one place that decides what matches and in which order.

The API and the admin both call it. Matching is accent- and case-insensitive
substring matching on precomputed, folded text columns under GIN trigram
indexes (directory/models.py); the term is folded by the same SQL function.

Ranking (decisions.md): exact name, then name prefix, then trigram similarity,
then name. Alternative names count as names. Logos: current logos first.
"""

import re

from django.db.models import BooleanField, FloatField, IntegerField, Q, QuerySet, Value
from django.db.models.expressions import RawSQL

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


def company_matches(queryset: QuerySet[Company], term: str | None) -> QuerySet[Company]:
    """Companies whose name or an alternative name contains `term`, best match first."""
    term = clean_term(term)
    if not term:
        return queryset.order_by("name_fold", "id")
    return (
        queryset.filter(_match('"directory_company"."search_text"', term))
        .alias(
            search_rank=_rank('"directory_company"."search_text"', term),
            search_similarity=_similarity('"directory_company"."name_fold"', term),
        )
        .order_by("search_rank", "-search_similarity", "name_fold", "id")
    )


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
    term = clean_term(term)
    if not term:
        return queryset.order_by("-is_current", "title_fold", "id")
    return (
        queryset.filter(_match('"directory_logo"."search_text"', term))
        .alias(
            search_rank=_rank('"directory_logo"."search_text"', term),
            search_similarity=_similarity('"directory_logo"."title_fold"', term),
        )
        .order_by("-is_current", "search_rank", "-search_similarity", "title_fold", "id")
    )


def logo_search(*, term: str | None) -> QuerySet[Logo]:
    return logo_matches(Logo.objects.all(), term)
