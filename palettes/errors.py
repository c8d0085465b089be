"""The error codes of the palette endpoints, beside the API's generic ones
(api/errors.py). PalettesConfig declares them, so the OpenAPI document lists them
(api.errors.error_codes)."""

from enum import StrEnum


class PaletteErrorCode(StrEnum):
    PALETTE_NOT_FOUND = "PALETTE_NOT_FOUND"
    PALETTE_LIMIT = "PALETTE_LIMIT"
