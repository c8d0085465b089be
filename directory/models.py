"""Django looks for an app's models in `<app>.models`; the directory's live in its
rooms (directory/catalogue/models.py, directory/downloads/models.py,
directory/importing/models.py, directory/search/models.py). Code imports them from there."""

from directory.catalogue.models import Asset, Company, Domain, Logo, Sector, Variant
from directory.downloads.models import Download
from directory.importing.models import ImportDigest
from directory.search.models import CompanyEmbedding

__all__ = [
    "Asset",
    "Company",
    "CompanyEmbedding",
    "Domain",
    "Download",
    "ImportDigest",
    "Logo",
    "Sector",
    "Variant",
]
