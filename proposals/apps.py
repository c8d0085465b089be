from django.apps import AppConfig


class ProposalsConfig(AppConfig):
    name = "proposals"
    default_auto_field = "django.db.models.BigAutoField"
