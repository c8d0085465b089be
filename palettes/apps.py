from django.apps import AppConfig

from palettes.errors import PaletteErrorCode


class PalettesConfig(AppConfig):
    name = "palettes"
    default_auto_field = "django.db.models.BigAutoField"
    # Beside the API's generic codes (api.errors.error_codes).
    error_codes = PaletteErrorCode
