"""SQL kept in files: every database object a migration creates or changes is applied
from a frozen copy of its file (docs/sql.md)."""

from pathlib import Path


def frozen(migration: str) -> Path:
    """The folder of the frozen copies a migration applies: `sql/<its name>/` beside it."""
    path = Path(migration)
    return path.with_name("sql") / path.stem


def sql_text(folder: Path, *names: str) -> str:
    """The files `folder/<name>.sql`, in the order given, as one script."""
    return "\n".join((folder / f"{name}.sql").read_text() for name in names)
