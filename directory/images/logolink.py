"""The Logo Link: GET /v1/public/img/{identifier} answers a company's logo as an image.

What an address draws
  The identifier is tried as a domain (normalised and looked up as GET /domains/{domain}
  does, parents down to the registered domain included), then as a company slug, then
  as a logo id or slug; the first hit wins. A company's current logo is drawn, a named
  logo itself. Its drawable files are SVG (rasterised from the sanitised copy only) and
  PNG; the main variant's file is drawn, SVG before PNG.

The dark theme (documented in docs/api.md)
  Candidates, in this order: the main variant's file, each VERSION variant's (negative,
  monochrome...), each TYPE variant's; by name within a kind. Each is drawn at 64 px
  and scored by contrast.readable_share against DARK_BACKGROUND (#121212): the share of
  its drawn area whose colour reaches 3:1 (WCAG's minimum for graphics) against what it
  sits on. The best score wins; a later candidate must beat an earlier one by more than
  DARK_TIE, so near ties keep the main artwork. A winner must read well (DARK_READS_WELL:
  three quarters of its area); when none does, the main file is drawn in one colour,
  white (its shape, from its opacity), unless it sits on an opaque plate of its own
  (white, or as dark as the page), in which case it is drawn as it is.

Fallbacks
  Nothing known, no current logo, no drawable file, or a file that cannot be drawn
  (logged once per file): `fallback=monogram` draws the company's initials (or the
  domain's first letter) on its brand colour, or on a colour derived from the name;
  `transparent` an empty square; `404` the JSON error (COMPANY_NOT_FOUND when nothing is
  known by the identifier, LOGO_NOT_FOUND when the company has nothing to draw).

Cached everywhere
  Each rendition is named by a digest of what it is drawn from (the files' SHA-256, the
  options, the drawing code's and libraries' versions, the monogram's font): the name in
  storage and the ETag. It is drawn once and kept in the previews storage under img/,
  public like the previews. With local storage the app serves its bytes; with S3 the app
  answers 302 to the object's address (the previews' CDN domain when set): file bytes
  then never pass through an app worker, and the object, whose name never changes
  content, is cached by the CDN for a year. A new current logo gives a new digest: the
  ETag changes at once, the address's answer within the day of max-age.

Resolved once per process
  What an address resolves to (the digest, and how to draw it) is kept in each process,
  valid while the images' generation is the one it was resolved in: any write that
  changes what an address draws (a company, logo, variant, file or domain;
  services.images_changed) starts a new generation after its commit. Where the
  generation lives follows the storage: with local storage (one machine, one MEDIA_ROOT,
  which the app and the commands share) it is a file beside the renditions, read without
  a round trip; with S3 (any number of machines) it is a key of the shared cache. A
  cached address then costs no database query, and with local storage no round trip to
  any server: a sync worker never waits on one.
"""

import hashlib
import logging
import os
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

import PIL
from django.conf import settings
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage, storages
from PIL import Image

from directory.catalogue.models import is_domain, normalise_domain
from directory.catalogue.selectors import ImageSource, SourceFile, domain_company_slug, image_source
from directory.errors import DirectoryErrorCode
from directory.images import renditions

logger = logging.getLogger(__name__)

CACHE_CONTROL = "public, max-age=86400"
RENDITIONS = "img"
# Renditions are public, like the previews, and live beside them.
RENDITION_STORAGE = "previews"
DARK_READS_WELL = 0.75
DARK_TIE = 0.05
# Bumped when a drawing changes for the same input; library versions count too.
DRAWING_VERSION = f"1|pillow-{PIL.__version__}|resvg-{version('resvg-py')}"
# How long the cache remembers that a rendition is in the object store (S3).
STORED_SECONDS = 30 * 24 * 3600

IMAGES_GENERATION_KEY = "directory:images:generation"
GENERATION_FILE = "img-generation"  # beside img/, not in it
# A resolved address is also forgotten after this long: a backstop for writes that bypass
# the models (SQL, QuerySet.update outside directory.editing.services).
RESOLVED_SECONDS = 300
RESOLVED_MAX = 10_000

