"""The database holds exactly the SQL objects of the files under <app>/sql/ (docs/sql.md):
each file, applied again to the migrated database, changes nothing. Each object's text
is in its file only: migrations hold no SQL file and never load one another."""

import ast
import hashlib
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from common import sqlfiles
from directory.search import selectors as search
from tests.factories import CompanyFactory, LogoFactory

pytestmark = pytest.mark.django_db

PROJECT_APPS = [
    app for app in apps.get_app_configs() if Path(app.path).parent == Path(settings.BASE_DIR)
]
FILES = sorted(path for app in PROJECT_APPS for path in Path(app.path, "sql").glob("*/*.sql"))
NAME = re.compile(
    r"CREATE (?:OR REPLACE )?(?:UNIQUE )?(FUNCTION|TRIGGER|TABLE|TYPE|INDEX) (\w+)", re.IGNORECASE
)


def created(path: Path) -> tuple[str, str]:
    """What a file creates: (kind, name), from its one CREATE statement."""
    kind, name = NAME.search(path.read_text()).groups()
    return kind.upper(), name


def one(sql: str, *params) -> list:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def function_definitions(name: str) -> list[str]:
    return [
        row[0]
        for row in one(
            "SELECT pg_get_functiondef(p.oid) FROM pg_proc p"
            " WHERE p.proname = %s AND p.pronamespace = 'public'::regnamespace ORDER BY p.oid",
            name,
        )
    ]


def trigger_definition(name: str) -> list:
    return one(
        "SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t"
        " WHERE t.tgname = %s AND NOT t.tgisinternal",
        name,
    )


def columns(schema: str, name: str) -> list:
    """A table's or a composite type's attributes, and a table's constraints."""
    attributes = one(
        "SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,"
        " pg_get_expr(d.adbin, d.adrelid), a.attcollation::regcollation::text"
        " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
        " LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
        " WHERE c.relname = %s AND c.relnamespace = %s::regnamespace"
        " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
        name,
        schema,
    )
    constraints = one(
        "SELECT k.contype, pg_get_constraintdef(k.oid) FROM pg_constraint k"
        " JOIN pg_class c ON c.oid = k.conrelid"
        " WHERE c.relname = %s AND c.relnamespace = %s::regnamespace ORDER BY 1, 2",
        name,
        schema,
    )
    return [attributes, constraints]


def index_definition(name: str) -> list:
    return one(
        "SELECT pg_get_indexdef(i.oid) FROM pg_class i"
        " WHERE i.relname = %s AND i.relkind = 'i' AND i.relnamespace = 'public'::regnamespace",
        name,
    )


def apply(path: Path) -> None:
    with connection.cursor() as cursor:
        cursor.execute(path.read_text())


def definition(path: Path) -> list:
    """How the database holds the function or trigger a file creates."""
    kind, name = created(path)
    return (function_definitions if kind == "FUNCTION" else trigger_definition)(name)


def differing_from_files() -> list[str]:
    """The function and trigger files whose objects the database holds otherwise: applied
    again, they change what it holds."""
    differing = []
    for path in FILES:
        if path.parent.name in sqlfiles.REPEATABLE:
            held = definition(path)
            apply(path)
            if definition(path) != held:
                differing.append(path.name)
    return differing


def recorded(path: Path) -> list:
    return one("SELECT checksum FROM sql_file WHERE path = %s", sqlfiles.key(path))


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(settings.BASE_DIR)))
def test_it_finds_the_database_holding_what_each_file_says(path):
    kind, name = created(path)
    if kind in ("FUNCTION", "TRIGGER"):
        held = definition(path)
        assert held, f"{name} is not in the database"
        apply(path)  # CREATE OR REPLACE: the file's text in place of the database's
        assert definition(path) == held
    elif kind in ("TABLE", "TYPE"):
        # Created afresh in a schema of its own, and compared column by column.
        one("CREATE SCHEMA sql_file_check")
        one("SET LOCAL search_path = sql_file_check, public")
        apply(path)
        one("SET LOCAL search_path = public")
        assert columns("public", name) != [[], []], f"{name} is not in the database"
        assert columns("sql_file_check", name) == columns("public", name)
    else:
        held = index_definition(name)
        assert held, f"{name} is not in the database"
        one(f'ALTER INDEX "{name}" RENAME TO "{name}_held"')
        apply(path)
        assert index_definition(name) == held


