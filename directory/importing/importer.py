"""Imports a catalogue file (format in docs/catalogue.md): idempotent by slug, read one
entry at a time and written a batch of companies per transaction, a bad entry reported
and skipped. Previews, colours and vectors follow in a pass of their own
(directory/importing/derived.py)."""

import json
from array import array
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework import serializers

from directory.catalogue.models import (
    Company,
    Domain,
    EntityType,
    Logo,
    Sector,
    Variant,
    VariantKind,
    normalise_domain,
    validate_domain,
)
from directory.editing.services import (
    CatalogueError,
    StoredFile,
    asset_attach,
    derived_deferred,
    file_store,
    logo_create,
    logo_make_current,
    logo_unset_current,
)
from directory.importing.catalogue_stream import StreamError, catalogue_element_text
from directory.importing.derived import catalogue_derived_complete
from directory.importing.import_batch import (
    companies_insert,
    digests_store,
    files_digest,
    insertable,
    text_digest,
)
from directory.importing.import_survey import (
    Survey,
    catalogue_survey,
    file_stamp,
    stored_digests,
)
from directory.importing.import_update import companies_update, company_values, logo_values
from directory.search.embeddings import company_embedding_deferred, company_embedding_stale

# Files are read, hashed and stored (object storage: network) by this many threads.
FILE_THREADS = 8


class SectorEntry(serializers.Serializer):
    slug = serializers.SlugField(max_length=100)
    name = serializers.CharField(max_length=100)


class EraEntry(serializers.Serializer):
    # "from" is a Python keyword, hence the explicit field names below.
    def get_fields(self):
        return {
            "from": serializers.IntegerField(
                min_value=0, max_value=9999, allow_null=True, default=None
            ),
            "to": serializers.IntegerField(
                min_value=0, max_value=9999, allow_null=True, default=None
            ),
            "label": serializers.CharField(max_length=100, allow_null=True, default=None),
        }

    def validate(self, attrs):
        if attrs["from"] is not None and attrs["to"] is not None and attrs["from"] > attrs["to"]:
            raise serializers.ValidationError("era.from is after era.to")
        return attrs


class VariantEntry(serializers.Serializer):
    key = serializers.SlugField(max_length=120)
    kind = serializers.ChoiceField(choices=VariantKind.values)
    name = serializers.CharField(max_length=120)
    parent = serializers.SlugField(max_length=120, allow_null=True, default=None)


class FileEntry(serializers.Serializer):
    path = serializers.CharField(max_length=1000)
    variant = serializers.SlugField(max_length=120, allow_null=True, default=None)


class LogoEntry(serializers.Serializer):
    slug = serializers.SlugField(max_length=255)
    title = serializers.CharField(max_length=255)
    isCurrent = serializers.BooleanField(default=False)
    isProduct = serializers.BooleanField(default=False)
    era = EraEntry(required=False)
    description = serializers.CharField(allow_null=True, allow_blank=True, default=None)
    variants = VariantEntry(many=True, default=list)
    files = FileEntry(many=True, default=list)

    def validate(self, attrs):
        keys = [variant["key"] for variant in attrs["variants"]]
        if len(keys) != len(set(keys)):
            raise serializers.ValidationError("two variants share a key")
        kinds = {variant["key"]: variant["kind"] for variant in attrs["variants"]}
        for variant in attrs["variants"]:
            parent = variant["parent"]
            if parent is not None and (
                variant["kind"] != VariantKind.VERSION or kinds.get(parent) != VariantKind.TYPE
            ):
                raise serializers.ValidationError(
                    f"variant {variant['key']}: only a VERSION has a parent, "
                    "and it must be a TYPE of this logo"
                )
        for file in attrs["files"]:
            if file["variant"] is not None and file["variant"] not in kinds:
                raise serializers.ValidationError(
                    f"file {file['path']}: unknown variant {file['variant']}"
                )
        return attrs


