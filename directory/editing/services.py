"""Writes to the catalogue. The import, the admin and later the proposal review
all go through these functions, so files, previews and the current-logo facts
stay consistent however the catalogue changes."""

import contextlib
import hashlib
import logging
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage, storages
from django.db import connection, transaction
from django.utils import timezone

from directory.catalogue.models import FORMAT_ORDER, Asset, Company, FileFormat, Logo, Variant
from directory.catalogue.selectors import DOMAINS_GENERATION_KEY
from directory.colors.extraction import ColorError, extract_colors
from directory.files.formats import CONTENT_TYPES, detect_format
from directory.files.previews import RENDERABLE, PreviewError, render_preview
from directory.images.logolink import images_new_generation

logger = logging.getLogger(__name__)


class CatalogueError(Exception):
    """A catalogue change that cannot be made, with a reason fit for an operator."""


@dataclass(frozen=True)
class StoredFile:
    """A file already in storage, named by its content, ready to be attached."""

    name: str
    format: FileFormat
    size: int
    sha256: str


def file_store(*, data: bytes) -> StoredFile:
    """Puts a logo file into private storage under a name derived from its bytes.

    Call it outside any transaction: with object storage it is network I/O. The
    same bytes always get the same name, so a retried or repeated import uploads
    nothing new.
    """
    file_format = detect_format(data)
    if file_format is None:
        raise CatalogueError("not a recognised SVG, PNG, PDF, AI, EPS or ZIP file")
    digest = hashlib.sha256(data).hexdigest()
    name = f"logos/{digest[:2]}/{digest}.{file_format.lower()}"
    content = ContentFile(data)
    # Object stores keep a content type per object: ours, from the bytes, never a guess.
    content.content_type = CONTENT_TYPES[file_format]
    stored_once(default_storage, name, content)
    return StoredFile(name=name, format=file_format, size=len(data), sha256=digest)


def asset_attach(*, logo: Logo, variant: Variant | None, stored: StoredFile) -> tuple[Asset, bool]:
    """The logo's file of that format and variant becomes `stored`; True if anything changed."""
    asset = Asset.objects.filter(logo=logo, variant=variant, format=stored.format).first()
    if asset is not None and asset.sha256 == stored.sha256:
        return asset, False
    if asset is None:
        asset = Asset(logo=logo, variant=variant, format=stored.format)
    asset.file.name = stored.name
    asset.size = stored.size
    asset.sha256 = stored.sha256
    asset.content_type = CONTENT_TYPES[stored.format]
    asset.save()
    siblings = list(Asset.objects.filter(logo=logo, variant=variant))
    if main_file(siblings) == asset:  # only a new preview source needs a new drawing
        _preview_after_commit(logo_id=logo.id, variant_id=variant.id if variant else None)
        if variant is None:  # colours come from the main variant's main file
            _colors_after_commit(logo=logo)
    return asset, True


# Set inside derived_deferred(), per thread.
_deferred = threading.local()


@contextlib.contextmanager
def derived_deferred() -> Iterator[None]:
    """Inside it, previews and colours are left pending (Logo/Variant.preview_pending,
    Logo.colors_computed_at null) instead of drawn after each commit: the import draws
    them all afterwards, on every core (directory/importing/derived.py). Until then the API
    shows no preview (or the previous one) and colours as not computed yet."""
    outer = getattr(_deferred, "on", False)
    _deferred.on = True
    try:
        yield
    finally:
        _deferred.on = outer


def _is_deferred() -> bool:
    return getattr(_deferred, "on", False)


def _preview_after_commit(*, logo_id, variant_id) -> None:
    if _is_deferred():
        target = (
            Variant.objects.filter(pk=variant_id) if variant_id else Logo.objects.filter(pk=logo_id)
        )
        target.update(preview_pending=True)
        return
    # robust: a preview that cannot be drawn or stored is logged, never undoes the change.
    transaction.on_commit(
        lambda: preview_refresh(logo_id=logo_id, variant_id=variant_id), robust=True
    )


