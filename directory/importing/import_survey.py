"""The import's first reading of a catalogue file: which company entries need importing.

An entry is skipped when the digest of its text, its bytes as read (import_batch.
text_digest: no entry written anew), is the one stored at its last import, and so is
the digest of what the file system says of its files (import_batch.files_digest); the
stored digests (directory/importing/models.py) are read SKIP_CHUNK entries at a time,
and the files looked at only for an entry whose text is unchanged, by worker processes
(common/parallel.py) while this one reads on. The import's second
reading (directory/importing/importer.py) then takes only the other entries: at a
million entries, most of an import that changes few is this reading.
"""

import os
from array import array
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from django.db import connection

from common.parallel import parallel_map
from directory.importing.catalogue_stream import catalogue_texts
from directory.importing.import_batch import entry_files, listed_files_digest, text_digest

# Entries whose stored digests are read in one query, and whose files a worker looks at
# in one task.
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
    # (position, slug) of each entry skipped on its digests, in file order.
    unchanged: list[tuple[int, str]] = field(default_factory=list)
    # The file's size and modification time as this reading began.
    stamp: tuple = ()


def file_stamp(handle) -> tuple:
    stat = os.fstat(handle.fileno())
    return stat.st_size, stat.st_mtime_ns


def stored_digests(slugs: list[str]) -> dict[str, tuple[str, str]]:
    """The (text, files) digests stored at the last import of the companies `slugs`."""
    if not slugs:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.slug, d.text, d.files FROM directory_company c"
            " JOIN directory_importdigest d ON d.company_id = c.id WHERE c.slug = ANY(%s)",
            [slugs],
        )
        return {slug: (text, files) for slug, text, files in cursor.fetchall()}


def catalogue_survey(
    path: Path, *, recheck: bool, member: Callable[[str, int | None, object], None]
) -> Survey:
    """Reads the file at `path` once: every top-level member that is not an element of
    "companies" goes to `member` (key, position or None, value), and the company entries
    are sorted into those to import and those whose digests are the ones stored at their
    last import (none with `recheck`). Raises what catalogue_texts() raises."""
    survey = Survey()
    with path.open("rb") as handle:
        survey.stamp = file_stamp(handle)
    chunks = _company_chunks(path, survey, member)
    if recheck:
        for chunk in chunks:
            for position, start, end, _, _ in chunk:
                survey.todo.extend((position, start, end))
        return survey
    # The slugs of the entries to import: an entry after one of theirs is imported too,
    # since importing the first changes the digests stored.
    todo_slugs: set[str] = set()
    # Chunks whose files the workers are looking at, oldest first.
    waiting: deque = deque()

    def looks() -> Iterator[list]:
        for chunk in chunks:
            waiting.append(chunk)
            yield [files for *_, files in chunk]

    digests = partial(_files_digests, str(path.parent))
    for _, found in parallel_map(digests, looks(), window=CHUNKS_IN_FLIGHT):
        for (position, start, end, slug, _), digest in zip(waiting.popleft(), found, strict=True):
            if digest is not None and slug not in todo_slugs:
                survey.unchanged.append((position, slug))
            else:
                survey.todo.extend((position, start, end))
                if slug is not None:
                    todo_slugs.add(slug)
    return survey


def _files_digests(base: str, chunk: list[tuple[str, list] | None]) -> list[str | None]:
    """Runs in a worker: for each entry whose text is unchanged ((its files' digest
    stored, its files)), that digest when the files' is still it; None otherwise."""
    folder = Path(base)
    return [
        item[0] if item is not None and item[0] == listed_files_digest(item[1], folder) else None
        for item in chunk
    ]


def _company_chunks(path: Path, survey: Survey, member) -> Iterator[list[tuple]]:
    """(position, first byte, end byte, slug or None, files) of the company entries,
    SKIP_CHUNK at a time; files: for an entry whose text's digest is the one stored, that
    of its files and the files it names (entry_files()), None for any other."""
    chunk = []
    for key, position, value, start, text in catalogue_texts(path):
        if key != "companies" or position is None:
            member(key, position, value)
            continue
        survey.companies += 1
        slug = value.get("slug") if isinstance(value, dict) else None
        slug = slug if isinstance(slug, str) else None
        chunk.append((position, start, start + len(text), slug, text_digest(text), value))
        if len(chunk) >= SKIP_CHUNK:
            yield _stored_compared(chunk)
            chunk = []
    if chunk:
        yield _stored_compared(chunk)


def _stored_compared(chunk: list[tuple]) -> list[tuple]:
    stored = stored_digests([item[3] for item in chunk if item[3] is not None])
    compared = []
    for position, start, end, slug, digest, value in chunk:
        known = stored.get(slug)
        files = (known[1], entry_files(value)) if known and known[0] == digest else None
        compared.append((position, start, end, slug, files))
    return compared