SIZES = (16, 512)
FORMATS = ("png", "webp")
THEMES = ("light", "dark")
FALLBACKS = ("monogram", "transparent", "404")
SHAPES = ("square", "original")


@dataclass(frozen=True)
class ImageOptions:
    size: int = 128
    format: str = "png"
    theme: str = "light"
    greyscale: bool = False
    fallback: str = "monogram"
    shape: str = "square"


@dataclass(frozen=True)
class Picture:
    """One rendition an address answers: named by the digest of its inputs."""

    digest: str
    format: str
    fallback: str | None  # None: the logo itself
    draw: Callable[[], Image.Image] = field(compare=False)
    # A logo's: the file whose failure to draw sends the address to its fallback, and
    # that fallback.
    main: SourceFile | None = field(default=None, compare=False)
    instead: Callable[[], "Picture"] | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        return f"{RENDITIONS}/{self.digest[:2]}/{self.digest}.{self.format}"

    @property
    def etag(self) -> str:
        return f'"{self.digest[:32]}"'

    @property
    def content_type(self) -> str:
        return renditions.CONTENT_TYPES[self.format]


@dataclass(frozen=True)
class Served:
    picture: Picture
    content: bytes | None = None  # local storage: the bytes
    url: str | None = None  # S3: where they are


class NothingToDraw(Exception):
    """fallback=404 and nothing to draw: the error to answer."""

    def __init__(self, code: DirectoryErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _digest(*parts: object) -> str:
    return hashlib.sha256("|".join(str(part) for part in parts).encode()).hexdigest()


# -- what an address draws ----------------------------------------------------------------


_resolved: OrderedDict = OrderedDict()
_resolved_lock = threading.Lock()


def images_generation() -> str:
    """The current generation of what addresses draw (see "Resolved once per process")."""
    if settings.STORAGE_BACKEND == "s3":
        generation = cache.get(IMAGES_GENERATION_KEY)
        if generation is None:
            cache.add(IMAGES_GENERATION_KEY, uuid.uuid4().hex, None)
            generation = cache.get(IMAGES_GENERATION_KEY)
        return generation
    path = storages[RENDITION_STORAGE].path(GENERATION_FILE)
    try:
        with open(path) as current:
            generation = current.read()
    except FileNotFoundError:
        generation = ""
    return generation or images_new_generation()


def images_new_generation() -> str:
    """Starts a new generation: every process resolves its addresses again."""
    generation = uuid.uuid4().hex
    if settings.STORAGE_BACKEND == "s3":
        cache.set(IMAGES_GENERATION_KEY, generation, None)
        return generation
    path = Path(storages[RENDITION_STORAGE].path(GENERATION_FILE))
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written whole under another name and renamed: a reader sees one or the other.
    written = path.with_name(f".{path.name}-{generation}")
    written.write_text(generation)
    os.replace(written, path)
    return generation


def picture_for(identifier: str, options: ImageOptions) -> Picture:
    """What the address draws; NothingToDraw for fallback=404 without a logo."""
    # Read before the catalogue: a write committed meanwhile leaves this entry stale-tagged.
    generation = images_generation()
    key = (identifier, options)
    now = time.monotonic()
    with _resolved_lock:
        hit = _resolved.get(key)
        if hit is not None and hit[0] == generation and now - hit[1] < RESOLVED_SECONDS:
            _resolved.move_to_end(key)
            outcome = hit[2]
        else:
            outcome = None
    if outcome is None:
        try:
            outcome = _resolve(identifier, options)
        except NothingToDraw as nothing:
            outcome = (nothing.code, nothing.message)
        with _resolved_lock:
            _resolved[key] = (generation, now, outcome)
            _resolved.move_to_end(key)
            while len(_resolved) > RESOLVED_MAX:
                _resolved.popitem(last=False)
    if isinstance(outcome, tuple):
        raise NothingToDraw(*outcome)
    return outcome


def _resolve(identifier: str, options: ImageOptions) -> Picture:
    domain = normalise_domain(identifier)
    slug = domain_company_slug(domain) if is_domain(domain) else None
    if slug is not None:
        source = image_source(company_slug=slug, logo=None)
    else:
        source = image_source(company_slug=identifier, logo=identifier)
    if source is not None and source.main_files:
        return _logo(source, options, lambda: _fallback(identifier, domain, source, options))
    return _fallback(identifier, domain, source, options)


def _logo(source: ImageSource, options: ImageOptions, instead) -> Picture:
    main = source.main_files[0]
    if options.theme == "dark":
        candidates = _dark_candidates(source)
        inputs = [f"{file.format}:{file.sha256}" for file in candidates]

        def draw() -> Image.Image:
            return _dark(main, candidates, options.size)
    else:
        inputs = [f"{main.format}:{main.sha256}"]

        def draw() -> Image.Image:
            return renditions.rasterise(_read(main), main.format, options.size)

    digest = _digest(
        "logo",
        DRAWING_VERSION,
        *inputs,
        options.size,
        options.format,
        options.theme,
        options.greyscale,
        options.shape,
    )

    def finished() -> Image.Image:
        image = draw()
        if options.shape == "square":
            image = renditions.square(image, options.size)
        return renditions.finish(image, greyscale=options.greyscale)

    return Picture(digest, options.format, None, finished, main=main, instead=instead)


def _fallback(
    identifier: str, domain: str, source: ImageSource | None, options: ImageOptions
) -> Picture:
    if options.fallback == "404":
        if source is None:
            raise NothingToDraw(
                DirectoryErrorCode.COMPANY_NOT_FOUND,
                f"No domain, company or logo is known as {identifier!r}.",
            )
        raise NothingToDraw(
            DirectoryErrorCode.LOGO_NOT_FOUND,
            f"{source.company_name} has no logo that can be drawn.",
        )
    size, greyscale = options.size, options.greyscale
    if options.fallback == "transparent":
        digest = _digest("transparent", DRAWING_VERSION, size, options.format)
        return Picture(digest, options.format, "transparent", lambda: renditions.transparent(size))
    if source is not None:
        text = renditions.initials(source.company_name)
        colour = _brand_colour(source) or renditions.name_colour(source.company_name)
    elif is_domain(domain):
        text = renditions.domain_letter(domain)
        colour = renditions.name_colour(domain)
    else:
        text = renditions.initials(identifier)[:1]
        colour = renditions.name_colour(identifier)
    digest = _digest(
        "monogram",
        DRAWING_VERSION,
        renditions.monogram_font_id(),
        text,
        "#{:02X}{:02X}{:02X}".format(*colour),
        size,
        options.format,
        greyscale,
    )

    def draw() -> Image.Image:
        return renditions.finish(renditions.monogram(text, colour, size), greyscale=greyscale)

    return Picture(digest, options.format, "monogram", draw)


def _brand_colour(source: ImageSource) -> tuple[int, int, int] | None:
    if not source.brand_colors:
        return None
    code = source.brand_colors[0].lstrip("#")
    return int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16)


