from django.apps import AppConfig


class DirectoryConfig(AppConfig):
    name = "directory"
    default_auto_field = "django.db.models.BigAutoField"
