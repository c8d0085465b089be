"""A copy of the project's code in a folder of the test's own, to run commands in as a
person would, beside files (a .env) that must not touch the developer's checkout."""

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What manage.py needs to run, and the scripts that write beside it.
SOURCES = [
    "manage.py",
    "scripts",
    "config",
    "accounts",
    "directory",
    "palettes",
    "proposals",
    "mcp_server",
    "templates",
    "static",
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
