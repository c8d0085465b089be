from django.apps import AppConfig


class PalettesConfig(AppConfig):
    name = "palettes"
    default_auto_field = "django.db.models.BigAutoField"
