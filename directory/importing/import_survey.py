"""The import's first reading of a catalogue file: which company entries need importing.

An entry is skipped when the digest of its text, its bytes as read (import_batch.
text_digest: no entry written anew), is the one stored at its last import, and so is
the digest of what the file system says of its files (import_batch.files_digest); the
stored digests (directory/importing/models.py) are read LOOKUP_CHUNK entries at a time.
The "companies" list is read in pieces of PIECE_BYTES by worker processes
(common/parallel.py), every core parsing, hashing and looking at files, while this one
compares: at a million entries, most of an import that changes few is this reading.
The import's second reading (directory/importing/importer.py) then takes only the
entries to import.
"""

import os
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from django.db import connection

from common.parallel import parallel_map
from directory.importing.catalogue_stream import (
    StreamError,
    catalogue_list_piece,
    catalogue_texts,
)
from directory.importing.import_batch import files_digest, text_digest

# Entries whose stored digests are read in one query.
LOOKUP_CHUNK = 1000
# Bytes of the list a worker reads in one task (about 5,000 entries of a typical file),
# and tasks in flight: enough to keep every worker busy while this process compares.
PIECE_BYTES = 1 << 22
PIECES_IN_FLIGHT = 6


@dataclass
class Survey:
    """How many companies a file lists, which of their entries need importing and where
    they stand, and how many were skipped, where."""

    companies: int = 0
    # (position, first byte, end byte) of each entry to import, one after another.
    todo: array = field(default_factory=lambda: array("q"))
    # (first position, count) of each run of entries skipped on their digests, in file
    # order: a run ends only at an entry to import, so this grows with those, not with
    # the file.
    skipped: array = field(default_factory=lambda: array("q"))
    # The file's size and modification time as this reading began.
    stamp: tuple = ()

    def skip(self, position: int) -> None:
        if self.skipped and self.skipped[-2] + self.skipped[-1] == position:
            self.skipped[-1] += 1
        else:
            self.skipped.extend((position, 1))


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
    companies = partial(_companies_survey, path, survey, recheck)
    for key, position, value, _, _ in catalogue_texts(path, apart={"companies": companies}):
        member(key, position, value)
    return survey


def _companies_survey(path: Path, survey: Survey, recheck: bool, first: int) -> int:
    """Sorts the entries of the "companies" list, which starts at the byte `first`, read
    in pieces by the workers; the byte after the list's "]"."""
    size = survey.stamp[0]
    pieces = [(start, min(start + PIECE_BYTES, size)) for start in range(first, size, PIECE_BYTES)]
    read = partial(_piece_read, str(path), recheck, first)
    # A single piece is read here: no worker is worth starting for it.
    found = (
        parallel_map(read, pieces, window=PIECES_IN_FLIGHT)
        if len(pieces) > 1
        else ((piece, read(piece)) for piece in pieces)
    )
    compare = _Comparison(survey, recheck)
    # Where the next entry starts, as read from the list's start: a piece read from a
    # guess counts only when it starts there (catalogue_list_piece); any other is read
    # again from there.
    expected = first
    for (_, end), (piece, entries) in found:
        if expected >= end:  # inside an entry the piece before read whole
            continue
        if piece.first != expected:
            piece, entries = _piece_read(str(path), recheck, expected, (expected, end))
        compare.add(entries)
        if piece.closed is not None:
            compare.flush()
            return piece.closed
        expected = piece.following
    raise StreamError("the companies' list does not end")


def _likely_entry(value) -> bool:
    return isinstance(value, dict) and "slug" in value and "name" in value


def _piece_read(path: str, recheck: bool, first: int, piece: tuple[int, int]):
    """Runs in a worker: the piece's entries, each as (first byte, end byte, slug or None,
    its text's digest, its files' digest or None), and what catalogue_list_piece() says
    of it. The files are looked at unless `recheck`, which compares every entry."""
    start, end = piece
    folder = str(Path(path).parent)
    entries = []

    def each(value, at: int, text: bytes) -> None:
        slug = value.get("slug") if isinstance(value, dict) else None
        files = None if recheck else files_digest(value, folder)
        entries.append(
            (at, at + len(text), slug if isinstance(slug, str) else None, text_digest(text), files)
        )

    likely = None if start == first else _likely_entry
    return catalogue_list_piece(Path(path), start, end, each, likely=likely), entries


class _Comparison:
    """Sorts entries, in file order, into those to import and those skipped, their
    stored digests read LOOKUP_CHUNK at a time."""

    def __init__(self, survey: Survey, recheck: bool):
        self.survey = survey
        self.recheck = recheck
        self.waiting: list[tuple] = []
        # The slugs of the entries to import: an entry after one of theirs is imported
        # too, since importing the first changes the digests stored.
        self.todo_slugs: set[str] = set()

    def add(self, entries: list[tuple]) -> None:
        for entry in entries:
            self.waiting.append(entry)
            if len(self.waiting) >= LOOKUP_CHUNK:
                self.flush()

    def flush(self) -> None:
        survey = self.survey
        stored = (
            {}
            if self.recheck
            else stored_digests([entry[2] for entry in self.waiting if entry[2] is not None])
        )
        for start, end, slug, text, files in self.waiting:
            position = survey.companies
            survey.companies += 1
            if (
                files is not None
                and slug not in self.todo_slugs
                and stored.get(slug) == (text, files)
            ):
                survey.skip(position)
            else:
                survey.todo.extend((position, start, end))
                if slug is not None:
                    self.todo_slugs.add(slug)
        self.waiting = []
