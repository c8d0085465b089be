"""bench/search.py's database: the server, migrations, the synthetic catalogue, the facts
reported about it, and EXPLAIN ANALYZE of the slowest searches."""

import json
import os
import re
import subprocess
import warnings
from dataclasses import asdict
from urllib.parse import urlsplit

import psycopg

from bench import catalogue
from bench.mix import Sample
from bench.search_server import ROOT, VENV_BIN, Sent, django_env

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:54320/logodir_bench"
START_DEV_CLUSTER = (
    "source scripts/lib.sh; ensure_postgres_binaries; start_postgres dev 54320;"
    " ensure_database 54320 logodir_bench"
)
START_REDIS = "source scripts/lib.sh; ensure_redis_binaries; start_redis bench 56382"
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


def require_loopback(url: str) -> None:
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK_HOSTS and not host.startswith("127."):
        raise SystemExit(f"the benchmark only talks to loopback addresses, not {host!r}")


def bench_database(url: str | None) -> str:
    if not os.environ.get("REDIS_URL"):
        subprocess.run(["bash", "-c", START_REDIS], cwd=ROOT, check=True)
    if url:
        require_loopback(url)
        return url
    print("==> starting the project-local PostgreSQL (scripts/lib.sh, 127.0.0.1:54320)")
    subprocess.run(["bash", "-c", START_DEV_CLUSTER], cwd=ROOT, check=True)
    return DEFAULT_DATABASE_URL


def migrate(database_url: str) -> bool:
    """Run manage.py migrate, which also applies the SQL files whose text changed since
    they were last applied to this database (docs/sql.md), so that a database kept
    between runs holds the checkout's functions; whether it applied anything."""

    def state() -> tuple:
        # How many migrations are recorded, and when a SQL file was last applied.
        with psycopg.connect(database_url) as conn:
            tables = conn.execute(
                "SELECT to_regclass('django_migrations'), to_regclass('sql_file')"
            ).fetchone()
            if None in tables:
                return tables
            return conn.execute(
                "SELECT (SELECT count(*) FROM django_migrations),"
                " (SELECT max(applied_at) FROM sql_file)"
            ).fetchone()

    print("==> manage.py migrate")
    before = state()
    subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=django_env(database_url, 8000),
        check=True,
    )
    return state() != before


def ensure_data(
    conn: psycopg.Connection,
    companies: int,
    seed: int,
    reload: bool,
    rows: catalogue.Rows | None = None,
) -> dict:
    """Load the catalogue unless the database holds `companies` companies already; `rows`
    as catalogue.load takes them."""
    present = catalogue.company_count(conn)
    if present == companies and not reload:
        print(f"==> the database already holds {companies:,} companies; not reloading")
        return {"loaded": False}
    print(f"==> loading {companies:,} synthetic companies (found {present:,})")
    generated = catalogue.load(conn, companies, seed, rows)
    print(
        f"    {generated.companies:,} companies, {generated.logos:,} logos,"
        f" {generated.alternative_names:,} alternative names in {generated.seconds:.1f} s"
    )
    print(
        "    " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in generated.steps.items())
    )
    return {"loaded": True, **asdict(generated)}


def prewarm(conn: psycopg.Connection) -> bool:
    """Read the catalogue tables and their indexes into shared buffers."""
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        conn.execute(
            "SELECT pg_prewarm(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')"
            " AND c.relname LIKE 'directory\\_%'"
        )
    except psycopg.Error as error:
        print(f"    pg_prewarm unavailable ({error}); the warm-up requests warm the cache")
        return False
    return True


def read_sample(conn: psycopg.Connection) -> Sample:
    names: list[str] = []
    alternative: list[str] = []
    for name, others in conn.execute(
        "SELECT name, alternative_names FROM directory_company ORDER BY slug"
    ):
        names.append(name)
        alternative.extend(others)
    titles = [row[0] for row in conn.execute("SELECT title FROM directory_logo ORDER BY slug")]
    sectors = list(conn.execute("SELECT slug, name FROM directory_sector ORDER BY slug"))
    provinces = [
        row[0]
        for row in conn.execute(
            "SELECT DISTINCT province FROM directory_company WHERE province IS NOT NULL ORDER BY 1"
        )
    ]
    return Sample(names, alternative, titles, sectors, provinces)


def database_facts(conn: psycopg.Connection) -> dict:
    def one(sql: str) -> object:
        return conn.execute(sql).fetchone()[0]

    return {
        "server_version": one("SHOW server_version"),
        "shared_buffers": one("SHOW shared_buffers"),
        "work_mem": one("SHOW work_mem"),
        "random_page_cost": one("SHOW random_page_cost"),
        "companies": one("SELECT count(*) FROM directory_company"),
        "alternative_names": one(
            "SELECT coalesce(sum(cardinality(alternative_names)), 0) FROM directory_company"
        ),
        "logos": one("SELECT count(*) FROM directory_logo"),
        "sectors": one("SELECT count(*) FROM directory_sector"),
        "company_table_size": one("SELECT pg_size_pretty(pg_table_size('directory_company'))"),
        "logo_table_size": one("SELECT pg_size_pretty(pg_table_size('directory_logo'))"),
    }


