"""Reads a catalogue file's top-level lists one element at a time, so an import holds one
batch of entries in memory whatever the file's size (docs/catalogue.md).

The file is a JSON object; each of its members whose value is a list is yielded element
by element as (key, position, element), any other member as (key, None, value). Only a
buffer of the text around the element being read is ever held. catalogue_texts() says
too where each element's text starts in the file and gives its bytes: their hash says
whether an entry changed without writing it anew, and a later reading takes only the
elements it needs (catalogue_element_text()).
"""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

CHUNK_CHARS = 1 << 20
_DECODER = json.JSONDecoder()
_WHITESPACE = " \t\n\r"
# What may follow a number's text when the buffer cuts it ("" for every value).
_NUMBER_TAILS = ("", ".", "e", "E", "e+", "e-", "E+", "E-")


class StreamError(ValueError):
    """The file is not a JSON object, or stops being JSON at some point."""


class _Reader:
    def __init__(self, handle):
        self.handle = handle
        self.buffer = ""
        self.at = 0  # the next unread character of buffer
        self.ended = False
        # A character of buffer and its byte offset in the file: offsets are counted
        # from the last one asked, so that the file's text is encoded once in all.
        self.mark = 0
        self.mark_byte = 0

    def offset(self, at: int) -> int:
        """The byte offset in the file of the character `at` of buffer (not before the
        last one asked)."""
        self.mark_byte += len(self.buffer[self.mark : at].encode())
        self.mark = at
        return self.mark_byte

    def _more(self) -> bool:
        if self.ended:
            return False
        chunk = self.handle.read(CHUNK_CHARS)
        if not chunk:
            self.ended = True
            return False
        self.offset(self.at)
        self.buffer = self.buffer[self.at :] + chunk
        self.at = self.mark = 0
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
            # A number at the buffer's end may go on in the next chunk, even past what
            # reads as its end: "1." is 1 followed by a cut ".5".
            if (
                len(self.buffer) - end <= 2
                and self.buffer[end:] in _NUMBER_TAILS
                and not isinstance(value, str)
                and not self.ended
                and self._more()
            ):
                continue
            self.at = end
            return value

    def spanned(self) -> tuple[object, int, bytes]:
        """The next JSON value whole, with its first byte's offset and its text's bytes."""
        self.peek()
        start = self.offset(self.at)
        value = self.value()
        # The mark is the value's first character still (value() reads on from there):
        # its bytes are those the end's offset is counted from, encoded once.
        text = self.buffer[self.mark : self.at].encode()
        self.mark, self.mark_byte = self.at, start + len(text)
        return value, start, text


def catalogue_members(path: Path) -> Iterator[tuple[str, int | None, object]]:
    """(key, position, element) for each element of each top-level list, in file order;
    (key, None, value) for a top-level member that is not a list. StreamError when the
    file is not a JSON object."""
    for key, position, value, _, _ in catalogue_texts(path):
        yield key, position, value


def catalogue_texts(path: Path) -> Iterator[tuple[str, int | None, object, int, bytes]]:
    """catalogue_members() with each element's (or value's) first byte in the file and its
    text's bytes as written there."""
    # newline="": no newline translation, so the text is the file's bytes decoded.
    with path.open(encoding="utf-8", newline="") as handle:
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
                        yield key, position, *reader.spanned()
                        position += 1
                        if reader.expect(",]") == "]":
                            break
            else:
                yield key, None, *reader.spanned()
            if reader.expect(",}") == "}":
                break
        if reader.peek():
            raise StreamError("extra data after the top-level object")


def catalogue_element_text(handle: BinaryIO, start: int, end: int) -> bytes:
    """The text between the bytes `start` and `end` of a file open in binary mode: an
    element catalogue_texts() found at `start`, read again, when `end` is `start` and its
    text's length."""
    handle.seek(start)
    return handle.read(end - start)