class CompanyEntry(serializers.Serializer):
    slug = serializers.SlugField(max_length=255)
    name = serializers.CharField(max_length=255)
    alternativeNames = serializers.ListField(
        child=serializers.CharField(max_length=255), default=list
    )
    entityType = serializers.ChoiceField(choices=EntityType.values, default=EntityType.COMPANY)
    isVerified = serializers.BooleanField(default=False)
    sector = serializers.SlugField(max_length=100, allow_null=True, default=None)
    province = serializers.CharField(max_length=120, allow_null=True, default=None)
    about = serializers.CharField(allow_null=True, allow_blank=True, default=None)
    website = serializers.URLField(max_length=500, allow_null=True, default=None)
    location = serializers.CharField(max_length=255, allow_null=True, default=None)
    foundedYear = serializers.CharField(max_length=16, allow_null=True, default=None)
    domains = serializers.ListField(child=serializers.CharField(max_length=253), default=list)
    logos = LogoEntry(many=True, default=list)

    def validate_domains(self, value):
        domains = sorted({normalise_domain(domain) for domain in value})
        for domain in domains:
            try:
                validate_domain(domain)
            except DjangoValidationError as exc:
                raise serializers.ValidationError(exc.messages) from None
        return domains

    def validate(self, attrs):
        slugs = [logo["slug"] for logo in attrs["logos"]]
        if len(slugs) != len(set(slugs)):
            raise serializers.ValidationError("two logos share a slug")
        if sum(logo["isCurrent"] for logo in attrs["logos"]) > 1:
            raise serializers.ValidationError("more than one logo is current")
        return attrs


@dataclass(slots=True)
class EntryResult:
    position: int
    slug: str | None
    status: str  # created, updated, unchanged or failed
    reason: str = ""


@dataclass
class ImportReport:
    # The entries read again (imported, or failed), and the sectors that failed.
    results: list[EntryResult] = field(default_factory=list)
    # The entries skipped unread, unchanged since their last import: counted, not listed,
    # so that a report does not grow with the file.
    skipped: int = 0

    def count(self, status: str) -> int:
        skipped = self.skipped if status == "unchanged" else 0
        return skipped + sum(result.status == status for result in self.results)

    @property
    def failed(self) -> list[EntryResult]:
        return [result for result in self.results if result.status == "failed"]


def _reason(errors) -> str:
    if isinstance(errors, dict):
        return "; ".join(f"{key}: {_reason(value)}" for key, value in errors.items())
    if isinstance(errors, list):
        return "; ".join(_reason(error) for error in errors if error)
    return str(errors)


def _update(instance, values: dict) -> bool:
    """Sets changed fields and saves only them; True when something changed."""
    changed = [name for name, value in values.items() if getattr(instance, name) != value]
    for name in changed:
        setattr(instance, name, values[name])
    if changed:
        fields = [*changed, "updated_at"] if hasattr(instance, "updated_at") else changed
        instance.save(update_fields=fields)
    return bool(changed)


def _read_files(entry: dict, base: Path) -> dict[str, StoredFile]:
    """Every file of the entry, checked and stored before the transaction opens."""
    stored = {}
    for logo in entry["logos"]:
        for file in logo["files"]:
            path = (base / file["path"]).resolve()
            if not path.is_relative_to(base):
                raise CatalogueError(f"file {file['path']}: outside the catalogue's folder")
            if not path.is_file():
                raise CatalogueError(f"file {file['path']}: not found")
            if path.stat().st_size > settings.CATALOGUE_FILE_MAX_BYTES:
                raise CatalogueError(f"file {file['path']}: larger than the import allows")
            try:
                stored[file["path"]] = file_store(data=path.read_bytes())
            except CatalogueError as exc:
                raise CatalogueError(f"file {file['path']}: {exc}") from None
    return stored


def _import_logo(company: Company, entry: dict, files: dict[str, StoredFile]) -> bool:
    values = logo_values(entry)
    logo = Logo.objects.filter(slug=entry["slug"]).first()
    if logo is not None and logo.company_id != company.id:
        raise CatalogueError(f"logo {entry['slug']}: belongs to another company")
    created = logo is None
    if created:
        logo = logo_create(
            Logo(company=company, slug=entry["slug"], **values), current=entry["isCurrent"]
        )
        changed = True
    else:
        changed = _update(logo, values)

    variants = {variant.key: variant for variant in logo.variants.all()}
    for item in sorted(entry["variants"], key=lambda v: v["kind"] != VariantKind.TYPE):
        parent = variants[item["parent"]] if item["parent"] else None
        wanted = {"kind": item["kind"], "name": item["name"], "parent": parent}
        if item["key"] in variants:
            changed |= _update(variants[item["key"]], wanted)
        else:
            variants[item["key"]] = Variant.objects.create(logo=logo, key=item["key"], **wanted)
            changed = True

    seen = set()
    for item in entry["files"]:
        stored = files[item["path"]]
        variant = variants[item["variant"]] if item["variant"] else None
        if (item["variant"], stored.format) in seen:
            raise CatalogueError(f"logo {entry['slug']}: two {stored.format} files for one variant")
        seen.add((item["variant"], stored.format))
        changed |= asset_attach(logo=logo, variant=variant, stored=stored)[1]

    if created:  # inserted current or not, as the entry says
        return changed
    logo.company = company
    if entry["isCurrent"]:
        changed |= logo_make_current(logo=logo)
    else:
        changed |= logo_unset_current(logo=logo)
    return changed


