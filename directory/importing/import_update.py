"""The import's set-based path for companies already in the catalogue whose entry
changed only in what their rows say (names, "about", a logo's title or era...): a few
statements for the whole batch, where the company-at-a-time path of directory/importing/importer.py
takes dozens per company. An entry that would add or move anything (a new logo, variant,
file or domain, the current flag) is left to that path, which says what it does.

It writes exactly what that path writes: the changed fields and `updated_at` of the
changed rows, the digests of every entry, and the same after-commit work (the domain list,
the Logo Link, the companies' vectors).
"""

from collections import Counter
from dataclasses import dataclass, field

from django.utils import timezone

from directory.catalogue.models import Asset, Company, Domain, Logo, Variant
from directory.editing.services import (
    DOMAIN_LIST_FIELDS,
    StoredFile,
    domain_list_changed,
    images_changed,
)
from directory.importing.import_batch import digests_store
from directory.search.embeddings import company_embedding_stale


@dataclass
class _Plan:
    company: Company
    company_fields: list[str]
    logos: list[tuple[Logo, list[str]]] = field(default_factory=list)


def company_values(entry: dict, sector_id) -> dict:
    """A company's fields as its catalogue entry gives them."""
    return {
        "name": entry["name"],
        "alternative_names": entry["alternativeNames"],
        "entity_type": entry["entityType"],
        "is_verified": entry["isVerified"],
        "sector_id": sector_id,
        "province": entry["province"],
        "about": entry["about"] or None,
        "website": entry["website"],
        "location": entry["location"],
        "founded_year": entry["foundedYear"],
    }


def logo_values(entry: dict) -> dict:
    era = entry.get("era") or {"from": None, "to": None, "label": None}
    return {
        "title": entry["title"],
        "is_product": entry["isProduct"],
        "era_from": era["from"],
        "era_to": era["to"],
        "era_label": era["label"],
        "description": entry["description"] or None,
    }


def _changed(instance, values: dict) -> list[str]:
    changed = [name for name, value in values.items() if getattr(instance, name) != value]
    for name in changed:
        setattr(instance, name, values[name])
    return changed


class _Existing:
    """What the catalogue holds of a batch's entries, read in one query per table."""

    def __init__(self, entries: list[dict]):
        slugs = [entry["slug"] for entry in entries]
        self.companies = {
            company.slug: company
            for company in Company.objects.select_for_update(of=("self",))
            .filter(slug__in=slugs)
            .order_by("id")
        }
        domains = [domain for entry in entries for domain in entry["domains"]]
        self.domains = dict(
            Domain.objects.filter(domain__in=domains).values_list("domain", "company_id")
        )
        logo_slugs = [logo["slug"] for entry in entries for logo in entry["logos"]]
        self.logos = {logo.slug: logo for logo in Logo.objects.filter(slug__in=logo_slugs)}
        logo_ids = [logo.id for logo in self.logos.values()]
        self.variants: dict = {}
        for variant in Variant.objects.filter(logo_id__in=logo_ids).select_related("parent"):
            self.variants.setdefault(variant.logo_id, {})[variant.key] = variant
        self.assets: dict = {}
        for logo_id, variant_id, file_format, sha256 in Asset.objects.filter(
            logo_id__in=logo_ids
        ).values_list("logo_id", "variant_id", "format", "sha256"):
            self.assets[(logo_id, variant_id, file_format)] = sha256