def asset_delete(*, asset: Asset) -> None:
    """Removes a file from its logo; the stored bytes stay (other assets may share them)."""
    logo_id, variant_id = asset.logo_id, asset.variant_id
    asset.delete()
    _preview_after_commit(logo_id=logo_id, variant_id=variant_id)


def logo_create(logo: Logo, *, current: bool = False) -> Logo:
    """Inserts `logo`, a new logo of its company (unsaved, as a form or a caller built it),
    made its company's current logo if `current`: the one way a logo is added. Inserted
    current, it costs one logo row and one pass of its search triggers, where inserting it
    and then making it current (logo_make_current) writes the row twice. It has no files
    yet, so no colours to read: they are known (none) until its main file is attached,
    which makes them pending and has them read (asset_attach)."""
    logo.is_current = current
    logo.colors_computed_at = timezone.now()
    with transaction.atomic(savepoint=False):
        if current:
            _company_point_at(logo=logo)
        logo.save(force_insert=True)
    if current:
        logo.company.current_logo = logo
    return logo


def _company_point_at(*, logo: Logo) -> None:
    """Points the logo's company at it and unflags its other logos (the partial unique
    index allows one current logo). The company's row is updated first, which takes its
    lock: two staff making logos current at once queue here instead of one failing. Both
    foreign keys on current_logo are checked at commit, so the logo may be inserted after."""
    Company.objects.filter(pk=logo.company_id).update(current_logo=logo)
    Logo.objects.filter(company_id=logo.company_id, is_current=True).exclude(pk=logo.pk).update(
        is_current=False
    )


def logo_make_current(*, logo: Logo) -> bool:
    """Makes `logo` its company's current logo; True if that changed anything."""
    company = logo.company
    if logo.is_current and company.current_logo_id == logo.id:
        return False
    # No savepoint of its own: whatever fails here fails the caller's transaction anyway.
    with transaction.atomic(savepoint=False):
        _company_point_at(logo=logo)
        _logo_flag_current(logo=logo)
    logo.is_current = True
    company.current_logo = logo
    return True


def _logo_flag_current(*, logo: Logo) -> None:
    """Flags the logo current, and has its colours read after the commit if they are
    pending: the company's colours are now this logo's. A logo whose colours are read
    already (flagged in a second statement) is the rarer case: a new one has none."""
    pending = Logo.objects.filter(pk=logo.pk, colors_computed_at__isnull=True)
    if not pending.update(is_current=True):
        Logo.objects.filter(pk=logo.pk).update(is_current=True)
    elif not _is_deferred():
        transaction.on_commit(lambda: logo_colors_refresh(logo_id=logo.id), robust=True)
    images_changed()


def logo_unset_current(*, logo: Logo) -> bool:
    if not logo.is_current:
        return False
    with transaction.atomic():
        Logo.objects.filter(pk=logo.pk).update(is_current=False)
        Company.objects.filter(pk=logo.company_id, current_logo=logo).update(current_logo=None)
        images_changed()
    logo.is_current = False
    return True


def main_file(assets: list[Asset]) -> Asset | None:
    candidates = [asset for asset in assets if asset.format in RENDERABLE]
    return min(candidates, key=lambda asset: FORMAT_ORDER[asset.format], default=None)


def read_file(asset: Asset) -> bytes:
    with default_storage.open(asset.file.name, "rb") as handle:
        return handle.read()


def _preview_store(*, source: Asset) -> str | None:
    try:
        png = render_preview(read_file(source), source.format)
    except PreviewError as exc:
        logger.warning("no preview for asset %s: %s", source.id, exc)
        return None
    return preview_save(logo_id=source.logo_id, png=png)


def preview_save(*, logo_id, png: bytes) -> str:
    """Stores a drawn preview of one of the logo's files; its name in the previews storage."""
    name = f"{logo_id}/{hashlib.sha256(png).hexdigest()[:20]}.png"
    stored_once(storages["previews"], name, ContentFile(png))
    return name


