"""Reads of the catalogue that the API (and the site) reuse."""

import contextlib
import json
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.files.storage import storages
from django.db import DEFAULT_DB_ALIAS, connection
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
from django.db.models.functions import Coalesce
from django.utils import timezone

from common.cache import hash_read, hash_write
from common.db_router import catalogue_connection
from directory.catalogue.models import (
    FORMAT_ORDER,
    Asset,
    Company,
    Domain,
    Logo,
    domain_and_parents,
    normalise_domain,
)

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
    """What a company summary (CompanySummarySerializer) shows, in the same query as the
    page."""
    return queryset.select_related("sector", "current_logo").annotate(
        logo_count=Coalesce(count_per_row(Logo.objects.all(), field="company"), 0)
    )


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


# The detail endpoints show one company or logo with everything under it. Read through
# the ORM's prefetches, that is a query per level and a model instance per row: in
# bench/details.py, in one run, company_find and DRF cost 72 ms a company detail more
# than this statement and its row, over three times the whole in-process request
# (23 ms), and logo_find 99 ms more a logo detail. So here one written-out statement has
# PostgreSQL build the whole tree as JSON, which Python decodes once (as with
# directory_company_page): its keys are the sources of CompanyDetailSerializer and
# LogoDetailSerializer, which show it (api/rows.py). company_find and logo_find
# serve the website and proposals, which want instances; the orders here are theirs
# (logos as company_find sorts them, variants by Variant.Meta.ordering, files by
# ASSET_ORDER, formats in contract order). tests/directory/catalogue/test_rows.py shows both
# through the same serializers and finds the same answers, and holds the keys equal to
# the sources.
_COMPANY_DETAIL_SQL = """
SELECT json_build_object(
  'id', c.id, 'slug', c.slug, 'name', c.name, 'entity_type', c.entity_type,
  'is_verified', c.is_verified,
  'sector', CASE WHEN s.id IS NULL THEN NULL
                 ELSE json_build_object('slug', s.slug, 'name', s.name) END,
  'province', c.province, 'about', c.about, 'website', c.website, 'location', c.location,
  'founded_year', c.founded_year, 'current_logo_id', c.current_logo_id,
  'logos', coalesce((
    SELECT json_agg(json_build_object(
      'id', l.id, 'slug', l.slug, 'title', l.title, 'preview', l.preview,
      'is_current', l.is_current, 'is_product', l.is_product, 'era_from', l.era_from,
      'era_to', l.era_to, 'era_label', l.era_label,
      'formats', ARRAY(
        SELECT a.format FROM directory_asset a WHERE a.logo_id = l.id GROUP BY a.format
        ORDER BY array_position(%(format_order)s::text[], a.format::text))
    ) ORDER BY l.is_current DESC, l.era_from DESC NULLS LAST, l.title_fold, l.id)
    FROM directory_logo l WHERE l.company_id = c.id), '[]'))::text
FROM directory_company c
LEFT JOIN directory_sector s ON s.id = c.sector_id
WHERE c.slug = %(slug)s
"""
_LOGO_DETAIL_SQL = """
SELECT json_build_object(
  'id', l.id, 'slug', l.slug, 'title', l.title, 'preview', l.preview,
  'is_current', l.is_current, 'is_product', l.is_product, 'era_from', l.era_from,
  'era_to', l.era_to, 'era_label', l.era_label,
  'formats', ARRAY(
    SELECT a.format FROM directory_asset a WHERE a.logo_id = l.id GROUP BY a.format
    ORDER BY array_position(%(format_order)s::text[], a.format::text)),
  'description', l.description,
  'company', json_build_object('id', c.id, 'slug', c.slug, 'name', c.name),
  'color_palette', l.color_palette, 'download_count', l.download_count,
  'variants', coalesce((
    SELECT json_agg(json_build_object(
      'id', v.id, 'kind', v.kind, 'name', v.name, 'parent_id', v.parent_id,
      'preview', v.preview,
      'formats', ARRAY(
        SELECT a.format FROM directory_asset a
        WHERE a.logo_id = l.id AND a.variant_id = v.id GROUP BY a.format
        ORDER BY array_position(%(format_order)s::text[], a.format::text))
    ) ORDER BY v.kind, v.name, v.id)
    FROM directory_variant v WHERE v.logo_id = l.id), '[]'),
  'assets', coalesce((
    SELECT json_agg(json_build_object(
      'id', a.id, 'format', a.format, 'variant_id', a.variant_id, 'size', a.size,
      'content_type', a.content_type
    ) ORDER BY v.kind NULLS FIRST, v.name, a.variant_id,
               array_position(%(format_order)s::text[], a.format::text), a.id)
    FROM directory_asset a LEFT JOIN directory_variant v ON v.id = a.variant_id
    WHERE a.logo_id = l.id), '[]'))::text
FROM directory_logo l
JOIN directory_company c ON c.id = l.company_id
{lookup}
"""
_FORMATS_IN_ORDER = list(FORMAT_ORDER)