def test_it_finds_a_file_for_every_sql_object_of_the_database():
    # What the migrations made beside Django's models: functions, triggers, composite
    # types, tables no model owns, and the indexes on those tables. Objects of
    # extensions are theirs.
    models = {model._meta.db_table for model in apps.get_models(include_auto_created=True)}
    held = set(
        one(
            "SELECT 'FUNCTION', p.proname FROM pg_proc p"
            " WHERE p.pronamespace = 'public'::regnamespace AND NOT EXISTS ("
            "  SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass"
            "  AND d.objid = p.oid AND d.deptype = 'e')"
            " UNION SELECT 'TRIGGER', t.tgname FROM pg_trigger t WHERE NOT t.tgisinternal"
            " UNION SELECT 'TYPE', c.relname FROM pg_class c"
            "  WHERE c.relkind = 'c' AND c.relnamespace = 'public'::regnamespace"
            " UNION SELECT 'TABLE', c.relname FROM pg_class c"
            "  WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace"
            " UNION SELECT 'INDEX ON ' || t.relname, i.relname FROM pg_index x"
            "  JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid"
            "  WHERE t.relnamespace = 'public'::regnamespace AND NOT x.indisprimary"
        )
    )
    unowned = {
        (kind, name)
        for kind, name in held
        if kind in ("FUNCTION", "TRIGGER", "TYPE")
        or (
            kind == "TABLE" and name not in models and name not in ("django_migrations", "sql_file")
        )
    }
    tables = {name for kind, name in unowned if kind == "TABLE"}
    unowned |= {
        ("INDEX", name)
        for kind, name in held
        if kind.startswith("INDEX ON ") and kind.removeprefix("INDEX ON ") in tables
    }

    assert unowned - {created(path) for path in FILES} == set()


