"""What each kind of search costs the server in CPU, which the machine's load barely moves.

Usage (from the project root, with the project venv), after bench/search.py has loaded
and migrated its database:

    .venv/bin/python bench/search_cpu.py --database-url URL [--per-kind 40] [--noise 40]
        [--seed 1] [--explain 2] [--explain-from bench/results/search-cpu-<date>.json]

On a shared machine the wall clock of bench/search.py measures the other work as much as
search (the trivial endpoint's p95 went from 4 to 24 ms between two runs). This script
asks the queries of bench/search.py's mix (bench/mix.py), --per-kind of each kind of
company and logo search, --noise strings of 5-9 random letters (a term that should find
nothing) and the trivial endpoint, one at a time and the kinds taking turns, through
Django's test client in this process (bench/settings.py, DEBUG off, persistent database
connections as in production). For each request it records the wall clock, the CPU of
this thread (the view, DRF, the JSON) and the CPU of the PostgreSQL backend, which the
server reports per statement (`log_statement_stats`, getrusage, microseconds). On an
idle machine a request's latency is about its CPU: the data is in memory.

With --explain N, the N costliest queries (by backend CPU) of each kind whose CPU p95 is
over the target (20 ms at 100,000 companies, 60 ms at 1,000,000) run again in the
database alone, in a transaction: each search function's own time
(`track_functions = all`, pg_stat_xact_user_functions) and, with auto_explain, the plan
of every statement the functions ran (ANALYZE, BUFFERS), the slowest listed first.

Output: a table on stdout; bench/results/search-cpu-<date>.json, the plans beside it
(-plans.txt).
"""

import argparse
import json
import os
import random
import re
import string
import sys
import time
import warnings
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import percentiles, write_results  # noqa: E402
from bench.mix import COMPANY_MIX, COMPANY_PATH, LOGO_MIX, LOGO_PATH, MixBuilder  # noqa: E402
from bench.search_db import prewarm, read_sample, require_loopback  # noqa: E402
from bench.search_server import TRIVIAL_PATH, django_env  # noqa: E402

TARGET_P95_MS = {100_000: 20.0, 1_000_000: 60.0}
STATS = re.compile(r"([\d.]+) s user, ([\d.]+) s system, ([\d.]+) s elapsed")
AUTO_EXPLAIN = (
    "LOAD 'auto_explain'",
    "SET auto_explain.log_min_duration = 0",
    "SET auto_explain.log_analyze = on",
    "SET auto_explain.log_buffers = on",
    "SET auto_explain.log_nested_statements = on",
    "SET auto_explain.log_level = notice",
)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL"))
    parser.add_argument("--per-kind", type=int, default=40, help="queries per kind (40)")
    parser.add_argument("--noise", type=int, default=40, help="random-letter terms (40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--explain", type=int, default=2, help="queries per kind over target")
    parser.add_argument(
        "--explain-from", help="a results file of this script: explain its queries, not measure"
    )
    args = parser.parse_args()
    if not args.database_url:
        parser.error("--database-url (or BENCH_DATABASE_URL) is required")
    require_loopback(args.database_url)
    return args


def queries(conn: psycopg.Connection, args: argparse.Namespace) -> dict[str, list[str]]:
    """Paths per kind ("company typo1", "logo trigram", "company noise", "trivial")."""
    builder = MixBuilder(read_sample(conn), random.Random(args.seed))
    paths: dict[str, list[str]] = {}
    for name, endpoint, mix, make in (
        ("company", COMPANY_PATH, COMPANY_MIX, builder.company_params),
        ("logo", LOGO_PATH, LOGO_MIX, builder.logo_params),
    ):
        for kind, described in mix.items():
            pool = builder.pool(endpoint, {kind: (1.0, described[1])}, args.per_kind, make)
            paths[f"{name} {kind}"] = [query.path for query in pool.queries]
    rng = random.Random(args.seed)
    paths["company noise"] = [
        f"{COMPANY_PATH}?q=" + "".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 9)))
        for _ in range(args.noise)
    ]
    paths["trivial"] = [TRIVIAL_PATH] * args.per_kind
    return paths


