"""Brand colours of a logo file: at most 8 `#RRGGBB` codes (upper case), most used first.

SVG: the paints the drawn elements actually use, resolved as a browser would for what
logos use (presentation attributes < `<style>` rules by specificity < `style`, with
`!important`; inheritance; `currentColor`; gradient stops through `url(#id)` and `href`
chains; `none`, `transparent` and zero opacity draw nothing; `<defs>`, `<symbol>`,
`<clipPath>`, `<mask>` only through what references them). They are then ranked by the
area each covers in a 128 px rendering (pixels weighted by alpha, each given to the
nearest declared colour or gradient blend). The codes returned are always declared
ones, never a blend. Declared colours that cover no pixel (hidden, off the canvas, or a
white backdrop) come after the drawn ones; when the file cannot be rendered, use
counts rank them all.

Rasters (PNG, JPEG, WEBP): Pillow's median cut over the visible pixels (alpha >= 128),
without near-white pixels when the border says the logo sits on white; each colour
returned is the most frequent real pixel colour of its cluster, so a flat-coloured
logo gives back its exact codes. Edge blends and specks under 1% are dropped.
"""

import io

from PIL import Image, ImageChops

from common.images import UNREADABLE, bombs_refused
from directory.catalogue.models import FileFormat
from directory.colors.color_values import (
    MAX_COLORS,
    OPAQUE_ALPHA,
    SAMPLE_PX,
    ColorError,
    distance2,
    hex_code,
    near_white_mask,
    nearest_on_ramp,
    on_white,
)
from directory.colors.svg_colors import svg_colors
from directory.files.previews import MAX_SOURCE_PIXELS

# Raster clusters closer than this (Euclidean RGB) are one colour (JPEG noise, edges).
MERGE_DISTANCE = 32
# A raster cluster under this share lying within this distance of the line between two
# bigger ones is a blend of them (anti-aliasing, JPEG fringes), not a colour of its own.
BLEND_MAX_SHARE = 0.05
BLEND_DISTANCE = 20
WHITE = (255, 255, 255)
# Raster clusters under this share of the kept pixels are noise.
MIN_CLUSTER_SHARE = 0.01
RASTER_PALETTE = 32
RASTER_FORMATS = {"PNG", "JPEG", "JPG", "WEBP"}


def extract_colors(data: bytes, file_format: str) -> list[str]:
    """The brand colours of a file, most used first; [] when nothing visible is drawn."""
    file_format = str(file_format).upper()
    if file_format == FileFormat.SVG:
        return svg_colors(data)
    if file_format in RASTER_FORMATS:
        return _raster_colors(data)
    raise ColorError(f"no colours for {file_format}")


# --- rasters ---------------------------------------------------------------------------


def _open_raster(data: bytes) -> Image.Image:
    with bombs_refused():
        try:
            image = Image.open(io.BytesIO(data), formats=["PNG", "JPEG", "WEBP"])
            if image.width * image.height > MAX_SOURCE_PIXELS:
                raise ColorError("image too large")
            # JPEG decodes straight to a reduced scale: much faster on big photos.
            image.draft("RGB", (SAMPLE_PX, SAMPLE_PX))
            image.load()
            # Nearest: a sample of the real pixels, without invented in-between colours.
            image.thumbnail((SAMPLE_PX, SAMPLE_PX), Image.Resampling.NEAREST)
            return image.convert("RGBA")
        except UNREADABLE as exc:
            raise ColorError(f"unreadable image: {exc}") from exc


def _fold_blends(clusters: list[list], white_background: bool) -> list[list]:
    """Clusters without the small ones that are blends of two bigger neighbours.

    Anti-aliasing and JPEG fringes mix the colours either side of an edge: such a
    cluster lies on the line between two bigger ones (or one and the white background)
    and is folded into the nearer of the two, or dropped when that is the background.
    """
    total = sum(size for size, _ in clusters)
    kept: list[list] = []
    for cluster in sorted(clusters, key=lambda item: -item[0]):
        size, rgb = cluster
        blend, home = False, None  # home None: the background's, dropped
        if size < total * BLEND_MAX_SHARE:
            ends: list[list | None] = [*kept, None] if white_background else list(kept)
            best = BLEND_DISTANCE**2 + 1
            for index, start in enumerate(ends[:-1]):
                for end in ends[index + 1 :]:
                    distance2, end_nearer = nearest_on_ramp(
                        rgb, start[1], end[1] if end is not None else WHITE
                    )
                    if distance2 < best:
                        best, blend, home = distance2, True, (end if end_nearer else start)
        if not blend:
            kept.append(cluster)
        elif home is not None:
            home[0] += size
    return kept


def _raster_colors(data: bytes) -> list[str]:
    image = _open_raster(data)
    keep = image.getchannel("A").point(lambda v: 255 if v >= OPAQUE_ALPHA else 0)
    drawn_on_white = on_white(image)
    if drawn_on_white:
        keep = ImageChops.subtract(keep, near_white_mask(image))
    image.putalpha(keep)
    counts = [
        (count, rgba[:3])
        for count, rgba in image.getcolors(image.width * image.height) or []
        if rgba[3]
    ]
    total = sum(count for count, _ in counts)
    if not total:
        return []
    # Kept pixels in a row, each colour as one run, so a run's index maps back to it.
    counts.sort(key=lambda item: -item[0])
    strip = Image.frombytes("RGB", (total, 1), b"".join(bytes(rgb) * n for n, rgb in counts))
    quantized = strip.quantize(colors=RASTER_PALETTE, method=Image.Quantize.MEDIANCUT)
    indexes = quantized.tobytes()  # one byte, the palette index, per pixel
    clusters: dict[int, list] = {}  # index -> [pixel count, most frequent colour]
    offset = 0
    for count, rgb in counts:
        cluster = clusters.setdefault(indexes[offset], [0, rgb])
        cluster[0] += count  # counts are sorted, so the first colour seen is the mode
        offset += count
    merged: list[list] = []
    for size, rgb in sorted(clusters.values(), key=lambda item: -item[0]):
        for bigger in merged:
            if distance2(bigger[1], rgb) <= MERGE_DISTANCE**2:
                bigger[0] += size
                break
        else:
            merged.append([size, rgb])
    merged = sorted(_fold_blends(merged, drawn_on_white), key=lambda item: -item[0])
    return [hex_code(rgb) for size, rgb in merged if size >= total * MIN_CLUSTER_SHARE][:MAX_COLORS]
