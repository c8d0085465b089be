"""Files of the derived pass with the same bytes as another's: drawn once.

A catalogue often gives several logos or variants the same file (a variant that is the
logo itself, a logo kept for two eras, one mark for two companies of a group). Drawing
is the pass's cost, and the same bytes always draw the same preview and the same
colours, so a job whose main file has the SHA-256 and format of one already drawing (or
drawn a moment ago) takes that one's result instead of being drawn again.

Everything here lives in the importing process; the workers never see it.
"""

from collections import OrderedDict, deque
from collections.abc import Iterator

# The drawn results kept for files met again later; their bytes, at most (previews are
# tens of kilobytes, so thousands of files).
MEMO_BYTES = 32 * 1024 * 1024


def _covers(original: tuple[bool, bool], twin) -> bool:
    """Whether what `original` draws ((preview, colours)) is all that `twin` needs."""
    return (original[0] or not twin.preview) and (original[1] or not twin.colours)


class Twins:
    def __init__(self) -> None:
        # (sha256, format) -> the job drawing those bytes and the twins waiting on it.
        self._drawing: dict[tuple, tuple[object, list]] = {}
        # (sha256, format) -> ((preview, colours) drawn, png, colours), oldest first.
        self._drawn: OrderedDict[tuple, tuple[tuple, bytes | None, list | None]] = OrderedDict()
        self._drawn_bytes = 0
        # Twins of files drawn already: their results, for the caller to take (ready()).
        self._ready: deque = deque()

    def attach(self, job, key: tuple) -> bool:
        """Whether `job` (its file's key) takes another job's drawing; when it does not,
        it is drawn, and twins met later may take its result."""
        drawing = self._drawing.get(key)
        if drawing is not None:
            if _covers((drawing[0].preview, drawing[0].colours), job):
                drawing[1].append(job)
                return True
            return False  # drawn on its own; the first job stays the one twins wait on
        drawn = self._drawn.get(key)
        if drawn is not None and _covers(drawn[0], job):
            self._drawn.move_to_end(key)
            self._ready.append((job, drawn[1], drawn[2]))
            return True
        self._drawing[key] = (job, [])
        return False

    def drawn(self, job, key: tuple | None, png: bytes | None, colours: list | None) -> list:
        """`job` drew `png` and `colours`: the twins that were waiting on it, each with
        that result."""
        drawing = self._drawing.get(key) if key is not None else None
        if drawing is None or drawing[0] is not job:
            return []
        del self._drawing[key]
        self._remember(key, job, png, colours)
        return [(twin, png, colours) for twin in drawing[1]]

    def ready(self) -> Iterator[tuple]:
        """The twins of files drawn earlier, met since the last call, with their results."""
        while self._ready:
            yield self._ready.popleft()

    def _remember(self, key: tuple, job, png: bytes | None, colours: list | None) -> None:
        if key in self._drawn:
            self._drawn_bytes -= len(self._drawn.pop(key)[1] or b"")
        self._drawn[key] = ((job.preview, job.colours), png, colours)
        self._drawn_bytes += len(png or b"")
        while self._drawn_bytes > MEMO_BYTES:
            _, (_, old_png, _) = self._drawn.popitem(last=False)
            self._drawn_bytes -= len(old_png or b"")