# _logo_lookup's rule for the written-out statements: the logo named by id or slug, in
# Logo.Meta.ordering when a slug and an id name two.
_LOGO_LOOKUPS = {
    name: f"WHERE {condition} ORDER BY l.is_current DESC, l.title_fold, l.id LIMIT 1"
    for name, condition in (
        ("slug", "l.slug = %(slug)s"),
        ("id_or_slug", "(l.id = %(id)s OR l.slug = %(slug)s)"),
    )
}


def _logo_lookup_sql(id_or_slug: str) -> tuple[str, dict]:
    """Which of _LOGO_LOOKUPS applies to `id_or_slug`, and its values."""
    try:
        key = uuid.UUID(id_or_slug)
    except ValueError:
        return "slug", {"slug": id_or_slug}
    return "id_or_slug", {"id": key, "slug": id_or_slug}


_LOGO_DETAIL = {
    name: _LOGO_DETAIL_SQL.format(lookup=where) for name, where in _LOGO_LOOKUPS.items()
}


def _detail_row(sql: str, params: dict) -> dict | None:
    with catalogue_connection().cursor() as cursor:
        cursor.execute(sql, {**params, "format_order": _FORMATS_IN_ORDER})
        row = cursor.fetchone()
    return None if row is None else json.loads(row[0])


def company_detail_row(*, slug: str) -> dict | None:
    """The company with this slug, with its sector and its logos (each with its formats),
    decoded from one JSON row; None without such a company."""
    return _detail_row(_COMPANY_DETAIL_SQL, {"slug": slug})


def logo_detail_row(*, id_or_slug: str) -> dict | None:
    """The logo logo_find would give, with its company, formats, variants and files,
    decoded from one JSON row; None without such a logo."""
    lookup, params = _logo_lookup_sql(id_or_slug)
    return _detail_row(_LOGO_DETAIL[lookup], params)


def website_host(website: str | None) -> str | None:
    if not website:
        return None
    return normalise_domain(website) or None


def domain_entries(*, using: str | None = None) -> list[dict]:
    """Every domain with its company: staff-kept domains first, then website hosts."""
    entries: dict[str, dict] = {}
    domains = Domain.objects.using(using) if using else Domain.objects
    for domain, slug, name in domains.order_by("domain").values_list(
        "domain", "company__slug", "company__name"
    ):
        entries[domain] = {"domain": domain, "slug": slug, "name": name}
    companies = Company.objects.using(using) if using else Company.objects
    websites = companies.exclude(website=None).exclude(website="").order_by("slug")
    for website, slug, name in websites.values_list("website", "slug", "name"):
        host = website_host(website)
        if host and host not in entries:
            entries[host] = {"domain": host, "slug": slug, "name": name}
    return sorted(entries.values(), key=lambda entry: entry["domain"])


# The domain list is built from the whole catalogue, so it is kept in the cache: as the
# body of GET /domains, and as a map from each domain to its company's slug (a Redis
# hash: a lookup reads a few fields, never the whole list). Both record the generation
# they were built in; a write that changes a domain starts a new generation after its
# commit (services.domain_list_changed), and whatever was built in an older one is
# rebuilt on its next read, even when the rebuild had started before that commit. The
# five minutes are a backstop for writes that bypass the models (SQL, QuerySet.update).
DOMAINS_GENERATION_KEY = "directory:domains:generation"
DOMAINS_LIST_KEY = "directory:domains:list:v2"
DOMAINS_MAP_KEY = "directory:domains:map:v2"
DOMAINS_REBUILD_SECONDS = 300
# The map's field holding its generation: no domain is the empty string.
_GENERATION_FIELD = ""


