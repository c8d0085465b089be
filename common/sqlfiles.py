"""SQL kept in files under <app>/sql/ (docs/sql.md). Functions and triggers are applied
whenever their text changes, after the migrations, the way Flyway applies repeatable
migrations: the table sql_file holds the checksum of each file as last applied.
Tables, types and indexes are created once, by a migration reading their files."""

import hashlib
import sys
from pathlib import Path

from django.apps import apps as django_apps
from django.db import ProgrammingError, connections, transaction
from django.db.migrations.operations.base import Operation

# In this order: a trigger needs its function.
REPEATABLE = ("functions", "triggers")

CHECKSUMS = """
CREATE TABLE IF NOT EXISTS sql_file (
  path text PRIMARY KEY,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)"""


def text(app_path: str, *names: str) -> str:
    """The files `<app>/sql/<name>.sql`, in the order given, as one script."""
    return "\n".join(Path(app_path, "sql", f"{name}.sql").read_text() for name in names)


def tables_missing(app_path: str, *tables: str) -> str:
    """A script creating each of `tables` from its file (`tables/<table>`) unless the
    database has it: for a migration that adds a table, which a database built by the
    app's first migration from the tables' current files holds already."""
    steps = "".join(
        f"  IF to_regclass('{table}') IS NULL THEN\n    {text(app_path, f'tables/{table}')}\n"
        "  END IF;\n"
        for table in tables
    )
    return f"DO $migration$\nBEGIN\n{steps}END $migration$;\n"


def repeatable(app_path: str, *names: str) -> list[Path]:
    """The app's function and trigger files: those named (`functions/<name>`), or all."""
    folder = Path(app_path, "sql")
    if names:
        return [folder / f"{name}.sql" for name in names]
    return [path for kind in REPEATABLE for path in sorted(folder.glob(f"{kind}/*.sql"))]


def key(path: Path) -> str:
    """How sql_file names a file: `<app>/sql/<kind>/<name>.sql`."""
    return "/".join(path.parts[-4:])


def apply(alias: str, files: list[Path]) -> list[str]:
    """Applies each file whose text is not the one last applied, in one transaction, and
    returns their paths. A function's SQL body is checked when it is created, so a file
    that calls a function not created yet waits for a later round."""
    connection = connections[alias]
    keys = {key(path): path for path in files}
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        # Two processes migrating at once take turns; the second finds nothing to do.
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('sql_file'))")
        cursor.execute(CHECKSUMS)
        cursor.execute("SELECT path, checksum FROM sql_file WHERE path = ANY(%s)", [list(keys)])
        applied = dict(cursor.fetchall())
        checksums = {
            name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in keys.items()
        }
        pending = [name for name in keys if applied.get(name) != checksums[name]]
        changed = list(pending)
        while pending:
            failed = []
            for name in pending:
                try:
                    with transaction.atomic(using=alias):
                        cursor.execute(keys[name].read_text())
                except ProgrammingError as error:
                    failed.append((name, error))
            if len(failed) == len(pending):
                raise failed[0][1]
            pending = [name for name, _ in failed]
        for name in changed:
            cursor.execute(
                "INSERT INTO sql_file (path, checksum) VALUES (%s, %s) ON CONFLICT (path)"
                " DO UPDATE SET checksum = excluded.checksum, applied_at = now()",
                [name, checksums[name]],
            )
    return changed


def apply_after_migrate(sender, using, plan=None, apps=None, **kwargs) -> None:
    """post_migrate: the app's function and trigger files whose text changed. Not after
    a flush (no plan), nor when the app was migrated back to zero. A file deleted loses
    its row, so that it is applied again if it comes back."""
    if plan is None or sender.label not in {model._meta.app_label for model in apps.get_models()}:
        return
    files = repeatable(sender.path)
    for name in apply(using, files):
        if kwargs.get("verbosity", 1) >= 1:
            kwargs.get("stdout", sys.stdout).write(f"  Applied {name}\n")
    with connections[using].cursor() as cursor:
        cursor.execute(
            "DELETE FROM sql_file WHERE path LIKE %s AND NOT path = ANY(%s)",
            [f"{Path(sender.path).name}/sql/%", [key(path) for path in files]],
        )


class ApplySqlFiles(Operation):
    """A migration step that applies the app's function and trigger files named (all when
    none) as after the migrations, for a versioned step that needs them first: a
    generated column calling a function, a statement filling a table.

    Going back leaves them: the files are the code's current text, not the migration's
    (no earlier text is kept to go back to), and after any migrate the database holds
    the files' text (apply_after_migrate). Dropping them would drop the generated columns
    that call them. Only the step that first creates them, in the app's initial
    migration, passes `drop_on_reverse`: going back to zero then drops the functions, and
    with them their triggers, and forgets their checksums."""

    reversible = True

    def __init__(self, *names: str, drop_on_reverse: bool = False):
        self.names = names
        self.drop_on_reverse = drop_on_reverse

    def state_forwards(self, app_label, state) -> None:
        pass

    def database_forwards(self, app_label, schema_editor, from_state, to_state) -> None:
        app_path = django_apps.get_app_config(app_label).path
        apply(schema_editor.connection.alias, repeatable(app_path, *self.names))

    def database_backwards(self, app_label, schema_editor, from_state, to_state) -> None:
        if not self.drop_on_reverse:
            return
        app_path = django_apps.get_app_config(app_label).path
        files = repeatable(app_path, *self.names)
        for path in files:
            if path.parent.name == "functions":
                schema_editor.execute(f"DROP FUNCTION IF EXISTS {path.stem} CASCADE")
        schema_editor.execute(
            "DELETE FROM sql_file WHERE path = ANY(%s)", [[key(path) for path in files]]
        )

    def describe(self) -> str:
        return f"Apply the SQL files {', '.join(self.names) or 'of functions and triggers'}"

    def deconstruct(self):
        kwargs = {"drop_on_reverse": True} if self.drop_on_reverse else {}
        return (self.__class__.__name__, self.names, kwargs)