def imported(path: Path):
    """The names a module imports, and the attributes it reads (importlib.import_module)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield node.module or ""
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.Attribute):
            yield node.attr


def test_it_finds_no_migration_loading_another_nor_holding_sql():
    # An object's text lives in its file under <app>/sql/ and nowhere else.
    migrations = [
        path for app in PROJECT_APPS for path in Path(app.path, "migrations").glob("0*.py")
    ]
    loading = {
        path.name: found
        for path in migrations
        if (found := [n for n in imported(path) if ".migrations" in n or n == "import_module"])
    }

    assert migrations
    assert loading == {}
    assert list(Path(settings.BASE_DIR).glob("*/migrations/**/*.sql")) == []


DIRECTORY_SQL = Path(settings.BASE_DIR, "directory", "sql")
FOLD = DIRECTORY_SQL / "functions" / "directory_fold.sql"
LOGO_DOC = DIRECTORY_SQL / "triggers" / "directory_logo_search_doc.sql"


def test_it_applies_on_migrate_the_files_whose_text_changed():
    # What an edited file looks like to a database: a checksum other than the one
    # recorded when it was last applied.
    one("ALTER FUNCTION directory_fold COST 1234")
    one("DROP TRIGGER directory_logo_search_doc ON directory_logo")
    one(
        "UPDATE sql_file SET checksum = 'edited' WHERE path = ANY(%s)",
        [sqlfiles.key(FOLD), sqlfiles.key(LOGO_DOC)],
    )

    call_command("migrate", verbosity=0)

    assert differing_from_files() == []
    assert recorded(FOLD) == [(hashlib.sha256(FOLD.read_bytes()).hexdigest(),)]


def test_it_leaves_on_migrate_a_function_whose_file_is_unchanged():
    # As Flyway's repeatable migrations: the checksums decide, not the database's text.
    one("ALTER FUNCTION directory_fold COST 1234")

    call_command("migrate", verbosity=0)

    assert "COST 1234" in function_definitions("directory_fold")[0]


def test_it_brings_a_database_migrated_before_its_files_had_checksums_to_the_files():
    # A database migrated through the migrations 0001-0020 that the initial one replaces.
    one("DROP TABLE sql_file")
    one("ALTER FUNCTION directory_fold COST 1234")

    call_command("migrate", verbosity=0)

    assert differing_from_files() == []
    assert one("SELECT count(*) FROM sql_file") == [
        (len([path for path in FILES if path.parent.name in sqlfiles.REPEATABLE]),)
    ]


def test_it_applies_an_edited_file_once_and_a_new_signature_after_its_drop(tmp_path):
    probe = tmp_path / "probe" / "sql" / "functions" / "sql_file_probe.sql"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "CREATE OR REPLACE FUNCTION sql_file_probe() RETURNS int LANGUAGE sql RETURN 1;"
    )
    assert sqlfiles.apply(connection.alias, [probe]) == ["probe/sql/functions/sql_file_probe.sql"]
    assert sqlfiles.apply(connection.alias, [probe]) == []

    probe.write_text(
        "DROP FUNCTION IF EXISTS sql_file_probe();\n"
        "CREATE OR REPLACE FUNCTION sql_file_probe(n int) RETURNS int LANGUAGE sql RETURN n;"
    )

    assert sqlfiles.apply(connection.alias, [probe]) == ["probe/sql/functions/sql_file_probe.sql"]
    assert one("SELECT sql_file_probe(2)") == [(2,)]
    assert one("SELECT count(*) FROM pg_proc WHERE proname = 'sql_file_probe'") == [(1,)]


def test_it_applies_a_file_calling_a_function_whose_file_comes_after_it(tmp_path):
    # A function whose SQL body is checked at creation needs the functions it calls.
    folder = tmp_path / "probe" / "sql" / "functions"
    folder.mkdir(parents=True)
    (folder / "a.sql").write_text(
        "CREATE OR REPLACE FUNCTION sql_file_probe_a() RETURNS int LANGUAGE sql"
        " RETURN sql_file_probe_b() + 1;"
    )
    (folder / "b.sql").write_text(
        "CREATE OR REPLACE FUNCTION sql_file_probe_b() RETURNS int LANGUAGE sql RETURN 1;"
    )

    sqlfiles.apply(connection.alias, sorted(folder.glob("*.sql")))

    assert one("SELECT sql_file_probe_a()") == [(2,)]


def generated_columns() -> list:
    return one(
        "SELECT table_name, column_name, generation_expression FROM information_schema.columns"
        " WHERE table_schema = 'public' AND is_generated = 'ALWAYS' ORDER BY 1, 2"
    )


def test_it_keeps_the_generated_columns_when_a_migration_applying_files_is_reversed():
    # 0003 applies the function files (ApplySqlFiles); going back leaves the functions,
    # and with them the generated columns that call them.
    logo = LogoFactory(company=CompanyFactory(name="Talleres Núñez"), title="Emblema Cádiz")
    columns_before = generated_columns()
    assert columns_before

    call_command("migrate", "directory", "0002", verbosity=0)
    assert generated_columns() == columns_before
    call_command("migrate", verbosity=0)

    assert generated_columns() == columns_before
    assert differing_from_files() == []
    assert one(
        "SELECT c.name_fold, l.title_fold FROM directory_company c"
        " JOIN directory_logo l ON l.company_id = c.id WHERE l.id = %s",
        logo.pk,
    ) == [("talleres nunez", "emblema cadiz")]
    rows, total = search.company_page(term="nunez", sector=None, province=None, offset=0, limit=5)
    assert ([row["name"] for row in rows], total) == (["Talleres Núñez"], 1)