# -- the dark theme -----------------------------------------------------------------------


def _dark_candidates(source: ImageSource) -> list[SourceFile]:
    """One file per variant (SVG before PNG), the main variant first."""
    seen: set[str | None] = set()
    candidates = []
    for file in source.files:
        if file.variant_id not in seen:
            seen.add(file.variant_id)
            candidates.append(file)
    return candidates


def _dark(main: SourceFile, candidates: list[SourceFile], size: int) -> Image.Image:
    scores = _dark_scores(candidates)
    best, best_score = None, -1.0
    for candidate in candidates:
        score = scores.get(candidate.sha256)
        if score is not None and (best is None or score > best_score + DARK_TIE):
            best, best_score = candidate, score
    if best is not None and best_score >= DARK_READS_WELL:
        try:
            return renditions.rasterise(_read(best), best.format, size)
        except renditions.DrawError as exc:
            if best is main:
                raise
            _undrawable(best, exc)
    image = renditions.rasterise(_read(main), main.format, size)
    return image if renditions.carries_backdrop(image) else renditions.silhouette(image)


def _dark_scores(candidates: list[SourceFile]) -> dict[str, float]:
    """Each candidate's score (contrast.readable_share), remembered by file; none for a
    file that cannot be drawn."""
    keys = {f"img:dark:{DRAWING_VERSION}:{file.sha256}": file for file in candidates}
    known = cache.get_many(list(keys))
    scores = {keys[key].sha256: score for key, score in known.items()}
    measured = {}
    for key, file in keys.items():
        if key in known or file.sha256 in scores:
            continue
        try:
            scores[file.sha256] = renditions.dark_score(_read(file), file.format)
        except renditions.DrawError as exc:
            _undrawable(file, exc)
            continue
        measured[key] = scores[file.sha256]
    if measured:
        cache.set_many(measured, None)
    return scores


