"""The error codes of the catalogue's endpoints (companies, logos, downloads, the Logo
Link), beside the API's generic ones (api/errors.py). DirectoryConfig declares them, so
the OpenAPI document lists them (api.errors.error_codes)."""

from enum import StrEnum


class DirectoryErrorCode(StrEnum):
    COMPANY_NOT_FOUND = "COMPANY_NOT_FOUND"
    LOGO_NOT_FOUND = "LOGO_NOT_FOUND"
    FORMAT_NOT_AVAILABLE = "FORMAT_NOT_AVAILABLE"
    DOWNLOAD_LIMIT_REACHED = "DOWNLOAD_LIMIT_REACHED"
