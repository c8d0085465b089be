"""Screenshots the test run keeps in the repository (docs/screenshots).

A file is written only when its pixels change: the PNG encoder may order its bytes
differently from run to run, and a run over the same pages must leave git clean. The
pages are drawn the same every run because the tests fix what varies: their data, the
clock (time_machine) and the fonts (tests/fonts.conf).
"""

from io import BytesIO
from pathlib import Path

from PIL import Image


def _pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    image = Image.open(BytesIO(png)).convert("RGBA")
    return image.size, image.tobytes()


def screenshot_kept(page, path: Path) -> None:
    """The whole page at `path`, unless the file there already shows the same pixels."""
    png = page.screenshot(full_page=True, animations="disabled", caret="hide")
    if path.exists() and _pixels(path.read_bytes()) == _pixels(png):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
