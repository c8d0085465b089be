"""Reads of the catalogue that the API (and the site) reuse."""

import contextlib
import uuid
from urllib.parse import urlsplit

from django.conf import settings
from django.core.files.storage import storages
from django.db import connection
from django.db.models import (
    Case,
    Count,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)

from config.db_router import catalogue_connection
from directory.models import FORMAT_ORDER, Asset, Company, Domain, Logo, normalise_domain

# Main-variant files first, then each variant's in variant order; formats in contract order.
ASSET_ORDER = (
    F("variant__kind").asc(nulls_first=True),
    "variant__name",
    "variant_id",
    Case(*(When(format=value, then=Value(index)) for value, index in FORMAT_ORDER.items())),
    "id",
)


def company_url(slug: str | None) -> str | None:
    return f"{settings.SITE_URL}/companies/{slug}" if slug else None


def logo_url(slug: str | None) -> str | None:
    return f"{settings.SITE_URL}/logos/{slug}" if slug else None


def preview_url(name: str | None) -> str | None:
    return storages["previews"].url(name) if name else None


def count_per_row(related: QuerySet, *, field: str) -> Subquery:
    """How many `related` rows point at each row, inside the row's own query."""
    return Subquery(
        related.filter(**{field: OuterRef("pk")})
        .order_by()
        .values(field)
        .annotate(n=Count("pk"))
        .values("n")
    )


def with_summary_fields(queryset: QuerySet[Company]) -> QuerySet[Company]:
    """What a company summary shows, in the same query as the page."""
    return queryset.select_related("sector", "current_logo").annotate(
        logo_count=count_per_row(Logo.objects.all(), field="company")
    )


# Search pages are the API's hot path. A summary's columns are read by one fixed
# statement over `page(id, position)`: directory.search builds that relation inside its
# ranking statement (one round trip); company_summaries/logo_summaries build it from ids.
# The summary serializers turn the rows into JSON.
COMPANY_SUMMARY_SQL = """
    SELECT p.position, c.id, c.slug, c.name, c.entity_type, c.is_verified, c.province,
           s.slug AS sector__slug, s.name AS sector__name, c.current_logo_id,
           l.slug AS current_logo__slug, l.title AS current_logo__title,
           l.preview AS current_logo__preview,
           (SELECT count(*) FROM directory_logo n WHERE n.company_id = c.id) AS logo_count
    FROM page p
    JOIN directory_company c ON c.id = p.id
    LEFT JOIN directory_sector s ON s.id = c.sector_id
    LEFT JOIN directory_logo l ON l.id = c.current_logo_id
"""
LOGO_SUMMARY_SQL = """
    SELECT p.position, l.id, l.slug, l.title, l.preview, l.is_current, l.is_product,
           l.era_from, l.era_to, l.era_label, c.slug AS company__slug, c.name AS company__name,
           ARRAY(SELECT DISTINCT a.format FROM directory_asset a WHERE a.logo_id = l.id)
             AS formats
    FROM page p
    JOIN directory_logo l ON l.id = p.id
    JOIN directory_company c ON c.id = l.company_id
"""
_PAGE_OF_IDS = (
    "WITH page AS (SELECT u.id, u.position "
    "FROM unnest(%(ids)s::uuid[]) WITH ORDINALITY AS u(id, position)) "
)


def summary_rows(cursor) -> list[dict]:
    """The rows of a summary statement as dicts, in page order, formats in contract order."""
    names = [column.name for column in cursor.description]
    rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    rows.sort(key=lambda row: row.pop("position"))
    for row in rows:
        if "formats" in row:
            row["formats"] = sorted(row["formats"], key=FORMAT_ORDER.__getitem__)
    return rows


def _summaries(sql: str, ids: list) -> list[dict]:
    if not ids:
        return []
    with catalogue_connection().cursor() as cursor:
        cursor.execute(_PAGE_OF_IDS + sql, {"ids": ids})
        return summary_rows(cursor)


def company_summaries(ids: list) -> list[dict]:
    """Summary rows of these companies, in this order."""
    return _summaries(COMPANY_SUMMARY_SQL, ids)


def logo_summaries(ids: list) -> list[dict]:
    """Summary rows of these logos, in this order, with their formats."""
    return _summaries(LOGO_SUMMARY_SQL, ids)


def _asset_formats() -> Prefetch:
    return Prefetch("assets", queryset=Asset.objects.only("id", "logo_id", "variant_id", "format"))


def company_find(*, slug: str) -> Company | None:
    logos = Logo.objects.order_by(
        "-is_current", F("era_from").desc(nulls_last=True), "title_fold", "id"
    ).prefetch_related(_asset_formats())
    return (
        Company.objects.select_related("sector")
        .prefetch_related(Prefetch("logos", queryset=logos))
        .filter(slug=slug)
        .first()
    )