def _import_company(entry: dict, files: dict[str, StoredFile]) -> str:
    sector = None
    if entry["sector"]:
        sector = Sector.objects.filter(slug=entry["sector"]).first()
        if sector is None:
            raise CatalogueError(f"unknown sector {entry['sector']}")
    values = company_values(entry, sector.id if sector else None)
    with transaction.atomic():
        company = Company.objects.select_for_update().filter(slug=entry["slug"]).first()
        created = company is None
        if created:
            company = Company.objects.create(slug=entry["slug"], **values)
            changed = True
        else:
            changed = _update(company, values)
        if changed:
            company_embedding_stale(company_ids=[company.id])
        for domain in entry["domains"]:
            owner = (
                Domain.objects.filter(domain=domain).values_list("company_id", flat=True).first()
            )
            if owner is None:
                Domain.objects.create(domain=domain, company=company)
                changed = True
            elif owner != company.id:
                raise CatalogueError(f"domain {domain}: belongs to another company")
        for logo in entry["logos"]:
            changed |= _import_logo(company, logo, files)
    if created:
        return "created"
    return "updated" if changed else "unchanged"


def _sector_member(path: Path, report: ImportReport):
    """What the first reading does with a top-level member other than a company entry:
    imports a sector, refuses a "sectors" or "companies" that is not a list."""

    def member(key: str, position: int | None, value) -> None:
        if key not in ("sectors", "companies"):
            return
        if position is None:
            raise CatalogueError(f"{path}: 'sectors' and 'companies' must be lists")
        entry = SectorEntry(data=value)
        if not entry.is_valid():
            reason = f"sector {position}: {_reason(entry.errors)}"
            report.results.append(EntryResult(position, None, "failed", reason))
            return
        sector, created = Sector.objects.get_or_create(
            slug=entry.validated_data["slug"], defaults={"name": entry.validated_data["name"]}
        )
        if not created:
            _update(sector, {"name": entry.validated_data["name"]})

    return member


def _survey(path: Path, report: ImportReport, *, recheck: bool) -> Survey:
    """Reads the whole file once (directory/importing/import_survey.py): imports the
    sectors, wherever they stand, and finds the company entries to import. Reading the
    whole file first also refuses one that is not JSON before any company changes."""
    try:
        return catalogue_survey(path, recheck=recheck, member=_sector_member(path, report))
    except (OSError, UnicodeDecodeError, StreamError) as exc:
        raise CatalogueError(f"{path}: not a readable JSON file ({exc})") from None


def _no_progress(items: Iterable, total: int) -> Iterator:
    return iter(items)


def catalogue_import(
    path: Path,
    *,
    progress: Callable[[Iterable, int], Iterator] = _no_progress,
    recheck: bool = False,
    derived: bool = True,
) -> ImportReport:
    """Imports the catalogue at `path`, then makes what derives from it (previews,
    colours, vectors: catalogue_derived_complete() in directory/importing/derived.py). With
    derived=False, the rows only: the caller runs that pass itself, with its progress.
    Raises CatalogueError only for an unreadable file.

    The file is read twice, one entry at a time: a first time for the sectors and the
    entries to import (the companies' list in pieces, on every core: import_survey.py),
    those whose digests (their text's bytes, their files' stats) are not the ones stored
    at their last import (every entry with `recheck`), then only
    those, again, CATALOGUE_IMPORT_BATCH to a transaction, their files read and stored by
    FILE_THREADS threads, but those of an entry whose files' digest is the one stored: a
    changed text does not read its unchanged files again, unless it goes to the
    company-at-a-time path.
    """
    path = path.resolve()
    report = ImportReport()
    survey = _survey(path, report, recheck=recheck)
    # One serializer validates every entry: what is_valid() does, without copying the
    # nested fields anew for each entry (most of the time a fresh serializer takes).
    validator = CompanyEntry()
    with (
        ThreadPoolExecutor(FILE_THREADS) as pool,
        derived_deferred(),
        # The vectors of the companies changed, made beside the rows.
        company_embedding_deferred(beside=True),
    ):
        imported = (
            result
            for batch in _company_batches(path, survey)
            for result in _batch_import(batch, path.parent, pool, validator)
        )
        for result in progress(_in_order(imported, survey.skipped), survey.companies):
            if result is None:
                report.skipped += 1
            else:
                report.results.append(result)
        if derived:
            catalogue_derived_complete()
    return report