# What search keeps, and where: the search documents' columns, the indexes on them, and
# the side tables the triggers keep (directory/sql/).
SEARCH_INDEXES = (
    "directory_company_search",
    "directory_company_search_len",
    "directory_logo_search",
    "directory_logo_search_len",
)


def search_storage(conn: psycopg.Connection) -> dict:
    """Megabytes of every search structure, in all and per 100,000 companies."""

    def megabytes(sql: str, *params) -> float:
        return conn.execute(sql, params).fetchone()[0] / 2**20

    companies = max(conn.execute("SELECT count(*) FROM directory_company").fetchone()[0], 1)
    sizes = {
        "directory_company.search_doc (column)": megabytes(
            "SELECT coalesce(sum(pg_column_size(search_doc)), 0) FROM directory_company"
        ),
        "directory_logo.search_doc (column)": megabytes(
            "SELECT coalesce(sum(pg_column_size(search_doc)), 0) FROM directory_logo"
        ),
        **{
            f"{name} (index)": megabytes("SELECT pg_relation_size(%s::regclass)", name)
            for name in SEARCH_INDEXES
        },
        **{
            f"{table} (table and indexes)": megabytes(
                "SELECT pg_total_relation_size(%s::regclass)", table
            )
            for table in catalogue.SEARCH_TABLES
        },
    }
    return {
        "megabytes": {name: round(size, 1) for name, size in sizes.items()},
        "megabytes_per_100000_companies": {
            name: round(size * 100_000 / companies, 1) for name, size in sizes.items()
        },
    }


# -- EXPLAIN ------------------------------------------------------------------------------


def slowest(explained: list[dict], count: int) -> list[dict]:
    """The slowest SQL of each kind, slowest first, then the next slowest overall."""
    ordered = sorted(explained, key=lambda item: -item["sql_ms"])
    chosen: list[dict] = []
    for item in ordered:
        if item["kind"] not in {picked["kind"] for picked in chosen}:
            chosen.append(item)
    chosen = chosen[:count]
    for item in ordered:
        if len(chosen) >= count:
            break
        if item not in chosen:
            chosen.append(item)
    return sorted(chosen, key=lambda item: -item["sql_ms"])


def explain_slowest(database_url: str, sent: list[Sent], count: int) -> list[dict]:
    """EXPLAIN the SQL of the `count` requests whose SQL is slowest.

    Over HTTP a request can be slow because another process had the CPU; so the
    candidates are the 8 * count slowest over HTTP, and the ones kept are those
    whose SQL takes longest when run again.
    """
    candidates = sorted(sent, key=lambda item: -item.milliseconds)[: 8 * count]
    explained = explain(database_url, candidates)
    return slowest(explained, count)


def explain(database_url: str, requests: list[Sent]) -> list[dict]:
    """Replay each request through Django's test client and EXPLAIN ANALYZE its SQL."""
    os.environ.update(django_env(database_url, 8000))
    warnings.filterwarnings("ignore", message="No directory at")  # whitenoise, no collectstatic
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    explained = []
    for request in requests:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(request.path)
        queries = []
        for query in captured.captured_queries:
            sql = query["sql"]
            statement = sql.lstrip().upper()
            if not statement.startswith(("SELECT", "WITH")):
                continue
            with connection.cursor() as cursor:
                for _ in range(2):  # the second run is the one reported: warm
                    cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
                    plan = "\n".join(row[0] for row in cursor.fetchall())
            execution = next(
                (
                    float(line.split(":")[1].split()[0])
                    for line in plan.splitlines()
                    if line.startswith("Execution Time")
                ),
                float("nan"),
            )
            if statement.startswith("SELECT COUNT("):
                role = "count"
            else:  # the query that picks the page, then those that load its rows
                role = "rows" if any(q["role"] == "page" for q in queries) else "page"
            queries.append(
                {
                    "role": role,
                    "execution_ms": execution,
                    "nodes": plan_nodes(plan),
                    "sql": sql,
                    "plan": plan,
                }
            )
        explained.append(
            {
                "kind": request.kind,
                "path": request.path,
                "http_ms": request.milliseconds,
                "status": response.status_code,
                "total": json.loads(response.content).get("total"),
                "sql_ms": sum(query["execution_ms"] for query in queries),
                "queries": queries,
            }
        )
    connection.close()
    return explained


_PLAN_NODE = re.compile(
    r"^\s*(?:->\s*)?(?P<name>[A-Z][^(]*?)\s+\(cost=[^)]*\)\s+"
    r"\(actual time=[\d.]+\.\.(?P<ms>[\d.]+) rows=(?P<rows>\d+) loops=(?P<loops>\d+)\)"
)


def plan_nodes(plan: str, limit: int = 6) -> str:
    """The first plan nodes, outermost first, with their time (ms, all loops) and rows."""
    nodes = []
    for line in plan.splitlines():
        match = _PLAN_NODE.match(line)
        if match:
            loops = int(match["loops"])
            nodes.append(
                f"{match['name']} {float(match['ms']) * loops:.1f}ms"
                f" rows={int(match['rows']) * loops}"
            )
    return " > ".join(nodes[:limit])
