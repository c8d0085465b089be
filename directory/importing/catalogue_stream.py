"""Reads a catalogue file's top-level lists one element at a time, so an import holds one
batch of entries in memory whatever the file's size (docs/catalogue.md).

The file is a JSON object; each of its members whose value is a list is yielded element
by element as (key, position, element), any other member as (key, None, value). Only a
buffer of the text around the element being read is ever held.
"""

import json
from collections.abc import Iterator
from pathlib import Path

CHUNK_CHARS = 1 << 20
_DECODER = json.JSONDecoder()
_WHITESPACE = " \t\n\r"


class StreamError(ValueError):
    """The file is not a JSON object, or stops being JSON at some point."""


class _Reader:
    def __init__(self, handle):
        self.handle = handle
        self.buffer = ""
        self.at = 0  # the next unread character of buffer
        self.ended = False

    def _more(self) -> bool:
        if self.ended:
            return False
        chunk = self.handle.read(CHUNK_CHARS)
        if not chunk:
            self.ended = True
            return False
        self.buffer = self.buffer[self.at :] + chunk
        self.at = 0
        return True

    def peek(self) -> str:
        """The next character that is not whitespace ('' at the end of the file)."""
        while True:
            while self.at < len(self.buffer) and self.buffer[self.at] in _WHITESPACE:
                self.at += 1
            if self.at < len(self.buffer):
                return self.buffer[self.at]
            if not self._more():
                return ""

    def expect(self, characters: str) -> str:
        found = self.peek()
        if not found or found not in characters:
            raise StreamError(f"expected one of {characters!r}, found {found or 'the end'!r}")
        self.at += 1
        return found

    def value(self):
        """The next JSON value whole, reading more of the file until it is complete."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buffer, self.at)
            except json.JSONDecodeError as exc:
                # Cut off by the buffer's end: read on. Anything else is not JSON.
                if self._more():
                    continue
                raise StreamError(str(exc)) from None
            # A number at the buffer's end may go on in the next chunk.
            if end == len(self.buffer) and not self.ended and self._more():
                continue
            self.at = end
            return value


def catalogue_members(path: Path) -> Iterator[tuple[str, int | None, object]]:
    """(key, position, element) for each element of each top-level list, in file order;
    (key, None, value) for a top-level member that is not a list. StreamError when the
    file is not a JSON object."""
    with path.open(encoding="utf-8") as handle:
        reader = _Reader(handle)
        reader.expect("{")
        if reader.peek() == "}":
            return
        while True:
            key = reader.value()
            if not isinstance(key, str):
                raise StreamError("an object's keys are strings")
            reader.expect(":")
            if reader.peek() == "[":
                reader.expect("[")
                position = 0
                if reader.peek() == "]":
                    reader.expect("]")
                else:
                    while True:
                        yield key, position, reader.value()
                        position += 1
                        if reader.expect(",]") == "]":
                            break
            else:
                yield key, None, reader.value()
            if reader.expect(",}") == "}":
                break
        if reader.peek():
            raise StreamError("extra data after the top-level object")