def _company_batches(path: Path, survey: Survey) -> Iterator[list[tuple[int, object]]]:
    """The entries to import, read again from where the first reading found them."""
    with path.open("rb") as handle:
        if file_stamp(handle) != survey.stamp:
            raise CatalogueError(f"{path}: changed while it was being imported")
        batch = []
        for index in range(0, len(survey.todo), 3):
            position, start, end = survey.todo[index : index + 3]
            try:
                text = catalogue_element_text(handle, start, end)
                batch.append((position, json.loads(text), text))
            except (OSError, ValueError) as exc:
                raise CatalogueError(f"{path}: not a readable JSON file ({exc})") from None
            if len(batch) >= settings.CATALOGUE_IMPORT_BATCH:
                yield batch
                batch = []
        if batch:
            yield batch


def _in_order(imported: Iterator[EntryResult], skipped: array) -> Iterator:
    """The results of the entries imported, with a None for each entry skipped (runs of
    (first position, count)), in file order: what the progress counts."""
    runs = ((skipped[index], skipped[index + 1]) for index in range(0, len(skipped), 2))
    run = next(runs, None)
    for result in imported:
        # A run ends at an entry imported: it comes before it whole.
        while run is not None and run[0] < result.position:
            yield from repeat(None, run[1])
            run = next(runs, None)
        yield result
    while run is not None:
        yield from repeat(None, run[1])
        run = next(runs, None)


def _batch_import(batch: list, base: Path, pool, validator: "CompanyEntry") -> list[EntryResult]:
    # Every entry here is imported (the first reading skipped the others): its digests
    # are stored with it.
    results: dict[int, EntryResult] = {}
    todo = []  # (position, slug, validated entry, (text digest, files digest))
    for position, raw, text in batch:
        slug = raw.get("slug") if isinstance(raw, dict) else None
        try:
            entry = validator.run_validation(raw)
        except serializers.ValidationError as exc:
            results[position] = EntryResult(position, slug, "failed", _reason(exc.detail))
            continue
        todo.append((position, slug, entry, (text_digest(text), files_digest(raw, base))))
    stored = stored_digests([item[2]["slug"] for item in todo])
    # An entry whose files' digest is the one stored names the files of its last import,
    # for the same logos and variants: they are not read again (None) unless the
    # company-at-a-time path needs them.
    kept = {
        item[0]
        for item in todo
        if item[3][1] is not None and stored.get(item[2]["slug"], ("", ""))[1] == item[3][1]
    }

    def read(item):
        if item[0] in kept:
            return None
        try:
            return _read_files(item[2], base)
        except CatalogueError as exc:
            return exc

    ready = []
    for item, files in zip(todo, pool.map(read, todo), strict=True):
        if isinstance(files, CatalogueError):
            results[item[0]] = EntryResult(item[0], item[1], "failed", str(files))
        else:
            ready.append((*item, files))
    sectors = dict(Sector.objects.values_list("slug", "id"))
    with transaction.atomic():
        fits = insertable([item[2] for item in ready], [item[4] for item in ready], sectors)
        fast = [item for item, fit in zip(ready, fits, strict=True) if fit]
        rest = [item for item, fit in zip(ready, fits, strict=True) if not fit]
        if fast:
            try:
                with transaction.atomic():
                    companies_insert(
                        [item[2] for item in fast],
                        [item[4] for item in fast],
                        [item[3] for item in fast],
                        sectors,
                    )
                for position, slug, *_ in fast:
                    results[position] = EntryResult(position, slug, "created")
            except IntegrityError:  # a conflict no check foresaw: one at a time says which
                rest = sorted(rest + fast, key=lambda item: item[0])
        if rest:
            try:
                with transaction.atomic():
                    updated = companies_update(
                        [
                            (position, entry, digests, files)
                            for position, _, entry, digests, files in rest
                        ],
                        sectors,
                    )
            except IntegrityError:
                updated = {}
            for position, slug, *_ in rest:
                if position in updated:
                    results[position] = EntryResult(position, slug, updated[position])
        for position, slug, entry, digests, files in rest:
            if position not in results:
                results[position] = _company_result(position, slug, entry, digests, files, base)
    return [results[position] for position, _, _ in batch]


def _company_result(position: int, slug, entry: dict, digests, files, base: Path) -> EntryResult:
    try:
        with transaction.atomic():
            status = _import_company(entry, files or _read_files(entry, base))
            company = Company.objects.values_list("id", flat=True).get(slug=entry["slug"])
            digests_store([(company, digests)])
    except CatalogueError as exc:
        return EntryResult(position, slug, "failed", str(exc))
    except IntegrityError as exc:
        reason = f"conflicts with the catalogue: {str(exc).splitlines()[0]}"
        return EntryResult(position, slug, "failed", reason)
    return EntryResult(position, slug, status)
