"""Preview images: PNG, at most 512 px on the longer side, made from a logo file.

An SVG is drawn from its sanitised copy (common/svg.py), whatever its origin: resvg
reads any local file an <image> names by an absolute or ../ path (resources_dir only
roots the relative ones), so an imported file could otherwise draw any image on the
server's disk into a public preview.
"""

import io
import tempfile

import resvg_py
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring
from PIL import Image

from common.images import UNREADABLE, bombs_refused
from common.svg import UnsafeSvg, sanitize_svg
from directory.models import FileFormat

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


def _svg_aspect(data: bytes) -> float | None:
    """Width over height from the root's viewBox or width/height, when they say."""
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except (ParseError, DefusedXmlException, ValueError):
        return None
    view_box = root.get("viewBox", "").replace(",", " ").split()
    try:
        if len(view_box) == 4:
            width, height = float(view_box[2]), float(view_box[3])
        else:
            width = float(root.get("width", "").removesuffix("px"))
            height = float(root.get("height", "").removesuffix("px"))
    except ValueError:
        return None
    return width / height if width > 0 and height > 0 else None


def svg_png(data: bytes, longest: int) -> bytes:
    """A PNG of an SVG drawn from its sanitised copy, its longer side `longest` pixels
    (when the file says its proportions; else `longest` wide). PreviewError when it
    cannot be drawn."""
    try:
        data = sanitize_svg(data)
    except UnsafeSvg as exc:
        raise PreviewError(str(exc)) from exc
    # Draw straight into the box, so a very tall file is never rasterised whole.
    aspect = _svg_aspect(data)
    box = {"height": longest} if aspect is not None and aspect < 1 else {"width": longest}
    # An empty resources folder: a file's relative references resolve to nothing.
    with tempfile.TemporaryDirectory() as empty:
        try:
            png = resvg_py.svg_to_bytes(
                svg_string=data.decode("utf-8", errors="replace"),
                resources_dir=empty,
                **box,
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
        png = svg_png(data, PREVIEW_MAX_PX)
        with Image.open(io.BytesIO(png), formats=["PNG"]) as drawn:  # reads the header only
            if max(drawn.size) <= PREVIEW_MAX_PX:
                return png  # already drawn into the box: no second encoding
        return _fit(_open_raster(png))
    if file_format == FileFormat.PNG:
        return _fit(_open_raster(data))
    raise PreviewError(f"no preview for {file_format}")
