"""Preview images: PNG, at most 512 px on the longer side, made from a logo file."""

import io
import tempfile
import warnings

import resvg_py
from PIL import Image

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
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _open_raster(data: bytes) -> Image.Image:
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=["PNG"])
            if image.width * image.height > MAX_SOURCE_PIXELS:
                raise PreviewError("image too large to preview")
            image.load()
        except (
            OSError,
            SyntaxError,
            Image.DecompressionBombWarning,
            Image.DecompressionBombError,
        ) as exc:
            raise PreviewError(str(exc)) from exc
    return image


def render_preview(data: bytes, file_format: str) -> bytes:
    """The preview PNG of a file; PreviewError when it cannot be drawn."""
    if file_format == FileFormat.SVG:
        # An empty resources folder: a file's relative references resolve to nothing.
        with tempfile.TemporaryDirectory() as empty:
            try:
                png = resvg_py.svg_to_bytes(
                    svg_string=data.decode("utf-8", errors="replace"),
                    width=PREVIEW_MAX_PX,
                    resources_dir=empty,
                )
            except (ValueError, BaseException) as exc:  # resvg panics surface as BaseException
                if isinstance(exc, KeyboardInterrupt | SystemExit):
                    raise
                raise PreviewError(f"cannot render SVG: {exc}") from exc
        return _fit(_open_raster(bytes(png)))
    if file_format == FileFormat.PNG:
        return _fit(_open_raster(data))
    raise PreviewError(f"no preview for {file_format}")