class BackendCpu:
    """The CPU the PostgreSQL backends spent on the statements since the last take()."""

    def __init__(self) -> None:
        self.ms = 0.0

    def notice(self, diagnostic) -> None:
        if match := STATS.search(diagnostic.message_detail or ""):
            self.ms += (float(match[1]) + float(match[2])) * 1000

    def connected(self, sender, connection, **kwargs) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SET client_min_messages = log")
            cursor.execute("SET log_statement_stats = on")
        connection.connection.add_notice_handler(self.notice)

    def take(self) -> float:
        ms, self.ms = self.ms, 0.0
        return ms


def measure(paths: dict[str, list[str]], database_url: str) -> dict[str, list[dict]]:
    os.environ.update(django_env(database_url, 8000), LOG_REQUESTS="0")
    warnings.filterwarnings("ignore", message="No directory at")  # whitenoise
    import django

    django.setup()
    from django.db.backends.signals import connection_created
    from django.test import Client

    backend = BackendCpu()
    connection_created.connect(backend.connected)
    client = Client(HTTP_HOST="127.0.0.1")
    for path in (f"{COMPANY_PATH}?q=warm", f"{LOGO_PATH}?q=warm", TRIVIAL_PATH):
        client.get(path)  # opens the connections, imports the views: not timed
    backend.take()
    samples: dict[str, list[dict]] = {kind: [] for kind in paths}
    for turn in range(max(len(kind_paths) for kind_paths in paths.values())):
        for kind, kind_paths in paths.items():
            if turn >= len(kind_paths):
                continue
            path = kind_paths[turn]
            started, cpu = time.perf_counter(), time.thread_time()
            response = client.get(path)
            python_ms = (time.thread_time() - cpu) * 1000
            wall_ms = (time.perf_counter() - started) * 1000
            body = response.json() if response.status_code == 200 else {}
            samples[kind].append(
                {
                    "path": path,
                    "status": response.status_code,
                    "total": body.get("total"),
                    "wall_ms": wall_ms,
                    "python_ms": python_ms,
                    "backend_ms": backend.take(),
                }
            )
    return samples


def summarise(samples: dict[str, list[dict]]) -> dict[str, dict]:
    rows = {}
    for kind, kind_samples in samples.items():
        row = {"requests": len(kind_samples)}
        row["errors"] = sum(sample["status"] != 200 for sample in kind_samples)
        row["found_nothing"] = sum(sample["total"] == 0 for sample in kind_samples)
        for key in ("wall_ms", "python_ms", "backend_ms"):
            row[key] = percentiles([sample[key] for sample in kind_samples])
        row["cpu_ms"] = percentiles(
            [sample["python_ms"] + sample["backend_ms"] for sample in kind_samples]
        )
        rows[kind] = row
    return rows


def page_call(path: str) -> tuple[str, tuple]:
    """The page function's call that the API makes for `path`."""
    parts = urlsplit(path)
    params = dict(parse_qsl(parts.query))
    take = int(params.get("pageSize", 20))
    skip = (int(params.get("page", 1)) - 1) * take
    term = " ".join(params.get("q", "").split()) or None
    if parts.path == LOGO_PATH:
        return "SELECT * FROM directory_logo_page(%s, %s, %s)", (term, skip, take)
    call = "SELECT * FROM directory_company_page(%s, %s, %s, %s, %s)"
    return call, (term, params.get("sector"), params.get("province"), skip, take)


def explain(database_url: str, path: str) -> tuple[list[tuple], list[tuple[float, str]]]:
    """The search functions' own time for `path`'s page, then every statement's plan."""
    plans: list[tuple[float, str]] = []

    def notice(diagnostic) -> None:
        text = diagnostic.message_primary or ""
        if match := re.match(r"duration: ([\d.]+) ms", text):
            plans.append((float(match[1]), text))

    sql, params = page_call(path)
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(sql, params)  # prepares the functions' statements: not counted
        conn.execute("SET track_functions = 'all'")
        with conn.transaction():
            conn.execute(sql, params)
            functions = conn.execute(
                "SELECT funcname, calls, round(total_time::numeric, 2),"
                " round(self_time::numeric, 2) FROM pg_stat_xact_user_functions"
                " ORDER BY self_time DESC"
            ).fetchall()
        conn.add_notice_handler(notice)
        for statement in AUTO_EXPLAIN:
            conn.execute(statement)
        conn.execute(sql, params)
    return functions, sorted(plans, reverse=True)