def _logo_plan(
    existing: _Existing, company: Company, entry: dict, files: dict[str, StoredFile] | None
) -> tuple[Logo, list[str]] | None:
    logo = existing.logos.get(entry["slug"])
    if logo is None or logo.company_id != company.id:
        return None
    if entry["isCurrent"] != logo.is_current or (
        entry["isCurrent"] and company.current_logo_id != logo.id
    ):
        return None
    variants = existing.variants.get(logo.id, {})
    for item in entry["variants"]:
        variant = variants.get(item["key"])
        parent = variant.parent.key if variant is not None and variant.parent else None
        if variant is None or (variant.kind, variant.name, parent) != (
            item["kind"],
            item["name"],
            item["parent"],
        ):
            return None
    seen = set()
    # None: the files are those of the last import, named for the same logos and
    # variants (their digest is the one stored), so the assets made of them then stand.
    for item in entry["files"] if files is not None else ():
        stored = files[item["path"]]
        variant_id = variants[item["variant"]].id if item["variant"] else None
        key = (logo.id, variant_id, stored.format)
        if key in seen or existing.assets.get(key) != stored.sha256:
            return None
        seen.add(key)
    return logo, _changed(logo, logo_values(entry))


def _plan(
    existing: _Existing, entry: dict, files: dict[str, StoredFile] | None, sectors: dict
) -> _Plan | None:
    company = existing.companies.get(entry["slug"])
    if company is None or (entry["sector"] and entry["sector"] not in sectors):
        return None
    if any(existing.domains.get(domain) != company.id for domain in entry["domains"]):
        return None
    logos = []
    for item in entry["logos"]:
        logo = _logo_plan(existing, company, item, files)
        if logo is None:
            return None
        logos.append(logo)
    sector_id = sectors[entry["sector"]] if entry["sector"] else None
    return _Plan(company, _changed(company, company_values(entry, sector_id)), logos)


def companies_update(items: list[tuple], sectors: dict) -> dict[int, str]:
    """Updates the companies of `items` ((position, entry, digests, files)) that this path
    can take, a statement per table and set of fields changed; their status (updated or
    unchanged) by position. The others are left out, for the company-at-a-time path.
    `files` None: the entry's files are those of its last import (_logo_plan)."""
    existing = _Existing([item[1] for item in items])
    # An entry whose company, logo or domain another entry of the batch names too is
    # left to the company-at-a-time path, which takes them in the file's order.
    names = Counter(
        name
        for _, entry, _, _ in items
        for name in (
            f"company {entry['slug']}",
            *(f"logo {logo['slug']}" for logo in entry["logos"]),
            *(f"domain {domain}" for domain in entry["domains"]),
        )
    )
    plans, digests = {}, []
    for position, entry, digest, files in items:
        if (
            names[f"company {entry['slug']}"] > 1
            or any(names[f"logo {logo['slug']}"] > 1 for logo in entry["logos"])
            or any(names[f"domain {domain}"] > 1 for domain in entry["domains"])
        ):
            continue
        plan = _plan(existing, entry, files, sectors)
        if plan is not None:
            plans[position] = plan
            digests.append((plan.company.id, digest))
    if not plans:
        return {}
    now = timezone.now()
    # Rows grouped by the fields they change: a row is written only with its own changes,
    # so that no trigger on a column (a renamed company's search documents) fires for a
    # row whose column is written its own value.
    companies: dict[tuple, list] = {}
    logos: dict[tuple, list] = {}
    for plan in plans.values():
        if plan.company_fields:
            plan.company.updated_at = now
            companies.setdefault((*sorted(plan.company_fields), "updated_at"), []).append(
                plan.company
            )
        for logo, fields in plan.logos:
            if fields:
                logo.updated_at = now
                logos.setdefault((*sorted(fields), "updated_at"), []).append(logo)
    for fields, rows in companies.items():
        Company.objects.bulk_update(rows, fields)
    for fields, rows in logos.items():
        Logo.objects.bulk_update(rows, fields)
    digests_store(digests)
    company_fields = {name for fields in companies for name in fields}
    changed_ids = [company.id for rows in companies.values() for company in rows]
    # What the models' signals and the company-at-a-time path do, once for the batch.
    if changed_ids:
        company_embedding_stale(company_ids=changed_ids)
    if company_fields & DOMAIN_LIST_FIELDS:
        domain_list_changed()
    if changed_ids or logos:
        images_changed()
    return {
        position: "updated" if plan.company_fields or any(f for _, f in plan.logos) else "unchanged"
        for position, plan in plans.items()
    }
