"""Related companies: the `related` list of GET /companies?related=true (docs/search.md).

A term finds related companies in six steps:

1. Understanding. The term as search reads it, with each word the catalogue lacks
   corrected against the catalogue's own words (directory_search_corrected), and the
   words of the kinds of business it names (directory/search/business_terms.py): "fonda" is a
   hotel, "bufete" a law firm; when it names none, a word one typing mistake from a
   single word of the thesaurus is read as that word ("bodgea": "bodega").
2. Vectors. The term, its corrections and those words are embedded as one text
   (directory/search/embeddings.py) and the companies nearest to it in meaning found: exactly
   (one matrix-vector product) up to EMBEDDING_INDEX_MIN_COMPANIES vectors, above that
   through the approximate index every worker memory-maps, plus the rows changed since
   it was built. Each worker loads the vectors before it serves (warm_up) and reloads
   them when the table's newest row changes. Steps 2 to 4 need no database: they run
   in a thread while PostgreSQL reads the page of plain search (company_page_related).
3. Feedback. The vector moved towards the nearest company's and the search run again:
   companies of one kind resemble each other more than a short term resembles them.
4. Close enough. A candidate stays when its similarity is at least CLOSE_ENOUGH times
   the CLOSE_TO-th candidate's: relative, because how high similarities run depends on
   the term, and not to the first, which one company whose name holds the word can be.
   Each also needs a similarity to the term itself of at least AT_LEAST, an absolute
   floor, never one relative to the best: a company whose name holds the word scores far
   above the rest and would cut them. Those the first search finds beside its best
   (BESIDE_BEST) are added. They are ranked by their similarity to the term itself.
   Past the WITHOUT_EVIDENCE nearest, a candidate also needs a word of the embedded
   text in its names, sector or "about".
5. Lexical evidence. PostgreSQL full-text search over the candidates' names, sector and
   "about" (Spanish and English stemming, accents folded) ranks them by the same words.
6. Order. Reciprocal rank fusion of the two rankings. The evidence of step 4, step 5 and
   this are one statement (directory_company_related.sql).

The feedback and the bar were chosen on the DEV halves of the related evaluation sets
(tests/directory/search/evaluation/), alone and among distractors, and shown on their TEST
halves (docs/search.md gives both).
"""

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connection
from django.dispatch import receiver

from api.pagination import DEFAULT_PAGE_SIZE
from directory.search import selectors as search
from directory.search.business_terms import business_words, thesaurus_spelling
from directory.search.embeddings import (
    INDEX_EXPANSION_SEARCH,
    backend,
    embed,
    index_path,
    vector_rows,
)

logger = logging.getLogger(__name__)

RELATED_LIMIT = 10
# Candidates the vectors give, before the bar.
POOL = 30
# Feedback: the term's vector moved towards its FEEDBACK nearest companies (their mean,
# weighted FEEDBACK_WEIGHT against the term's) before the search is run again.
FEEDBACK = 1
FEEDBACK_WEIGHT = 0.5
# The bar: CLOSE_ENOUGH times the similarity of the CLOSE_TO-th candidate; and those of
# the first search at least BESIDE_BEST times its best's are added (it adds, never cuts):
# when the nearest company is of another kind, the feedback pulls its kind in, and the
# second of the first search, of the kind asked for, must not be lost. Chosen on DEV:
# 0.9 lifts the older DEV set with distractors from 0.943 to 0.986 and TUNE from 0.955 to
# 0.964, and no DEV figure falls; 0.85 and 0.8 lower the kinds set's precision with
# distractors (0.874 to 0.863 and 0.846), 0.92 keeps TUNE at 0.955 (docs/search.md).
CLOSE_TO = 3
CLOSE_ENOUGH = 0.95
BESIDE_BEST = 0.9
# ... and every candidate at least AT_LEAST similar to the term itself: absolute, so that
# one company whose name holds the word, scoring far above the rest, cannot cut them. With
# a filter, the CLOSE_TO-th candidate can be of nothing like the term (a province holding
# one bank); they score under 0.1. Chosen on DEV: 0.1 keeps its figures (0.15 lowers the
# kinds set's recall from 0.922 to 0.882, 0.2 to 0.833), 0.0 lets a filter's unrelated
# companies in (docs/search.md).
AT_LEAST = 0.1
# Evidence: past the WITHOUT_EVIDENCE nearest, a candidate stays only when its names,
# sector or "about" hold a word of what was embedded (the term, its corrections, the words
# of the kinds it names). In a catalogue of thousands, many companies of other kinds
# score as near as the third of the kind asked for; few of them share its words.
WITHOUT_EVIDENCE = 3
READ_AHEAD_PIECE = 8 << 20
# With a sector or province filter the index is asked for this many times more
# candidates, then filtered: a filter cannot be pushed into the graph walk. A filter that
# leaves no more companies than that is ranked exactly instead: the graph does not reach
# every node (about 1 in 200 at a few hundred vectors), and a province's one bank can be
# the one it misses.
INDEX_FILTER_OVERFETCH = 40


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