@contextlib.contextmanager
def one_writer(name: str) -> Iterator[None]:
    """Holds `name` for one writer at a time, across threads and processes: a PostgreSQL
    advisory lock, the one lock every worker of every process already shares."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [name])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [name])


def stored_once(storage, name: str, content: ContentFile) -> None:
    """Puts `content` under `name` unless all of it is there already.

    A process killed while writing a file leaves it cut short under its final name;
    such a copy is written again. Writers of one name take turns (`one_writer`): on a
    local disk FileSystemStorage creates the file under its final name before writing
    it, so without turns a second writer of the same new file (an import's, two staff
    approving one proposal) would take the first one's copy, half-written, for one cut
    short and delete it under them. Object stores put an object whole or not at all."""
    with one_writer(name):
        if storage.exists(name):
            if storage.size(name) == content.size:
                return
            storage.delete(name)
        storage.save(name, content)


def preview_refresh(*, logo_id, variant_id=None) -> None:
    """Redraws the preview of a logo (from its main-variant file) or of one variant.

    Runs after commit and outside any transaction: rendering and storage are slow.
    """
    assets = list(Asset.objects.filter(logo_id=logo_id, variant_id=variant_id))
    source = main_file(assets)
    name = _preview_store(source=source) if source else None
    target = (
        Variant.objects.filter(pk=variant_id) if variant_id else Logo.objects.filter(pk=logo_id)
    )
    target.update(preview=name, preview_pending=False)


def _colors_after_commit(*, logo: Logo) -> None:
    # Pending until read again: the colours endpoint says so instead of showing old ones.
    Logo.objects.filter(pk=logo.pk).update(colors_computed_at=None, color_palette=[])
    images_changed()  # a monogram's colour is the brand colour
    if not _is_deferred():
        transaction.on_commit(lambda: logo_colors_refresh(logo_id=logo.id), robust=True)


def logo_colors_refresh(*, logo_id) -> list[str]:
    """Reads a logo's brand colours from its main file and stores them.

    Runs after commit and outside any transaction (reading the file and drawing it are
    slow); a logo without a readable SVG or PNG gets no colours, and is done.
    """
    source = main_file(list(Asset.objects.filter(logo_id=logo_id, variant__isnull=True)))
    colors: list[str] = []
    if source is not None:
        try:
            colors = extract_colors(read_file(source), source.format)
        except ColorError as exc:
            logger.warning("no colours for asset %s: %s", source.id, exc)
    Logo.objects.filter(pk=logo_id).update(color_palette=colors, colors_computed_at=timezone.now())
    images_changed()
    return colors


# -- the domain list ----------------------------------------------------------------------

# What a company's entries in the domain list show besides its staff-kept domains.
DOMAIN_LIST_FIELDS = frozenset({"website", "slug", "name"})


def domain_list_changed() -> None:
    """Once the current transaction commits (at once outside one), the domain list and
    the domain lookups answer from the catalogue again instead of the cache
    (selectors.domain_list). Called for every write that changes a domain or whose
    company a domain names: see directory/apps.py."""
    # robust: a cache that cannot be reached must not undo the write; the list is then
    # rebuilt when its five minutes are up.
    transaction.on_commit(_domains_new_generation, robust=True)


def _domains_new_generation() -> None:
    cache.set(DOMAINS_GENERATION_KEY, uuid.uuid4().hex, None)
    images_new_generation()  # the Logo Link finds companies by their domains


# -- the Logo Link ------------------------------------------------------------------------


def images_changed() -> None:
    """Once the current transaction commits (at once outside one), the Logo Link resolves
    its addresses again (logolink.picture_for): for every write that changes what an
    address draws, through the models' signals (directory/apps.py) or called here."""
    transaction.on_commit(images_new_generation, robust=True)


def catalogue_saved(sender, instance, **kwargs) -> None:
    images_changed()


def domain_saved(sender, instance, **kwargs) -> None:
    domain_list_changed()


def company_saved(sender, instance: Company, created: bool, update_fields=None, **kwargs) -> None:
    """A company's website is one of its domains, and every entry names the company."""
    if created:
        if instance.website:
            domain_list_changed()
    elif update_fields is None or DOMAIN_LIST_FIELDS & set(update_fields):
        domain_list_changed()


def company_deleted(sender, instance: Company, **kwargs) -> None:
    # Its staff-kept domains go with it, each with its own signal.
    if instance.website:
        domain_list_changed()
