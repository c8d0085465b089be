"""The logo directory's catalogue app (one Django app, label `directory`), in rooms by
concern. Each sub-package owns its modules and its tests (tests/directory/<room>/), and
depends only on the rooms below it; pyproject.toml's import-linter contract "directory:
its sub-packages depend downward only" holds the order, from the top:

- importing, demo: the catalogue import and its derived pass; the demo catalogue.
- editing: writes to the catalogue (services), the staff admin and its forms.
- search, images, downloads: search and related search; the Logo Link's pictures;
  download links and quotas.
- colors: brand colours of a logo file, and contrast.
- files: what a file's bytes are, and its preview PNG.
- catalogue: the models of companies, logos and domains, their reads and shapes.
- errors.py: the app's error codes, which its AppConfig declares (as every app's).

Each room serves its own endpoints (views.py, serializers.py); urls.py lists them under
/v1/public in the OpenAPI document's order. The website's catalogue pages (pages.py) show
a company or a logo with its search, colours and download together, so they sit at the
top. What Django finds by name stays there too: apps.py, models.py (imports the models),
admin.py (imports the admin), management/commands/ and migrations/. So does sql/, the
PostgreSQL functions, triggers and side tables (docs/sql.md): sql_file records each
file by its path under the app, and 0001_initial reads the tables' files from there.
"""
