"""The project run in processes of its own, as a person runs it: the test database's
address, and a copy of the code to run commands in beside files (a .env) that must not
touch the developer's checkout."""

import shutil
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
# What manage.py needs to run, and the scripts that write beside it.
SOURCES = [
    "manage.py",
    "scripts",
    "common",
    "config",
    "accounts",
    "directory",
    "palettes",
    "proposals",
    "mcp_server",
    "templates",
    "static",
    "locale",
]


def project_copy(destination: Path) -> Path:
    """The project's code under destination/project, its .venv a link to this one's."""
    project = destination / "project"
    project.mkdir()
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, project / name)
    (project / ".venv").symlink_to(ROOT / ".venv")
    return project


def database_url() -> str:
    """The test database as a DATABASE_URL."""
    database = connection.settings_dict
    password = f":{database['PASSWORD']}" if database["PASSWORD"] else ""
    return (
        f"postgres://{database['USER']}{password}@{database['HOST']}:{database['PORT']}/"
        f"{database['NAME']}"
    )
