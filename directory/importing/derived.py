"""The import's derived pass: what is computed from the rows once they are in.

Previews of logos and variants whose preview is pending, brand colours of logos whose
colours are pending (never read, or their main file changed), and the vectors of
companies without one or changed since theirs was made. The import leaves these
pending (services.derived_deferred) and then calls catalogue_derived_complete(), which
draws on every core (common/parallel.py). Until a logo is done the API shows what the
contract says of pending work: no preview (previewUrl null) and colours not cached.

Everything pending is found from the database, not from the import's memory, so an
import stopped half-way and run again finishes what the first one left.
"""

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import islice

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from common.cli import progress as progress_report
from common.parallel import parallel_map
from directory.catalogue.models import Asset, Company, Logo, Variant
from directory.colors.extraction import ColorError, extract_colors
from directory.editing.services import images_changed, main_file, preview_save, read_file
from directory.files.previews import PreviewError, render_preview
from directory.importing.twins import Twins
from directory.search import embeddings

logger = logging.getLogger(__name__)

# Companies embedded at a time, between drawings (embeddings.EMBED_BATCH texts a call).
VECTOR_CHUNK = 256
# Drawings in flight: enough to keep every worker busy while this process embeds a chunk.
DRAW_WINDOW = 128
# Files are read and previews stored (object storage: network) by this many threads.
FILE_THREADS = 8


def _chunk() -> int:
    """Drawings are read and stored as many at a time as the import writes rows."""
    return settings.CATALOGUE_IMPORT_BATCH


@dataclass
class DerivedSummary:
    previews: int = 0
    colours: int = 0
    vectors: int = 0


@dataclass
class _Job:
    """One file to draw: a logo's main file (preview and/or colours) or a variant's."""

    logo_id: object
    variant_id: object = None
    preview: bool = False
    colours: bool = False
    data: bytes | None = None
    format: str = ""
    asset_id: object = None
    # The main file's (sha256, format): jobs with the same are drawn once (twins.py).
    key: tuple | None = None
    notes: list = field(default_factory=list)


def _no_progress(items: Iterable, total: int) -> Iterator:
    return iter(items)


def batched(items: Iterable, size: int) -> Iterator[list]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def _draw(job: _Job) -> tuple[bytes | None, list[str] | None, list[str]]:
    """Runs in a worker: the preview PNG and the colours of the job's file, and what
    could not be drawn."""
    png = colours = None
    if job.data is None:
        return None, [] if job.colours else None, []
    if job.preview:
        try:
            png = render_preview(job.data, job.format)
        except PreviewError as exc:
            job.notes.append(f"no preview for asset {job.asset_id}: {exc}")
    if job.colours:
        try:
            colours = extract_colors(job.data, job.format)
        except ColorError as exc:
            job.notes.append(f"no colours for asset {job.asset_id}: {exc}")
            colours = []
    return png, colours, job.notes


def _jobs(pool: ThreadPoolExecutor, twins: Twins) -> Iterator[_Job]:
    """Every pending drawing but the twins of another (left with `twins`), its file read,
    a chunk of logos at a time (the files of a chunk read by `pool`'s threads: storage
    may be the network)."""
    logos = Logo.objects.filter(Q(preview_pending=True) | Q(colors_computed_at__isnull=True))
    pending = logos.order_by("id").values_list("id", "preview_pending", "colors_computed_at")
    for chunk in batched(pending.iterator(chunk_size=_chunk() * 5), _chunk()):
        files: dict = {}
        for asset in Asset.objects.filter(
            logo_id__in=[logo_id for logo_id, _, _ in chunk], variant__isnull=True
        ):
            files.setdefault(asset.logo_id, []).append(asset)
        yield from _read(
            pool,
            twins,
            [
                (_Job(logo_id, preview=preview, colours=computed_at is None), files.get(logo_id))
                for logo_id, preview, computed_at in chunk
            ],
        )
    variants = Variant.objects.filter(preview_pending=True).order_by("id")
    for chunk in batched(variants.values_list("id", "logo_id").iterator(), _chunk()):
        files = {}
        for asset in Asset.objects.filter(variant_id__in=[variant_id for variant_id, _ in chunk]):
            files.setdefault(asset.variant_id, []).append(asset)
        yield from _read(
            pool,
            twins,
            [
                (_Job(logo_id, variant_id, preview=True), files.get(variant_id))
                for variant_id, logo_id in chunk
            ],
        )


def _read(
    pool: ThreadPoolExecutor, twins: Twins, jobs: list[tuple[_Job, list | None]]
) -> Iterator[_Job]:
    """The jobs with the bytes of their file (the main one of the assets given), but
    those that take a twin's drawing: their file is not even read."""
    drawn: list[tuple[_Job, Asset | None]] = []
    for job, assets in jobs:
        source = main_file(assets or [])
        if source is not None:
            job.format, job.asset_id = source.format, source.id
            job.key = (source.sha256, source.format)
            if twins.attach(job, job.key):
                continue
        drawn.append((job, source))

    def job_read(item: tuple[_Job, Asset | None]) -> _Job:
        job, source = item
        if source is not None:
            job.data = read_file(source)
        return job

    return pool.map(job_read, drawn)