def _domains_generation(current: str | None) -> str:
    if current is not None:
        return current
    cache.add(DOMAINS_GENERATION_KEY, uuid.uuid4().hex, None)
    return cache.get(DOMAINS_GENERATION_KEY)


def _domains_rebuild(generation: str | None) -> dict:
    generation = _domains_generation(generation)
    # From the primary: the list is kept until the next write's commit, so it must not
    # come from a replica that has not replayed that commit yet.
    entries = domain_entries(using=DEFAULT_DB_ALIAS)
    body = {
        "generation": generation,
        "data": entries,
        "generatedAt": timezone.now().isoformat(),
    }
    cache.set(DOMAINS_LIST_KEY, body, DOMAINS_REBUILD_SECONDS)
    mapping = {_GENERATION_FIELD: generation}
    mapping.update((entry["domain"], entry["slug"]) for entry in entries)
    hash_write(DOMAINS_MAP_KEY, mapping, timeout=DOMAINS_REBUILD_SECONDS)
    return body


def domain_list() -> dict:
    """{"data": every domain entry, "generatedAt": when the list was built}, from the
    cache while it holds the current generation."""
    cached = cache.get_many([DOMAINS_GENERATION_KEY, DOMAINS_LIST_KEY])
    generation = cached.get(DOMAINS_GENERATION_KEY)
    body = cached.get(DOMAINS_LIST_KEY)
    if body is None or generation is None or body.get("generation") != generation:
        body = _domains_rebuild(generation)
    return {"data": body["data"], "generatedAt": body["generatedAt"]}


def domain_company_slug(domain: str) -> str | None:
    """The slug of the company a normalised domain belongs to, as the domain list has it:
    the domain itself, else its nearest parent down to its registered domain (a
    subdomain falls back to the domain its owner registered when only that is known)."""
    candidates = domain_and_parents(domain)
    values, generation = hash_read(
        DOMAINS_MAP_KEY, [_GENERATION_FIELD, *candidates], along=DOMAINS_GENERATION_KEY
    )
    if values[0] is None or values[0] != generation:
        known = {entry["domain"]: entry["slug"] for entry in _domains_rebuild(generation)["data"]}
        values = [None, *(known.get(candidate) for candidate in candidates)]
    return next((slug for slug in values[1:] if slug), None)