def _logo_lookup(id_or_slug: str) -> Q:
    try:
        return Q(id=uuid.UUID(id_or_slug)) | Q(slug=id_or_slug)
    except ValueError:
        return Q(slug=id_or_slug)


def logo_find(*, id_or_slug: str) -> Logo | None:
    return (
        Logo.objects.select_related("company")
        .prefetch_related(
            "variants",
            Prefetch("assets", queryset=Asset.objects.order_by(*ASSET_ORDER)),
        )
        .filter(_logo_lookup(id_or_slug))
        .first()
    )


def website_host(website: str | None) -> str | None:
    if not website:
        return None
    return normalise_domain(urlsplit(website).hostname or "") or None


def domain_entries() -> list[dict]:
    """Every domain with its company: staff-kept domains first, then website hosts."""
    entries: dict[str, dict] = {}
    for domain, slug, name in Domain.objects.order_by("domain").values_list(
        "domain", "company__slug", "company__name"
    ):
        entries[domain] = {"domain": domain, "slug": slug, "name": name}
    websites = Company.objects.exclude(website=None).exclude(website="").order_by("slug")
    for website, slug, name in websites.values_list("website", "slug", "name"):
        host = website_host(website)
        if host and host not in entries:
            entries[host] = {"domain": host, "slug": slug, "name": name}
    return sorted(entries.values(), key=lambda entry: entry["domain"])


def company_colors(*, slug: str) -> Company | None:
    return Company.objects.select_related("current_logo").filter(slug=slug).first()


def logo_for_download(*, id_or_slug: str) -> Logo | None:
    return Logo.objects.select_related("company").filter(_logo_lookup(id_or_slug)).first()


def download_asset(
    *, logo: Logo, file_format: str | None, variant: str | None, asset_id=None
) -> Asset | None:
    """The file a download asks for: an exact asset, or a format of a variant (by id or
    name, any case) or of the main variant. None when the logo has no such file."""
    assets = Asset.objects.filter(logo=logo).select_related("variant")
    if asset_id is not None:
        asset = assets.filter(pk=asset_id).first()
    elif variant is None:
        asset = assets.filter(format=file_format, variant__isnull=True).first()
    else:
        by_name = Q(variant__name__iexact=variant)
        with contextlib.suppress(ValueError):
            by_name |= Q(variant_id=uuid.UUID(variant))
        asset = (
            assets.filter(by_name, format=file_format)
            .order_by("variant__kind", "variant__name")
            .first()
        )
    if asset is not None:
        asset.logo = logo  # already loaded, with its company
    return asset


_MAIN_FILE_SQL = """
SELECT l.id, l.slug, l.company_id, c.slug,
       a.id, a.format, a.size, a.content_type, a.file
FROM directory_logo l
JOIN directory_company c ON c.id = l.company_id
LEFT JOIN directory_asset a ON a.logo_id = l.id AND a.variant_id IS NULL AND a.format = %s
WHERE {lookup}
ORDER BY l.is_current DESC, l.title_fold, l.id
LIMIT 1
"""
_MAIN_FILE_BY_ID_OR_SLUG = _MAIN_FILE_SQL.format(lookup="(l.id = %s OR l.slug = %s)")
_MAIN_FILE_BY_SLUG = _MAIN_FILE_SQL.format(lookup="l.slug = %s")
# from_db takes values in the order of the model's fields.
_ASSET_FIELDS = ("id", "logo_id", "variant_id", "format", "size", "content_type", "file")


def logo_main_file(*, id_or_slug: str, file_format: str) -> tuple[Logo | None, Asset | None]:
    """logo_for_download, then download_asset for a format of the main variant, in one
    written-out statement: the hot path of downloads, where each ORM query costs more
    CPU than the round trip. (None, None) without the logo; (logo, None) without the file."""
    try:
        key = uuid.UUID(id_or_slug)
    except ValueError:
        sql, params = _MAIN_FILE_BY_SLUG, [file_format, id_or_slug]
    else:
        sql, params = _MAIN_FILE_BY_ID_OR_SLUG, [file_format, key, id_or_slug]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None, None
    logo_id, logo_slug, company_id, company_slug, *file = row
    db = connection.alias
    logo = Logo.from_db(db, ("id", "slug", "company_id"), (logo_id, logo_slug, company_id))
    logo.company = Company.from_db(db, ("id", "slug"), (company_id, company_slug))
    if file[0] is None:
        return logo, None
    asset = Asset.from_db(db, _ASSET_FIELDS, (file[0], logo_id, None, *file[1:]))
    asset.logo = logo
    return logo, asset