def _pending_count() -> int:
    logos = Logo.objects.filter(Q(preview_pending=True) | Q(colors_computed_at__isnull=True))
    return logos.count() + Variant.objects.filter(preview_pending=True).count()


def _store(done: list[tuple[_Job, bytes | None, list[str] | None]], pool) -> None:
    """Writes what a chunk of jobs drew: the previews by `pool`'s threads, then one
    statement per kind of row and set of fields, where one per job would run the logos'
    statement triggers once per logo."""
    now = timezone.now()
    previews = pool.map(
        lambda item: preview_save(logo_id=item[0].logo_id, png=item[1]) if item[1] else None,
        done,
    )
    groups: dict[tuple, list] = {}
    for (job, _, colours), preview in zip(done, previews, strict=True):
        model = Variant if job.variant_id else Logo
        row = model(pk=job.variant_id or job.logo_id)
        fields = []
        if job.preview:
            row.preview = preview
            row.preview_pending = False
            fields += ["preview", "preview_pending"]
        if job.colours:
            row.color_palette = colours or []
            row.colors_computed_at = now
            fields += ["color_palette", "colors_computed_at"]
        groups.setdefault((model, tuple(fields)), []).append(row)
    for (model, fields), rows in groups.items():
        model.objects.bulk_update(rows, fields)


def _images(summary: DerivedSummary, progress, beside: Iterator, beside_steps: int) -> None:
    """Draws every pending file on the workers; this process stores what they drew and,
    between results, takes the `beside_steps` steps of `beside` (the vectors), spread over
    the drawing so that no core is left alone with them at the end."""
    total = _pending_count()
    every = max(1, total // (beside_steps + 1))
    twins = Twins()
    with ThreadPoolExecutor(FILE_THREADS) as pool:
        drawn = _with_twins(parallel_map(_draw, _jobs(pool, twins), window=DRAW_WINDOW), twins)
        done = []
        for number, (job, png, colours) in enumerate(progress(drawn, total), start=1):
            done.append((job, png, colours))
            if len(done) >= _chunk():
                _store(done, pool)
                done = []
            summary.previews += job.preview
            summary.colours += job.colours
            if number % every == 0:
                # The workers exist by now: the model loads after they were forked.
                next(beside, None)
        _store(done, pool)


def _with_twins(drawn: Iterator, twins: Twins) -> Iterator[tuple[_Job, bytes | None, list | None]]:
    """(job, png, colours) for every job drawn and every twin of one."""
    for job, (png, colours, notes) in drawn:
        for note in notes:
            logger.warning(note)
        yield job, png, colours
        yield from twins.drawn(job, job.key, png, colours)
        yield from twins.ready()
    yield from twins.ready()


def _stale_companies() -> list:
    stale = Company.objects.filter(
        Q(embedding__isnull=True) | Q(updated_at__gt=F("embedding__updated_at"))
    )
    # Sorted here, not by the database: asked for an order, PostgreSQL walks both tables'
    # primary keys, reading every row at random (47 s at 1,000,000 companies, loaded),
    # where unordered it hashes them read in order (7-9 s); the stale are few.
    return sorted(stale.order_by().values_list("id", flat=True))


def _vectors(ids: list, summary: DerivedSummary, progress) -> Iterator[None]:
    """Embeds the companies `ids`, a chunk per step."""
    # Loading the model takes seconds: not for nothing.
    if not ids or embeddings.backend() is None:
        return  # logged once by backend(); `embed_companies` catches up when it is back
    chunks = list(batched(ids, VECTOR_CHUNK))
    for chunk in progress(chunks, len(chunks)):
        summary.vectors += embeddings.company_embedding_refresh(company_ids=chunk).embedded
        yield


def catalogue_derived_complete(
    *, progress: Callable[[Iterable, int, str], Iterator] | None = None
) -> DerivedSummary:
    """Draws every pending preview and colour, embeds every stale company; what it did."""
    summary = DerivedSummary()

    def step(label: str):
        if progress is None:
            return _no_progress
        return lambda items, total: progress(items, total, label)

    ids = _stale_companies()
    vectors = _vectors(ids, summary, step("vectors"))
    _images(summary, step("previews and colours"), vectors, -(-len(ids) // VECTOR_CHUNK))
    for _ in vectors:  # what the drawing left, or all of it when nothing was to draw
        pass
    images_changed()
    return summary


def catalogue_derived_complete_reported(*, stream) -> DerivedSummary:
    """catalogue_derived_complete() for a command: its progress, and a line saying when
    everything is done, on `stream` (the command's stderr)."""
    started = time.monotonic()
    summary = catalogue_derived_complete(
        progress=lambda items, total, label: progress_report(
            items, total=total, stream=stream, label=label
        )
    )
    stream.write(
        f"everything is done: {summary.previews} previews, {summary.colours} colours and "
        f"{summary.vectors} vectors made in {time.monotonic() - started:.0f} s"
    )
    return summary