def company_summary_row(*, slug: str) -> dict | None:
    """The company's summary row as search pages read it (directory_company_summary)."""
    with catalogue_connection().cursor() as cursor:
        cursor.execute(
            "SELECT s.summary FROM directory_company c "
            "JOIN directory_company_summary s ON s.company_id = c.id WHERE c.slug = %s",
            [slug],
        )
        row = cursor.fetchone()
    return None if row is None else json.loads(row[0])


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
LEFT JOIN directory_asset a ON a.logo_id = l.id AND a.variant_id IS NULL AND a.format = %(format)s
{lookup}
"""
_MAIN_FILE = {name: _MAIN_FILE_SQL.format(lookup=where) for name, where in _LOGO_LOOKUPS.items()}
# from_db takes values in the order of the model's fields.
_ASSET_FIELDS = ("id", "logo_id", "variant_id", "format", "size", "content_type", "file")


def logo_main_file(*, id_or_slug: str, file_format: str) -> tuple[Logo | None, Asset | None]:
    """logo_for_download, then download_asset for a format of the main variant, in one
    written-out statement: the hot path of downloads, where each ORM query costs more
    CPU than the round trip. (None, None) without the logo; (logo, None) without the file.

    bench/details.py measures it beside the ORM's way (logo_for_download, then
    download_asset) and the whole download request, in one run: 21 ms here against
    124 ms, in a request of 100 ms (2026-11-28, the machine at load 21)."""
    lookup, params = _logo_lookup_sql(id_or_slug)
    with connection.cursor() as cursor:
        cursor.execute(_MAIN_FILE[lookup], {**params, "format": file_format})
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


# -- the Logo Link ------------------------------------------------------------------------


@dataclass(frozen=True)
class SourceFile:
    """A drawable file of a logo: of its main variant (variant_id None) or of a variant."""

    variant_id: str | None
    kind: str | None
    variant_name: str | None
    format: str
    sha256: str
    name: str  # in the default (private) storage


@dataclass(frozen=True)
class ImageSource:
    """What an address of the Logo Link names: a company, and the logo to draw (its
    current one, or the one named) with its drawable files, main variant first."""

    company_slug: str
    company_name: str
    logo_id: str | None
    brand_colors: list[str]
    files: list[SourceFile]

    @property
    def main_files(self) -> list[SourceFile]:
        return [file for file in self.files if file.variant_id is None]


# The company with this slug and its current logo, else the logo with this id or slug
# (_LOGO_LOOKUPS' order) and its company; the logo's SVG and PNG files with their variants.
_IMAGE_SOURCE_SQL = """
WITH pick AS (
  SELECT found.company_id, found.logo_id FROM (
    SELECT c.id AS company_id, c.current_logo_id AS logo_id, 1 AS rank
    FROM directory_company c WHERE c.slug = %(company)s
    UNION ALL
    (SELECT l.company_id, l.id, 2 FROM directory_logo l
     WHERE l.slug = %(logo)s OR l.id = %(logo_id)s
     ORDER BY l.is_current DESC, l.title_fold, l.id LIMIT 1)
  ) found ORDER BY found.rank LIMIT 1
)
SELECT c.slug, c.name, l.id::text,
       CASE WHEN l.colors_computed_at IS NULL THEN '{}' ELSE l.color_palette END,
       coalesce((
         SELECT json_agg(json_build_array(a.variant_id, v.kind, v.name, a.format, a.sha256, a.file))
         FROM directory_asset a LEFT JOIN directory_variant v ON v.id = a.variant_id
         WHERE a.logo_id = l.id AND a.format IN ('SVG', 'PNG')), '[]')::text
FROM pick p
JOIN directory_company c ON c.id = p.company_id
LEFT JOIN directory_logo l ON l.id = p.logo_id
"""
# Main variant first, then colour versions (negative, monochrome...), then other types;
# by name within each; SVG before PNG.
_KIND_ORDER = {None: 0, "VERSION": 1, "TYPE": 2}


def image_source(*, company_slug: str | None, logo: str | None) -> ImageSource | None:
    """The company with slug `company_slug` (its current logo), else the logo with id or
    slug `logo`; None when neither names anything."""
    try:
        logo_id = uuid.UUID(logo) if logo else None
    except ValueError:
        logo_id = None
    # From the primary, not a replica: each process keeps the answer until the next
    # write's commit (logolink.picture_for), so it must not be read from a lagging copy.
    with connection.cursor() as cursor:
        cursor.execute(
            _IMAGE_SOURCE_SQL, {"company": company_slug, "logo": logo, "logo_id": logo_id}
        )
        row = cursor.fetchone()
    if row is None:
        return None
    slug, name, logo_key, palette, files = row
    drawable = [
        SourceFile(
            variant_id=variant_id,
            kind=kind,
            variant_name=variant_name,
            format=file_format,
            sha256=sha256,
            name=file,
        )
        for variant_id, kind, variant_name, file_format, sha256, file in json.loads(files)
    ]
    drawable.sort(
        key=lambda f: (
            _KIND_ORDER.get(f.kind, 3),
            f.variant_name or "",
            f.variant_id or "",
            FORMAT_ORDER[f.format],
        )
    )
    return ImageSource(
        company_slug=slug,
        company_name=name,
        logo_id=logo_key,
        brand_colors=list(palette),
        files=drawable,
    )


def logo_link_examples(*, limit: int) -> list[dict]:
    """A few companies with a current logo, each with the identifier an example of the
    Logo Link uses for it: its website's domain, else its slug."""
    rows = (
        Company.objects.exclude(current_logo=None)
        .order_by("name_fold", "id")
        .values("slug", "name", "website")[:limit]
    )
    return [
        {"name": row["name"], "identifier": website_host(row["website"]) or row["slug"]}
        for row in rows
    ]
