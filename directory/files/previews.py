"""Preview images: PNG, at most 512 px on the longer side, made from a logo file.

An SVG is drawn from its sanitised copy (common/svg.py), whatever its origin: resvg
reads any local file an <image> names by an absolute or ../ path (resources_dir only
roots the relative ones), so an imported file could otherwise draw any image on the
server's disk into a public preview.
"""

import atexit
import contextlib
import functools
import io
import os
import tempfile

import resvg_py
from PIL import Image

from common.images import UNREADABLE, bombs_refused
from common.svg import UnsafeSvg, sanitize_svg
from common.svg_size import SvgSizeError
from directory.catalogue.models import FileFormat

PREVIEW_MAX_PX = 512
# Far above any real logo; a file that decodes to more is a decompression bomb.
MAX_SOURCE_PIXELS = 40_000_000
RENDERABLE = (FileFormat.SVG, FileFormat.PNG)


class PreviewError(Exception):
    pass


def _fit(image: Image.Image) -> bytes:
    image.thumbnail((PREVIEW_MAX_PX, PREVIEW_MAX_PX), Image.Resampling.LANCZOS)
    if image.mode not in ("RGBA", "RGB", "LA", "L"):
        image = image.convert("RGBA")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _open_raster(data: bytes) -> Image.Image:
    with bombs_refused():
        try:
            image = Image.open(io.BytesIO(data), formats=["PNG"])
            if image.width * image.height > MAX_SOURCE_PIXELS:
                raise PreviewError("image too large to preview")
            image.load()
        except UNREADABLE as exc:
            raise PreviewError(str(exc)) from exc
    return image


@functools.cache
def empty_folder() -> str:
    """An empty folder for resvg's resources_dir, so that a file's relative references
    resolve to nothing. One per process (forked workers share their parent's), removed
    at exit: a folder made and removed per drawing cost two synchronous directory
    writes each, milliseconds of waiting on a busy disk."""
    folder = tempfile.mkdtemp(prefix="resvg-empty-")
    atexit.register(_folder_remove, folder)
    return folder


def _folder_remove(folder: str) -> None:
    with contextlib.suppress(OSError):
        os.rmdir(folder)


def svg_png(data: bytes, longest: int) -> bytes:
    """A PNG of an SVG drawn from its sanitised copy, its longer side `longest` pixels in
    the proportions of its viewBox. PreviewError when it cannot be drawn.

    The copy's root says the size to draw (common/svg_size.py): resvg's canvas is at most
    `longest` x `longest`, whatever the file's own width, height and units said.
    """
    try:
        data = sanitize_svg(data, longest=longest)
    except (UnsafeSvg, SvgSizeError) as exc:
        raise PreviewError(str(exc)) from exc
    try:
        png = resvg_py.svg_to_bytes(
            svg_string=data.decode("utf-8", errors="replace"), resources_dir=empty_folder()
        )
    except (ValueError, BaseException) as exc:  # resvg panics surface as BaseException
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        raise PreviewError(f"cannot render SVG: {exc}") from exc
    return bytes(png)


def open_png(data: bytes) -> Image.Image:
    """A PNG file decoded, refusing decompression bombs; PreviewError when it cannot be."""
    return _open_raster(data)


def render_preview(data: bytes, file_format: str) -> bytes:
    """The preview PNG of a file; PreviewError when it cannot be drawn."""
    if file_format == FileFormat.SVG:
        return svg_png(data, PREVIEW_MAX_PX)  # drawn into the box: no second encoding
    if file_format == FileFormat.PNG:
        return _fit(_open_raster(data))
    raise PreviewError(f"no preview for {file_format}")
