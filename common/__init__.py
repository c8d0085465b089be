"""What the apps share and none of them owns, outside HTTP: the Redis cache backend and
its lookups (`cache.py`), the catalogue's read-replica router (`db_router.py`), the SQL
files applied after `migrate` (`sqlfiles.py`), progress lines for management commands
(`cli.py`), CPU work over every core (`parallel.py`), reading untrusted images
(`images.py`) and the SVG sanitiser (`svg.py`, `svg_size.py`, `svg_allowlist.py`). It
imports no app, so every app may use it (import-linter, pyproject.toml)."""
