"""Reads a catalogue file's top-level lists one element at a time, so an import holds one
batch of entries in memory whatever the file's size (docs/catalogue.md).

The file is a JSON object; each of its members whose value is a list is yielded element
by element as (key, position, element), any other member as (key, None, value). Only a
buffer of the text around the element being read is ever held. catalogue_texts() says
too where each element's text starts in the file and gives its bytes: their hash says
whether an entry changed without writing it anew, and a later reading takes only the
elements it needs (catalogue_element_text()). A long list may instead be read in pieces,
each by catalogue_list_piece() from a byte offset of its own (on several cores: directory/
importing/import_survey.py), and the reading go on after it.
"""

import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
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
    def __init__(self, binary: BinaryIO, start: int = 0, chunk: int | None = None):
        """Reads the file open in binary mode from its byte `start` (a character's first)."""
        binary.seek(start)
        # newline="": no newline translation, so the text is the file's bytes decoded.
        self.handle = io.TextIOWrapper(binary, encoding="utf-8", newline="")
        self.chunk = chunk or CHUNK_CHARS
        self.buffer = ""
        self.at = 0  # the next unread character of buffer
        self.ended = False
        # A character of buffer and its byte offset in the file: offsets are counted
        # from the last one asked, so that the file's text is encoded once in all.
        self.mark = 0
        self.mark_byte = start

    def detach(self) -> BinaryIO:
        return self.handle.detach()

    def offset(self, at: int) -> int:
        """The byte offset in the file of the character `at` of buffer (not before the
        last one asked)."""
        self.mark_byte += len(self.buffer[self.mark : at].encode())
        self.mark = at
        return self.mark_byte

    def _more(self) -> bool:
        if self.ended:
            return False
        chunk = self.handle.read(self.chunk)
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


def catalogue_texts(
    path: Path, *, apart: dict[str, Callable[[int], int]] | None = None
) -> Iterator[tuple[str, int | None, object, int, bytes]]:
    """catalogue_members() with each element's (or value's) first byte in the file and its
    text's bytes as written there. The elements of a top-level list whose key `apart`
    names are not read here: its function is given the byte its first element starts at
    and returns the byte after the list's closing "]", where this reading goes on."""
    apart = apart or {}
    with path.open("rb") as binary:
        reader = _Reader(binary)
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
                elif key in apart:
                    after = apart[key](reader.offset(reader.at))
                    reader = _Reader(reader.detach(), after)
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


# A list element's likely start: an object after a comma. Only a guess (an object inside
# an element looks the same): catalogue_list_piece's caller checks it.
_LIKELY_START = re.compile(rb",\s*(\{)")
# Characters read at a time in a piece: a piece's last element reads a little past it.
PIECE_CHUNK_CHARS = 1 << 16


@dataclass(slots=True)
class ListPiece:
    """What catalogue_list_piece() read: the byte its first element starts at (None when
    it found none), and either the byte the element after its last starts at, or (the
    list's "]" met) the byte after that "]"."""

    first: int | None = None
    following: int | None = None
    closed: int | None = None


def catalogue_list_piece(
    path: Path,
    start: int,
    end: int,
    each: Callable[[object, int, bytes], None],
    *,
    likely: Callable[[object], bool] | None = None,
) -> ListPiece:
    """Reads the elements of a top-level list that start from the byte `start` to before
    the byte `end`, each given to `each` (element, first byte, text's bytes) in order.
    `start` is an element's first byte; or, given `likely`, any byte of the list: the
    piece then begins at the first object after a comma from there that `likely` takes
    for an element, followed by "," or "]". Only a piece that begins where the one before
    it found its following element read what a reading from the list's start reads (a
    guess may begin inside an element, and then what `each` was given is not the list's):
    that check is the caller's. StreamError when the text from `start` is not a list's
    elements; a guessed piece says so by finding none (first None)."""
    with path.open("rb") as binary:
        if likely is None:
            return _list_piece(binary, start, end, each, None)
        binary.seek(start)
        for match in _LIKELY_START.finditer(binary.read(end - start)):
            piece = _list_piece(binary, start + match.start(1), end, each, likely)
            if piece is not None:
                return piece
        return ListPiece()


def _list_piece(binary, start: int, end: int, each, likely) -> ListPiece | None:
    """catalogue_list_piece() from `start`; with `likely` (a guessed start), None when
    the first element does not look like one, and no element when a later one fails."""
    reader = _Reader(binary, start, PIECE_CHUNK_CHARS)
    try:
        return _list_read(reader, start, end, each, likely)
    finally:
        reader.detach()  # the file stays open for the next guess


def _list_read(reader: _Reader, start: int, end: int, each, likely) -> ListPiece | None:
    piece = ListPiece(first=start)
    try:
        element = reader.spanned()
        if likely is not None and not (likely(element[0]) and reader.peek() in (",", "]")):
            return None
    except StreamError:
        if likely is None:
            raise
        return None
    try:
        while True:
            each(*element)
            if reader.expect(",]") == "]":
                piece.closed = reader.offset(reader.at)
                return piece
            reader.peek()
            following = reader.offset(reader.at)
            if following >= end:
                piece.following = following
                return piece
            element = reader.spanned()
    except StreamError:
        if likely is None:
            raise
        return ListPiece()


def catalogue_element_text(handle: BinaryIO, start: int, end: int) -> bytes:
    """The text between the bytes `start` and `end` of a file open in binary mode: an
    element catalogue_texts() found at `start`, read again, when `end` is `start` and its
    text's length."""
    handle.seek(start)
    return handle.read(end - start)