def _pool_new() -> None:
    """The threads that run the search by meaning beside the page (_begin), kept for the
    process: one per request started a thread each time. A sync worker serves one request
    at a time; two let a threaded server's second request start without waiting. A forked
    child gets a pool of its own: the parent's threads do not exist in it."""
    global _pool
    _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="related")


_pool_new()
os.register_at_fork(after_in_child=_pool_new)


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
        _read_ahead(path)
    except FileNotFoundError:
        return None, None
    except Exception as exc:
        logger.warning("no usable index at %s, ranking exactly: %s", path, exc)
        return None, None
    index.expansion_search = INDEX_EXPANSION_SEARCH
    return index, meta["version"]


def _read_ahead(path) -> None:
    """Asks the kernel to read the index file into the page cache, once for every worker
    mapping it: otherwise the first searches after a start fault its pages in from the
    disk one at a time (docs/performance.md). In pieces: Linux reads at most 8 MiB of one
    call (the whole 112 MB file of 100,000 vectors took 70 ms, 25 ms of it CPU)."""
    if not hasattr(os, "posix_fadvise"):  # macOS
        return
    with open(path, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        for offset in range(0, size, READ_AHEAD_PIECE):
            os.posix_fadvise(file.fileno(), offset, READ_AHEAD_PIECE, os.POSIX_FADV_WILLNEED)


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
            delta_keys, delta_matrix = vector_rows(
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


def _nearest(state: _Vectors, query: np.ndarray, mask, count: int) -> list[tuple[float, int]]:
    """The `count` keys nearest `query` within `mask`, as (similarity, key), best first."""
    found: list[tuple[float, int]] = []
    if state.matrix is not None:
        scores = state.matrix @ query
        where = np.flatnonzero(mask) if mask is not None else np.arange(len(scores))
        found = _top(scores[where], state.keys[where], count)
    else:
        asked = count * (INDEX_FILTER_OVERFETCH if mask is not None else 2)
        if mask is not None and np.count_nonzero(mask) <= asked:
            keys, vectors = _indexed(state, state.keys[mask])
            scores = vectors @ query if len(keys) else np.empty(0, dtype=np.float32)
        else:
            matches = state.index.search(query, asked)
            keys = np.asarray(matches.keys, dtype=np.int64)
            scores = 1.0 - np.asarray(matches.distances, dtype=np.float32)
        positions = np.searchsorted(state.keys, keys)
        positions[positions >= len(state.keys)] = 0
        keep = state.keys[positions] == keys  # deleted since the build
        if len(state.delta_keys):
            keep &= ~np.isin(keys, state.delta_keys)  # changed since: the delta has them
        if mask is not None:
            keep &= mask[positions]
        found = _top(scores[keep], keys[keep], count)
        if len(state.delta_keys):
            delta_scores = state.delta_matrix @ query
            keep = np.ones(len(delta_scores), dtype=bool)
            if mask is not None:
                positions = np.searchsorted(state.keys, state.delta_keys)
                positions[positions >= len(state.keys)] = 0
                keep = (state.keys[positions] == state.delta_keys) & mask[positions]
            found += _top(delta_scores[keep], state.delta_keys[keep], count)
    found.sort(reverse=True)
    return found[:count]


def _vectors_of(state: _Vectors, keys: list[int]) -> np.ndarray:
    """The vectors of `keys`, as the search saw them (the index's, or the rows since)."""
    if not keys:
        return np.empty((0, 0), dtype=np.float32)
    if state.matrix is not None:
        return state.matrix[np.searchsorted(state.keys, np.asarray(keys, dtype=np.int64))]
    rows: dict[int, np.ndarray] = {}
    if len(state.delta_keys):
        for key in keys:
            if key in state.delta_keys:
                rows[key] = state.delta_matrix[np.flatnonzero(state.delta_keys == key)[0]]
    indexed, found = _indexed(state, np.asarray([key for key in keys if key not in rows]))
    rows.update(zip(indexed.tolist(), found, strict=True))
    return np.asarray([rows[key] for key in keys], dtype=np.float32)


def _indexed(state: _Vectors, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Those of `keys` the index holds, and their vectors. One call for all of them: a
    call per key cost more than the searches."""
    if not len(keys):
        return keys, np.empty((0, 0), dtype=np.float32)
    found = state.index.get(np.asarray(keys, dtype=np.uint64), dtype=np.float32)
    held = [vector is not None for vector in found]  # None: added after the build
    return keys[held], np.asarray([vector for vector in found if vector is not None])


def _close_enough(state: _Vectors, query: np.ndarray, mask) -> list[int]:
    """The keys close enough to `query` in meaning, nearest first."""
    nearest = _nearest(state, query, mask, POOL)
    if not nearest:
        return []
    seeds = _vectors_of(state, [key for _, key in nearest[:FEEDBACK]])
    moved = query + FEEDBACK_WEIGHT * seeds.mean(axis=0)
    moved /= np.linalg.norm(moved)
    again = _nearest(state, moved.astype(np.float32), mask, POOL)
    bar = CLOSE_ENOUGH * again[min(CLOSE_TO, len(again)) - 1][0]
    fed = {key for score, key in again if score >= bar}
    best = nearest[0][0]
    beside = {key for score, key in nearest if score >= BESIDE_BEST * best}
    candidates = sorted(fed | beside)
    similarity = _vectors_of(state, candidates) @ query
    # Kept by the feedback, a candidate still needs some likeness to the term itself (a
    # filter can leave three candidates of nothing like it); what the first search puts
    # beside its best is added.
    kept = [
        (-score, key)
        for score, key in zip(similarity, candidates, strict=True)
        if key in beside or score >= AT_LEAST
    ]
    return [key for _, key in sorted(kept)]


def _top(scores: np.ndarray, keys: np.ndarray, count: int) -> list[tuple[float, int]]:
    if len(scores) > count:
        chosen = np.argpartition(-scores, count)[:count]
        scores, keys = scores[chosen], keys[chosen]
    return [(float(score), int(key)) for score, key in zip(scores, keys, strict=True)]


def _filter_mask(state: _Vectors, sector_ids, province_fold, sector, province):
    mask = None
    if sector:
        mask = np.isin(state.sectors, np.asarray(sector_ids or [], dtype=np.int64))
    if province:
        code = state.province_codes.get(province_fold, -2)
        by_province = state.provinces == code
        mask = by_province if mask is None else mask & by_province
    return mask


def query_text(term: str, corrected: str) -> str:
    """What is embedded for `term`: the term, the corrections of its words, and the words
    of the kinds of business it names (their plain names and synonyms)."""
    typed = set(term.lower().split())
    corrections = [word for word in corrected.split() if word not in typed]
    kinds = business_words(corrected)
    kinds += [word for word in business_words(term) if word not in kinds]
    if not kinds:
        # A mistake the catalogue's words cannot correct may still be one in a kind's name.
        kinds = business_words(thesaurus_spelling(corrected))
    return " ".join([term, *corrections, *kinds])


@dataclass
class _Begun:
    corrected: str
    text: str
    keys: Callable[[], list[int]]  # waits for the search by meaning, running meanwhile


def _begin(*, term, sector, province, page) -> _Begun | None:
    """Starts a related search: what needs the database now, then the embedding and the
    vector searches in a thread of their own, which need no database. None when there is
    nothing to search for."""
    term = search.clean_term(term)
    if page != 1 or not term:
        return None
    with connection.cursor() as cursor:
        # The version check, the filters' values and the corrected term in one round trip.
        cursor.execute(
            "SELECT (SELECT max(updated_at) FROM directory_companyembedding),"
            " ARRAY(SELECT id FROM directory_sector"
            "  WHERE slug = %(sector)s OR name_fold = directory_fold(%(sector)s)),"
            " directory_fold(%(province)s), directory_search_corrected(%(term)s)",
            {"sector": sector or "", "province": province or "", "term": term},
        )
        version, sector_ids, province_fold, corrected = cursor.fetchone()
    model = backend() if version is not None else None  # no vectors: no model to load
    if model is None:
        return None
    state = _state(model, version)
    mask = _filter_mask(state, sector_ids, province_fold, sector, province)
    text = query_text(term, corrected)
    # The embedding and the two vector searches (numpy and usearch, which let other
    # threads run) take about as long as PostgreSQL takes to read the page's plain search,
    # and half a related search's time: a thread runs them while the request's thread
    # waits for that page. bench/related_pieces.py, 150 new terms at load ~10: they took
    # 97 of the 198 ms of a related search done one step after the other (mean); run
    # beside the page, the search took 157 ms (p95 242 against 288).
    future = _pool.submit(lambda: _close_enough(state, _query_vector(model.name, text), mask))
    return _Begun(corrected=corrected, text=text, keys=future.result)


def _finish(begun: _Begun | None, shown: list[dict]) -> list[dict]:
    keys = begun.keys() if begun is not None else []
    if not keys:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT directory_company_related(%s::bigint[], %s, %s::uuid[], %s, %s)",
            (
                keys,
                f"{begun.corrected} {begun.text}",
                [str(row["id"]) for row in shown],
                RELATED_LIMIT,
                WITHOUT_EVIDENCE,
            ),
        )
        return json.loads(cursor.fetchone()[0])


def company_page_related(
    *,
    term: str | None,
    sector: str | None,
    province: str | None,
    page: int,
    offset: int,
    limit: int,
) -> tuple[list[dict], int, list[dict]]:
    """The page of plain search (search.company_page: summary rows and the exact total)
    and its related list: summary rows of up to 10 companies close to `term` in meaning,
    best first, that are not on the page and match the sector and province filters;
    empty after page 1, without a term, and when the backend is unavailable. The search
    by meaning runs while PostgreSQL reads the page."""
    begun = _begin(term=term, sector=sector, province=province, page=page)
    rows, total = search.company_page(
        term=term, sector=sector, province=province, offset=offset, limit=limit
    )
    return rows, total, _finish(begun, rows)


# Terms that take a warm-up through every statement of a search and a related search: a
# word of three letters, a name of several words, and a word no name holds, which goes
# through the steps of typo correction.
WARM_UP_TERMS = ("ria", "banco del norte", "zzqxw")


def warm_up() -> None:
    """Runs company, related and logo searches as a first page asks for them, so that a
    worker's first request costs what the others do: the related searches load the
    embedding model and the vectors, and PostgreSQL plans each statement of a PL/pgSQL
    function the first time a connection runs it, on the connection the worker keeps
    (CONN_MAX_AGE) for its first requests. A failure is logged, never raised: a worker
    that could not warm up still serves, only its first requests cost more."""
    started = time.perf_counter()
    try:
        for term in WARM_UP_TERMS:
            company_page_related(
                term=term, sector=None, province=None, page=1, offset=0, limit=DEFAULT_PAGE_SIZE
            )
            search.logo_page(term=term, offset=0, limit=DEFAULT_PAGE_SIZE)
    except Exception as exc:
        logger.warning("search not warmed up: %s", exc)
    else:
        logger.info("search warmed up in %.0f ms", (time.perf_counter() - started) * 1000)


@receiver(setting_changed)
def _forget(*, setting, **kwargs):
    # Tests switch backends and settings; a process never does otherwise.
    global _vectors
    if setting in ("EMBEDDING_BACKEND", "EMBEDDING_MODEL_PATH"):
        _query_vector.cache_clear()
    if setting.startswith("EMBEDDING_"):
        _vectors = None
