"""Reading an image with Pillow when its bytes come from outside."""

import contextlib
import warnings
from collections.abc import Iterator

from PIL import Image

# What Pillow raises for bytes it cannot read as an image: broken or truncated data, a
# format it was not asked for, or more pixels than its decompression-bomb limit.
UNREADABLE = (
    OSError,
    SyntaxError,
    ValueError,
    Image.DecompressionBombWarning,
    Image.DecompressionBombError,
)


@contextlib.contextmanager
def bombs_refused() -> Iterator[None]:
    """Pillow's decompression-bomb warning raised as an error within: an image past the
    limit fails as a broken one does (UNREADABLE), instead of being decoded."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        yield


def unreadable_reason(error: BaseException, what: str) -> str:
    """Why Pillow could not read an image, in our words rather than Pillow's."""
    if isinstance(error, Image.DecompressionBombWarning | Image.DecompressionBombError):
        return f"{what} declares more pixels than are accepted"
    return f"{what} is broken, truncated or not of its format"
