"""Small helpers for management commands."""

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from django.core.management.base import OutputWrapper

T = TypeVar("T")

# A line this often when nobody watches a terminal: often enough to show that a long step
# moves, rarely enough for a container's or CI's log.
LINE_EVERY_SECONDS = 5.0


def progress(
    items: Iterable[T],
    *,
    total: int,
    stream: OutputWrapper,
    label: str,
    every: float = LINE_EVERY_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[T]:
    """Yields `items`, telling `stream` (a command's stderr) how far it got.

    On a terminal, a bar redrawn in place. Anywhere else (a file, a pipe: a container's
    log, CI), whole lines: one as the step starts, one every `every` seconds with the
    count and the time left at the rate so far, and one at the end.
    """
    if total == 0:
        yield from items
        return
    if stream.isatty():
        yield from _bar(items, total, stream, label)
    else:
        yield from _lines(items, total, stream, label, every, clock)


def _bar(items: Iterable[T], total: int, stream: OutputWrapper, label: str) -> Iterator[T]:
    width = 30
    for done, item in enumerate(items, start=1):
        yield item
        filled = width * done // total
        stream.write(
            f"\r{label:<11}[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,}", ending=""
        )
        stream.flush()
    stream.write("")


def _lines(
    items: Iterable[T],
    total: int,
    stream: OutputWrapper,
    label: str,
    every: float,
    clock: Callable[[], float],
) -> Iterator[T]:
    started = clock()
    stream.write(f"{label}: 0 of {total:,}")
    stream.flush()
    next_line = started + every
    done = 0
    for done, item in enumerate(items, start=1):
        yield item
        now = clock()
        if now >= next_line and done < total:
            elapsed = now - started
            left = elapsed * (total - done) / done
            stream.write(
                f"{label}: {done:,} of {total:,} ({done / total:.0%}) in {elapsed:.0f} s, "
                f"about {left:.0f} s left"
            )
            stream.flush()
            next_line = now + every
    stream.write(f"{label}: {done:,} of {total:,} in {clock() - started:.0f} s")
    stream.flush()
