"""The import's two shortcuts, both exact: an entry whose digests (its text's and its
files') are the ones stored is skipped unread, and new companies that touch nothing
existing are inserted a batch at a time (a handful of statements for the batch, where one
company at a time takes dozens). Anything else goes through the company-at-a-time path
of directory/importing/importer.py.
"""

import hashlib
import os
import uuid
from collections import Counter
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from directory.catalogue.models import Asset, Company, Domain, Logo, Variant, VariantKind
from directory.editing.services import StoredFile, domain_list_changed, images_changed
from directory.files.formats import CONTENT_TYPES
from directory.files.previews import RENDERABLE
from directory.importing.models import ImportDigest


def text_digest(text: bytes) -> str:
    """SHA-256 of an entry's text as the file gives it: the same entry written otherwise
    (spaces, key order) is imported again, and found unchanged."""
    return hashlib.sha256(text).hexdigest()


def files_digest(raw, base: Path | str) -> str | None:
    """SHA-256 of what the file system says of every file an entry names (size,
    modification time, inode), with the logo and variant it is named for: no file is
    read, as `make` and `rsync` judge a file unchanged. None when the entry's shape is not
    the expected one (then it is not skipped, and validation says what is wrong) or a file
    cannot be found (the entry is then imported, and fails with the reason). A file
    rewritten in place to the same size within the file system's clock tick goes
    unnoticed: --recheck reads every file again.

    The first reading makes it for every entry of the file, a million at a country's
    scale: one pass over the entry, one hash of the lines joined (what hashing them one
    by one gives), at half the cost of listing the files first."""
    if not isinstance(raw, dict):
        return None
    logos = raw.get("logos", [])
    if not isinstance(logos, list):
        return None
    root = str(base) + os.sep
    # Read once, not per file: a setting is a lookup through Django's lazy object.
    largest = settings.CATALOGUE_FILE_MAX_BYTES
    seen = []
    for logo in logos:
        if not isinstance(logo, dict):
            return None
        files = logo.get("files", [])
        if not isinstance(files, list):
            return None
        slug = repr(logo.get("slug"))
        for file in files:
            name = file.get("path") if isinstance(file, dict) else None
            if not isinstance(name, str):
                return None
            # Only looked at, never stored: a match means the entry passed the full checks
            # of _read_files (symbolic links resolved) when it was imported.
            if ".." in name or name.startswith(os.sep):
                path = os.path.normpath(os.path.join(root, name))
                if not path.startswith(root):
                    return None
            else:  # inside the folder as written: what normpath() would say, at a tenth of it
                path = root + name
            try:
                stat = os.stat(path)
            except (OSError, ValueError):  # ValueError: a NUL in the name
                return None
            if stat.st_size > largest:
                return None
            seen.append(
                f"{slug} {file.get('variant')!r} {name}\n"
                f"{stat.st_size} {stat.st_mtime_ns} {stat.st_ino}\n"
            )
    return hashlib.sha256("".join(seen).encode()).hexdigest()


def _renderable(stored: list[StoredFile]) -> bool:
    return any(item.format in RENDERABLE for item in stored)


def insertable(entries: list[dict], files: list[dict[str, StoredFile]], sectors: dict) -> list:
    """For each entry, whether it can go in by companies_insert: a new company whose
    logos and domains exist nowhere yet (in the catalogue or elsewhere in the batch),
    with a known sector and one file per format and variant."""
    slugs = Counter(entry["slug"] for entry in entries)
    logo_slugs = Counter(logo["slug"] for entry in entries for logo in entry["logos"])
    domains = Counter(domain for entry in entries for domain in entry["domains"])
    taken_companies = set(
        Company.objects.filter(slug__in=list(slugs)).values_list("slug", flat=True)
    )
    taken_logos = set(Logo.objects.filter(slug__in=list(logo_slugs)).values_list("slug", flat=True))
    taken_domains = set(
        Domain.objects.filter(domain__in=list(domains)).values_list("domain", flat=True)
    )

    def fits(entry: dict, stored: dict[str, StoredFile]) -> bool:
        if slugs[entry["slug"]] > 1 or entry["slug"] in taken_companies:
            return False
        if entry["sector"] and entry["sector"] not in sectors:
            return False
        if any(domains[d] > 1 or d in taken_domains for d in entry["domains"]):
            return False
        for logo in entry["logos"]:
            if logo_slugs[logo["slug"]] > 1 or logo["slug"] in taken_logos:
                return False
            kinds = [(file["variant"], stored[file["path"]].format) for file in logo["files"]]
            if len(kinds) != len(set(kinds)):
                return False
        return True

    return [fits(entry, stored) for entry, stored in zip(entries, files, strict=True)]


