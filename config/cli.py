"""Small helpers for management commands."""

from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], *, total: int, stream: TextIO, label: str = "") -> Iterator[T]:
    """Yields `items`, drawing a progress bar on `stream` when it is a terminal."""
    if not (hasattr(stream, "isatty") and stream.isatty()) or total == 0:
        yield from items
        return
    width = 30
    for done, item in enumerate(items, start=1):
        yield item
        filled = width * done // total
        stream.write(f"\r{label}[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        stream.flush()
    stream.write("\n")