def print_table(rows: dict[str, dict], target: float | None) -> None:
    print(
        f"\n{'kind':24} {'n':>4} {'empty':>5}  wall p50/p95    backend CPU p50/p95"
        "   python CPU p50/p95   CPU p95"
    )
    for kind, row in rows.items():
        over = " over" if target and kind != "trivial" and row["cpu_ms"]["p95"] > target else ""
        print(
            f"{kind:24} {row['requests']:4} {row['found_nothing']:5}"
            f"  {row['wall_ms']['p50']:6.1f} {row['wall_ms']['p95']:6.1f}"
            f"     {row['backend_ms']['p50']:6.1f} {row['backend_ms']['p95']:6.1f}"
            f"        {row['python_ms']['p50']:6.1f} {row['python_ms']['p95']:6.1f}"
            f"     {row['cpu_ms']['p95']:6.1f}{over}"
        )


def loadavg() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def measured(args: argparse.Namespace) -> dict:
    """The requests' figures: measured now, or read from --explain-from's run."""
    if args.explain_from:
        document = json.loads(Path(args.explain_from).read_text())
        return {key: document[key] for key in ("companies", "loadavg_before", "seconds", "samples")}
    load_before = loadavg()
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        companies = conn.execute("SELECT count(*) FROM directory_company").fetchone()[0]
        print(f"==> {companies:,} companies; building the request mix")
        paths = queries(conn, args)
        print("==> pg_prewarm")
        prewarm(conn)
    print(f"==> {sum(map(len, paths.values())):,} requests, the kinds taking turns")
    started = time.perf_counter()
    samples = measure(paths, args.database_url)
    seconds = time.perf_counter() - started
    print(f"load average before {load_before}, after {loadavg()}")
    return {
        "companies": companies,
        "loadavg_before": load_before,
        "seconds": seconds,
        "samples": samples,
    }


def main() -> int:
    args = parse_args()
    run = measured(args)
    samples, rows = run["samples"], summarise(run["samples"])
    target = TARGET_P95_MS.get(run["companies"])
    print_table(rows, target)
    explained = {}
    lines = []
    for kind, kind_samples in samples.items():
        if not target or kind == "trivial" or rows[kind]["cpu_ms"]["p95"] <= target:
            continue
        costliest = sorted(kind_samples, key=lambda sample: -sample["backend_ms"])
        for sample in costliest[: args.explain]:
            functions, plans = explain(args.database_url, sample["path"])
            explained.setdefault(kind, []).append(
                {
                    "path": sample["path"],
                    "functions": functions,
                    "statements_ms": [ms for ms, _ in plans],
                }
            )
            lines.append(
                f"\n===== {kind}: {sample['path']} (total {sample['total']},"
                f" backend CPU {sample['backend_ms']:.1f} ms over HTTP)"
            )
            lines.append("function, calls, total ms, self ms:")
            lines.extend(f"  {name} {calls} {total} {own}" for name, calls, total, own in functions)
            lines.extend(text for _, text in plans)
            print(f"\n{kind}: {sample['path']}")
            for name, calls, total, own in functions[:6]:
                print(f"    {name:34} calls {calls:5}  total {total:8} ms  self {own:8} ms")
    result = {
        "benchmark": "bench/search_cpu.py",
        "arguments": {key: value for key, value in vars(args).items() if key != "database_url"},
        "target_p95_ms": target,
        "kinds": rows,
        **run,
        "explained": explained,
    }
    path = write_results("search-cpu", result)
    if lines:
        path.with_name(path.stem + "-plans.txt").write_text("\n".join(lines) + "\n")
    print(f"\nresults: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