def companies_insert(
    entries: list[dict], files: list[dict[str, StoredFile]], digests: list, sectors: dict
) -> None:
    """Inserts new companies with their domains, logos, variants and files, in one
    statement per table; previews and colours are left pending (directory/importing/derived.py)."""
    companies, domains, logos, variants, assets = [], [], [], [], []
    for entry, stored in zip(entries, files, strict=True):
        company = Company(
            id=uuid.uuid4(),
            slug=entry["slug"],
            name=entry["name"],
            alternative_names=entry["alternativeNames"],
            entity_type=entry["entityType"],
            is_verified=entry["isVerified"],
            sector_id=sectors[entry["sector"]] if entry["sector"] else None,
            province=entry["province"],
            about=entry["about"] or None,
            website=entry["website"],
            location=entry["location"],
            founded_year=entry["foundedYear"],
        )
        companies.append(company)
        domains += [Domain(domain=domain, company=company) for domain in entry["domains"]]
        for item in entry["logos"]:
            logo, logo_variants, logo_assets = _logo(company, item, stored)
            if item["isCurrent"]:
                company.current_logo_id = logo.id  # checked at commit (deferred key)
            logos.append(logo)
            variants += logo_variants
            assets += logo_assets
    for model, rows in (
        (Company, companies),
        (Domain, domains),
        (Logo, logos),
        (Variant, variants),
        (Asset, assets),
    ):
        rows_copy(model, rows)
    digests_store(list(zip([company.id for company in companies], digests, strict=True)))
    # What the models' signals do for a single save (directory/apps.py), once for the batch.
    domain_list_changed()
    images_changed()


def digests_store(digests: list[tuple[object, tuple]]) -> None:
    """Stores the (text, files) digests of each company (id, digests) as just imported;
    "" for one that could not be made, which no entry's digest equals."""
    ImportDigest.objects.bulk_create(
        [
            ImportDigest(company_id=company_id, text=text or "", files=files or "")
            for company_id, (text, files) in digests
        ],
        update_conflicts=True,
        unique_fields=["company"],
        update_fields=["text", "files"],
    )


def rows_copy(model, rows: list) -> None:
    """Inserts model instances with one COPY: what bulk_create() writes (the fields'
    defaults and automatic dates, database-made columns left out), without building and
    parsing one statement holding every value. Triggers fire as for an INSERT."""
    if not rows:
        return
    connection = connections[DEFAULT_DB_ALIAS]  # not the proxy: asked once per value
    fields = [
        field
        for field in model._meta.concrete_fields
        if not field.generated
        and not (field.primary_key and getattr(rows[0], field.attname) is None)
    ]
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(
                [field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields]
            )


def _logo(company: Company, entry: dict, stored: dict[str, StoredFile]) -> tuple:
    era = entry.get("era") or {"from": None, "to": None, "label": None}
    by_variant: dict = {}
    for file in entry["files"]:
        by_variant.setdefault(file["variant"], []).append(stored[file["path"]])
    logo = Logo(
        id=uuid.uuid4(),
        company=company,
        slug=entry["slug"],
        title=entry["title"],
        is_current=entry["isCurrent"],
        is_product=entry["isProduct"],
        era_from=era["from"],
        era_to=era["to"],
        era_label=era["label"],
        description=entry["description"] or None,
        preview_pending=_renderable(by_variant.get(None, [])),
    )
    variants: dict[str, Variant] = {}
    for item in sorted(entry["variants"], key=lambda v: v["kind"] != VariantKind.TYPE):
        variants[item["key"]] = Variant(
            id=uuid.uuid4(),
            logo=logo,
            key=item["key"],
            kind=item["kind"],
            name=item["name"],
            parent=variants[item["parent"]] if item["parent"] else None,
            preview_pending=_renderable(by_variant.get(item["key"], [])),
        )
    assets = []
    for key, items in by_variant.items():
        for item in items:
            asset = Asset(
                logo=logo,
                variant=variants[key] if key else None,
                format=item.format,
                size=item.size,
                sha256=item.sha256,
                content_type=CONTENT_TYPES[item.format],
            )
            asset.file.name = item.name
            assets.append(asset)
    return logo, list(variants.values()), assets