# -- drawing once, serving from storage ---------------------------------------------------


def _read(file: SourceFile) -> bytes:
    with default_storage.open(file.name, "rb") as handle:
        return handle.read()


def _undrawable_key(file: SourceFile) -> str:
    return f"img:undrawable:{DRAWING_VERSION}:{file.sha256}"


def _undrawable(file: SourceFile, exc: Exception) -> None:
    """Remembers that a file cannot be drawn; logs it the first time only."""
    if cache.add(_undrawable_key(file), True, None):
        logger.warning(
            "the Logo Link cannot draw the %s file %s (%s): its fallback is shown",
            file.format,
            file.name,
            exc,
        )


def _instead(picture: Picture) -> Picture | None:
    """The fallback of a logo whose main file is known not to draw."""
    if picture.main is not None and cache.get(_undrawable_key(picture.main)):
        return picture.instead()
    return None


def _draw(picture: Picture) -> bytes:
    image = picture.draw()
    logger.debug("drew rendition %s", picture.name)
    return renditions.encode(image, picture.format)


def _store(storage, name: str, data: bytes, content_type: str) -> None:
    content = ContentFile(data)
    content.content_type = content_type  # the object store keeps it
    saved = storage.save(name, content)
    if saved != name:  # drawn by another request meanwhile: keep one copy
        storage.delete(saved)


def serve(picture: Picture) -> Served:
    """The picture's bytes (local storage) or address (S3), drawn and stored the first
    time it is asked for; its fallback's when its file cannot be drawn."""
    storage = storages[RENDITION_STORAGE]
    if settings.STORAGE_BACKEND == "s3":
        return _serve_link(picture, storage)
    try:
        with storage.open(picture.name, "rb") as stored:
            return Served(picture, content=stored.read())
    except FileNotFoundError:
        pass
    instead = _instead(picture)
    if instead is not None:
        return serve(instead)
    try:
        data = _draw(picture)
    except renditions.DrawError as exc:
        _undrawable(picture.main, exc)
        return serve(picture.instead())
    _store(storage, picture.name, data, picture.content_type)
    return Served(picture, content=data)


def _serve_link(picture: Picture, storage) -> Served:
    marker = f"img:stored:{picture.name}"
    if cache.get(marker):
        return Served(picture, url=storage.url(picture.name))
    if not storage.exists(picture.name):
        instead = _instead(picture)
        if instead is not None:
            return _serve_link(instead, storage)
        try:
            data = _draw(picture)
        except renditions.DrawError as exc:
            _undrawable(picture.main, exc)
            return _serve_link(picture.instead(), storage)
        _store(storage, picture.name, data, picture.content_type)
    cache.set(marker, True, STORED_SECONDS)
    return Served(picture, url=storage.url(picture.name))
