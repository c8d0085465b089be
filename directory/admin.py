"""Django's admin imports `<app>.admin`; the catalogue's admin is
directory/editing/admin.py."""

from directory.editing import admin  # noqa: F401
