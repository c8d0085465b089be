"""Long steps of the commands say how far they got: bars on a terminal, lines elsewhere."""

import io
import os

from django.core.management.base import OutputWrapper

from common.cli import progress


class Clock:
    """Seconds that move by a fixed step each time they are read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_it_writes_a_line_every_few_seconds_when_nobody_watches_a_terminal():
    written = io.StringIO()

    items = list(
        progress(
            range(10),
            total=10,
            stream=OutputWrapper(written),
            label="import",
            every=5.0,
            clock=Clock(step=2.0),
        )
    )

    assert items == list(range(10))
    assert written.getvalue().splitlines() == [
        "import: 0 of 10",
        "import: 3 of 10 (30%) in 6 s, about 14 s left",
        "import: 6 of 10 (60%) in 12 s, about 8 s left",
        "import: 9 of 10 (90%) in 18 s, about 2 s left",
        "import: 10 of 10 in 22 s",
    ]


def test_it_says_nothing_of_an_empty_step():
    written = io.StringIO()

    assert list(progress([], total=0, stream=OutputWrapper(written), label="colours")) == []
    assert written.getvalue() == ""


def test_it_draws_a_bar_in_place_on_a_terminal():
    controller, terminal = os.openpty()
    with os.fdopen(terminal, "w") as stream:
        assert list(progress(range(4), total=4, stream=OutputWrapper(stream), label="draw")) == [
            0,
            1,
            2,
            3,
        ]
    # The terminal writes a new line as \r\n.
    drawn = _read_all(controller).decode().replace("\r\n", "\n")
    os.close(controller)

    frames = drawn.split("\r")[1:]
    assert len(frames) == 4
    assert frames[0].startswith("draw       [#######.......................] 1/4")
    assert frames[-1].strip() == "draw       [##############################] 4/4"
    assert "\n" not in "".join(frames[:-1])


def _read_all(controller: int) -> bytes:
    """Everything written to a pseudo-terminal whose other end is closed: one read can
    return only the first of the writes, and Linux ends the stream with EIO."""
    chunks = []
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)
