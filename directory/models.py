"""Django looks for an app's models in `<app>.models`; the directory's live in its
sub-packages (directory/catalogue/models.py). Code imports them from there."""

from directory.catalogue.models import (
    Asset,
    Company,
    CompanyEmbedding,
    Domain,
    Download,
    Logo,
    Sector,
    Variant,
)

__all__ = [
    "Asset",
    "Company",
    "CompanyEmbedding",
    "Domain",
    "Download",
    "Logo",
    "Sector",
    "Variant",
]
