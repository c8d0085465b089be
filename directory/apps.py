from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save

from common import sqlfiles
from directory.errors import DirectoryErrorCode


class DirectoryConfig(AppConfig):
    name = "directory"
    default_auto_field = "django.db.models.BigAutoField"
    # Beside the API's generic codes (api.errors.error_codes).
    error_codes = DirectoryErrorCode

    def ready(self) -> None:
        # The functions and triggers of directory/sql/ whose text changed (docs/sql.md).
        post_migrate.connect(
            sqlfiles.apply_after_migrate, sender=self, dispatch_uid="directory.sql"
        )
        # Whatever writes a domain, a website or a company's name (the import, the
        # admin, a proposal's approval, a shell), the domain list follows after commit.
        # Writes that bypass the models (QuerySet.update, SQL) wait for the list's
        # five-minute rebuild.
        from directory.catalogue.models import Asset, Company, Domain, Logo, Variant
        from directory.editing import services

        post_save.connect(services.domain_saved, sender=Domain, dispatch_uid="directory.domain")
        post_delete.connect(services.domain_saved, sender=Domain, dispatch_uid="directory.domain")
        post_save.connect(services.company_saved, sender=Company, dispatch_uid="directory.company")
        post_delete.connect(
            services.company_deleted, sender=Company, dispatch_uid="directory.company"
        )
        # And the Logo Link draws anew what any of these change (services.images_changed).
        for model in (Company, Logo, Variant, Asset):
            uid = f"directory.images.{model.__name__}"
            post_save.connect(services.catalogue_saved, sender=model, dispatch_uid=uid)
            post_delete.connect(services.catalogue_saved, sender=model, dispatch_uid=uid)
