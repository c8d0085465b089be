"""Catalogue search: the one place that decides what matches and in which order.

The API, the admin and the website all call this module. What a term matches and how
the matches rank is written once, in SQL (directory/sql/, docs/search.md): a term is
read into a plan of LIKE patterns (directory_search_plan), every company and logo has a
search document those patterns run against (directory_search_doc), and
directory_search_rank orders what matched. The API's pages run that in one call of a
PL/pgSQL page function (prepared once per connection, returning the page as JSON); the
admin and the website get the same matches, in the same order, as a QuerySet.
"""

import json
import re

from django.db import connection
from django.db.models import BooleanField, IntegerField, Q, QuerySet, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Length

from config.db_router import catalogue_connection
from directory.models import FORMAT_ORDER, Company, Fold, Logo, Sector

# Word breaks wherever a term comes from: no one types them on purpose, and PostgreSQL
# refuses NUL in text.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def clean_term(term: str | None) -> str:
    return " ".join(CONTROL_CHARACTERS.sub(" ", term or "").split())


def _plan(function: str, *args) -> str:
    """The plan a plan function makes (directory_company_search_plan or
    directory_logo_search_plan), as the text of a directory_search_plan."""
    with connection.cursor() as cursor:
        # `function` is one of this module's constants; every value is a bound parameter.
        cursor.execute(f"SELECT {function}({', '.join(['%s'] * len(args))})::text", args)
        return cursor.fetchone()[0]


def _ranked(queryset: QuerySet, plan: str, *, first: tuple[str, ...], name: str) -> QuerySet:
    """The rows of `queryset` that match `plan`, in search order (docs/search.md)."""
    doc = f'"{queryset.model._meta.db_table}"."search_doc"'
    # The table is the model's; the plan is a bound parameter. The lead patterns let the
    # trigram index find the rows.
    matches = RawSQL(  # noqa: S611
        f"{doc} LIKE ANY (directory_search_lead_patterns(%s::directory_search_plan))"
        f" AND directory_search_matches({doc}, %s::directory_search_plan)",
        (plan, plan),
        output_field=BooleanField(),
    )
    rank = RawSQL(  # noqa: S611
        f"directory_search_rank({doc}, %s::directory_search_plan)",
        (plan,),
        output_field=IntegerField(),
    )
    return (
        queryset.filter(matches)
        .alias(search_rank=rank, search_length=Length("search_doc"))
        .order_by(*first, "search_rank", "search_length", name, "id")
    )


def company_matches(queryset: QuerySet[Company], term: str | None) -> QuerySet[Company]:
    """The companies of `queryset` that `term` finds, best first; all of them, by name,
    without a term."""
    term = clean_term(term)
    if not term:
        return queryset.order_by("name_fold", "id")
    plan = _plan("directory_company_search_plan", term, None, None)
    return _ranked(queryset, plan, first=(), name="name_fold")


def company_search(
    *, term: str | None, sector: str | None = None, province: str | None = None
) -> QuerySet[Company]:
    """Company search as a QuerySet, with the API's filters and order."""
    queryset = Company.objects.all()
    sectors = None
    if sector:
        # A sector slug exactly, or its name ignoring accents and case.
        sectors = list(
            Sector.objects.filter(Q(slug=sector) | Q(name_fold=Fold(Value(sector)))).values_list(
                "id", flat=True
            )
        )
        queryset = queryset.filter(sector__in=sectors)
    if province:
        queryset = queryset.filter(province_fold=Fold(Value(province)))
    term = clean_term(term)
    if not term:
        return queryset.order_by("name_fold", "id")
    with connection.cursor() as cursor:
        cursor.execute("SELECT directory_fold(%s)", (province,))
        province_folded = cursor.fetchone()[0]
    plan = _plan("directory_company_search_plan", term, sectors, province_folded)
    return _ranked(queryset, plan, first=(), name="name_fold")


def logo_matches(queryset: QuerySet[Logo], term: str | None) -> QuerySet[Logo]:
    """The logos of `queryset` that `term` finds by title or company name, current logos
    first; all of them, current first, by title, without a term."""
    term = clean_term(term)
    if not term:
        return queryset.order_by("-is_current", "title_fold", "id")
    plan = _plan("directory_logo_search_plan", term)
    return _ranked(queryset, plan, first=("-is_current",), name="title_fold")


def logo_search(*, term: str | None) -> QuerySet[Logo]:
    return logo_matches(Logo.objects.all(), term)


# -- Pages for the API -----------------------------------------------------------------


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
    """Summary rows of one page of company_search, best first, and the exact total.

    The rows are directory_company_summary's, ids as strings.
    """
    return _page("directory_company_page", term, sector or None, province or None, offset, limit)


def logo_page(*, term: str | None, offset: int, limit: int) -> tuple[list, int]:
    """Summary rows of one page of logo_search, best first, and the exact total.

    The rows have the keys directory_logo_page lists, ids as strings.
    """
    rows, total = _page("directory_logo_page", term, offset, limit)
    for row in rows:
        row["formats"].sort(key=FORMAT_ORDER.__getitem__)
    return rows, total
