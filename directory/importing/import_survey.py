"""The import's first reading of a catalogue file: which company entries need importing.

Each entry's digest (import_batch.entry_digest: its text and its files' stats) is made
by worker processes (common/parallel.py), SKIP_CHUNK entries a task, each worker reading
its entries again from where this reading found them in the file; the digests stored at
the last import are read SKIP_CHUNK at a time. The import's second reading
(directory/importing/importer.py) then takes only the entries whose digest differs: at a
million entries, most of an import that changes few is this reading.
"""

import os
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from django.db import connection

from common.parallel import parallel_map
from directory.importing.catalogue_stream import catalogue_element, catalogue_spans
from directory.importing.import_batch import entry_digest

# Entries a worker digests at a time, and whose stored digests are read in one query.
SKIP_CHUNK = 1000
# Chunks in flight: enough to keep every worker busy while this process reads on.
CHUNKS_IN_FLIGHT = 6


@dataclass
class Survey:
    """How many companies a file lists, which of their entries need importing and where
    they stand, and which were skipped."""

    companies: int = 0
    # (position, first byte, end byte) of each entry to import, one after another.
    todo: array = field(default_factory=lambda: array("q"))
    # (position, slug) of each entry skipped on its digest, in file order.
    unchanged: list[tuple[int, str]] = field(default_factory=list)
    # The file's size and modification time as this reading began.
    stamp: tuple = ()


def file_stamp(handle) -> tuple:
    stat = os.fstat(handle.fileno())
    return stat.st_size, stat.st_mtime_ns


def catalogue_survey(
    path: Path, *, recheck: bool, member: Callable[[str, int | None, object], None]
) -> Survey:
    """Reads the file at `path` once: every top-level member that is not an element of
    "companies" goes to `member` (key, position or None, value), and the company entries
    are sorted into those to import and those whose digest is the one stored at their
    last import (none with `recheck`). Raises what catalogue_spans() raises."""
    survey = Survey()
    with path.open("rb") as handle:
        survey.stamp = file_stamp(handle)
    chunks = _company_chunks(path, survey, member)
    if recheck:
        for chunk in chunks:
            for span in chunk:
                survey.todo.extend(span)
        return survey
    # The slugs of the entries to import: an entry after one of theirs is imported too,
    # since importing the first changes the digest stored.
    todo_slugs: set[str] = set()
    digests = partial(_chunk_digests, str(path))
    for chunk, found in parallel_map(digests, chunks, window=CHUNKS_IN_FLIGHT):
        _sort(chunk, found, survey, todo_slugs)
    return survey


def _company_chunks(path: Path, survey: Survey, member) -> Iterator[list[tuple]]:
    chunk = []
    for key, position, value, start, end in catalogue_spans(path):
        if key != "companies" or position is None:
            member(key, position, value)
            continue
        survey.companies += 1
        chunk.append((position, start, end))
        if len(chunk) >= SKIP_CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _chunk_digests(path: str, chunk: list[tuple]) -> list[tuple[str | None, str | None]]:
    """Runs in a worker: (slug, digest) of each entry of the chunk, None for what an entry
    lacks (it is then imported, and its validation says what is wrong)."""
    base = Path(path).parent
    found = []
    with open(path, "rb") as handle:
        for _, start, end in chunk:
            try:
                raw = catalogue_element(handle, start, end)
            except (OSError, ValueError):  # changed since: the second reading says so
                found.append((None, None))
                continue
            slug = raw.get("slug") if isinstance(raw, dict) else None
            if not isinstance(slug, str):
                found.append((None, None))
                continue
            found.append((slug, entry_digest(raw, base)))
    return found


def _sort(chunk: list[tuple], found: list[tuple], survey: Survey, todo_slugs: set) -> None:
    slugs = [slug for slug, digest in found if digest is not None]
    stored = {}
    if slugs:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT slug, import_digest FROM directory_company WHERE slug = ANY(%s)",
                [slugs],
            )
            stored = dict(cursor.fetchall())
    for span, (slug, digest) in zip(chunk, found, strict=True):
        if digest is not None and stored.get(slug) == digest and slug not in todo_slugs:
            survey.unchanged.append((span[0], slug))
        else:
            survey.todo.extend(span)
            if slug is not None:
                todo_slugs.add(slug)
