"""Findability at scale: does search put the company people mean in the first three, among
100,000 companies (or a million)?

Usage (from the project root, with the project venv):

    .venv/bin/python bench/findability.py [--companies 100000] [--seed 1] [--query-seed S]
        [--half dev|test|both] [--per-kind 400] [--noise 500] [--limit N]
        [--kinds typo1,typo2] [--show-misses 5] [--reload] [--database-url URL]

What it does:

1. Database and data as bench/search.py does, with its code: the benchmark database
   (BENCH_DATABASE_URL or --database-url, a loopback server; otherwise logodir_bench
   in the project-local cluster, BENCH_POSTGRES_PORT), `manage.py migrate` and the SQL
   function files of the checkout applied again, then the synthetic catalogue of
   bench/catalogue.py, loaded with COPY unless the database already holds exactly that
   catalogue (the same companies, ids and names as --companies and --seed make).
2. Queries (bench/findability_queries.py), a function of the seed alone: for each kind
   of the search mix, --per-kind queries made from companies (or logos) drawn at random,
   leaving out the ambiguous ones (the name they were made from is not unique among the
   companies), and --noise strings of random letters. Split into DEV (tune on it) and
   TEST (report it) by a hash of the company each was made from. --query-seed makes
   another set of the same kinds over the same catalogue, without reloading it.
3. Each query through the public API as a client asks it, in this process through
   Django's test client (bench/settings.py, DEBUG off): GET /v1/public/companies?q= or,
   for logo titles, /v1/public/logos?q=, with the API's default page size.
4. Scores: hit@3 (the company, or the logo, among the first three) per kind and half;
   for noise, the share that found nothing (total 0). A table on stdout, misses per kind
   (query, expected, what came first, total), timings, and everything as JSON in
   bench/results/findability-<date>.json.

Targets (issue 27, TEST half): one mistake >= 0.95, two mistakes >= 0.90, every kind
without mistakes >= 0.98, noise empty >= 0.98. The exit status is 1 when one is missed.
"""

import argparse
import hashlib
import json
import os
import signal
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import catalogue, search, search_db  # noqa: E402
from bench.common import (  # noqa: E402
    BENCH_REDIS_PORT,
    percentiles,
    start_servers,
    write_results,
)
from bench.findability_queries import KINDS, NOISE, Catalogue, Query, make_queries  # noqa: E402
from bench.search_server import django_env  # noqa: E402

COMPANIES_URL = "/v1/public/companies"
LOGOS_URL = "/v1/public/logos"
DEFAULT_DATABASE = "logodir_bench"  # bench/search.py's: one load serves both
HALVES = ("dev", "test")
TARGETS = {"typo1": 0.95, "typo2": 0.90, NOISE: 0.98}
TARGET_WITHOUT_MISTAKES = 0.98


@dataclass
class Outcome:
    query: Query
    hit: bool
    rank: int | None  # of the expected company or logo in the page, from 1
    total: int | None
    first: str  # the name or title that came first
    status: int
    ms: float


# -- database -------------------------------------------------------------------------------


def fingerprint_sql(conn: psycopg.Connection) -> str:
    return conn.execute(
        "SELECT md5(coalesce(string_agg(id::text || ' ' || name, E'\\n' ORDER BY id), ''))"
        " FROM directory_company"
    ).fetchone()[0]


def fingerprint(rows: catalogue.Rows) -> str:
    """What fingerprint_sql reads from a database that holds exactly these rows."""
    ordered = sorted(rows.companies, key=lambda row: row[0].int)  # uuid order: bytewise
    text = "\n".join(f"{row[0]} {row[2]}" for row in ordered)
    return hashlib.md5(text.encode()).hexdigest()  # noqa: S324 - a fingerprint, not a secret


def prepare(args: argparse.Namespace, rows: catalogue.Rows) -> tuple[str, dict]:
    """The benchmark database, migrated, holding exactly the catalogue of `rows`."""
    if args.database_url:
        database_url = search_db.bench_database(args.database_url)
    else:
        database_url = start_servers(DEFAULT_DATABASE)
        # The Redis start_servers started (bench/search.py's default is the same one).
        os.environ.setdefault("REDIS_URL", f"redis://127.0.0.1:{BENCH_REDIS_PORT}/3")
    migrated = search_db.migrate(database_url)
    with psycopg.connect(database_url, autocommit=True) as conn:
        same = fingerprint_sql(conn) == fingerprint(rows)
        if not same and not args.reload:
            print("==> the database does not hold this catalogue (size, seed or names differ)")
        loaded = search_db.ensure_data(
            conn, args.companies, args.seed, args.reload or not same, rows
        )
        if migrated and not loaded["loaded"]:
            print("    new migrations: VACUUM ANALYZE of the catalogue tables")
            catalogue.vacuum_analyze(conn)
        search_db.prewarm(conn)
        facts = search_db.database_facts(conn)
    return database_url, {**facts, "load": loaded}


def api_client(database_url: str):
    """Django's test client on the project as bench/settings.py serves it, DEBUG off."""
    os.environ.update(django_env(database_url, 8000), LOG_REQUESTS="0")
    warnings.filterwarnings("ignore", message="No directory at")  # whitenoise, no collectstatic
    import django

    django.setup()
    from django.test import Client

    return Client(HTTP_HOST="127.0.0.1")


# -- measuring ------------------------------------------------------------------------------


def outcome(query: Query, status: int, body: dict, ms: float) -> Outcome:
    """How the API's answer to `query` scores: hit@3, or for noise, nothing found."""
    if status != 200:
        return Outcome(query, False, None, None, f"HTTP {status}", status, ms)
    items = body["data"]
    key = "id" if query.kind == "logo" else "slug"
    found = [item[key] for item in items]
    rank = found.index(query.expected) + 1 if query.expected in found else None
    first = (items[0].get("title") or items[0].get("name") or "") if items else ""
    hit = body["total"] == 0 if query.kind == NOISE else rank is not None and rank <= 3
    return Outcome(query, hit, rank, body["total"], first, status, ms)


def ask(client, query: Query) -> Outcome:
    url = LOGOS_URL if query.kind == "logo" else COMPANIES_URL
    started = time.perf_counter()
    response = client.get(url, {"q": query.text})
    ms = (time.perf_counter() - started) * 1000
    body = json.loads(response.content) if response.status_code == 200 else {}
    return outcome(query, response.status_code, body, ms)


def summary(outcomes: list[Outcome], show_misses: int) -> dict:
    """hit@3 (for noise: found nothing), timings and the first misses of one kind and half."""
    hits = sum(item.hit for item in outcomes)
    misses = [item for item in outcomes if not item.hit]
    in_budget = [item for item in outcomes if item.query.in_budget]
    return {
        "queries": len(outcomes),
        "hits": hits,
        "rate": hits / len(outcomes) if outcomes else None,
        # Typing mistakes whose typed word keeps the budget they need (the rest cannot be
        # read as the word meant under the budget of docs/search.md).
        "in_budget": {
            "queries": len(in_budget),
            "hits": sum(item.hit for item in in_budget),
            "rate": sum(item.hit for item in in_budget) / len(in_budget) if in_budget else None,
        },
        "misses_found_nothing": sum(item.total == 0 for item in misses),
        "ms": percentiles([item.ms for item in outcomes]) if len(outcomes) > 1 else None,
        "misses": [
            {
                "query": item.query.text,
                "expected": item.query.label,
                "rank": item.rank,
                "first": item.first,
                "total": item.total,
            }
            for item in misses[:show_misses]
        ],
        # Every query and what it found: to compare two runs query by query.
        "outcomes": [
            [
                item.query.text,
                item.query.expected,
                item.hit,
                item.rank,
                item.total,
                round(item.ms, 1),
            ]
            for item in outcomes
        ],
    }


def target(kind: str) -> float:
    return TARGETS.get(kind, TARGET_WITHOUT_MISTAKES)


# -- report ---------------------------------------------------------------------------------


def print_report(result: dict) -> None:
    halves = result["halves"]
    print()
    print(
        f"Findability, {result['companies']:,} companies (seed {result['seed']},"
        f" queries {result['query_seed']}),"
        f" code {result['code']}, hit@3 (noise: found nothing)"
    )
    header = f"{'kind':<13}{'target':>7}{'ambiguous':>10}"
    for half in halves:
        header += f"{half.upper() + ' n':>9}{'hit@3':>8}{'p95 ms':>8}"
    print(header)
    print("-" * len(header))
    for kind, row in result["kinds"].items():
        line = f"{kind:<13}{target(kind):>7.2f}{row['ambiguous']:>10}"
        for half in halves:
            figures = row[half]
            rate = "-" if figures["rate"] is None else f"{figures['rate']:.3f}"
            p95 = f"{figures['ms']['p95']:.0f}" if figures["ms"] else "-"
            line += f"{figures['queries']:>9}{rate:>8}{p95:>8}"
        print(line)
    for kind, row in result["kinds"].items():
        if any(row[half]["in_budget"]["queries"] < row[half]["queries"] for half in halves):
            figures = ", ".join(
                f"{half.upper()} {row[half]['in_budget']['hits']}/"
                f"{row[half]['in_budget']['queries']} = {row[half]['in_budget']['rate']:.3f}"
                for half in halves
            )
            print(f"{kind}, the typed word long enough for its mistakes' budget: {figures}")
    for half in halves:
        print(f"{half.upper()}: {result['queries'][half]:,} queries without noise")
    print(
        f"ambiguous, left out: {sum(row['ambiguous'] for row in result['kinds'].values()):,}"
        " (noise: random letters inside a catalogue word or within the budget of one)"
    )
    print(f"time asking: {result['seconds']:.1f} s")
    for kind, row in result["kinds"].items():
        for half in halves:
            misses = row[half]["misses"]
            if not misses:
                continue
            nothing = row[half]["misses_found_nothing"]
            print(f"\n{kind} {half.upper()}: misses ({nothing} found nothing), first ones:")
            for miss in misses:
                expected = f" -> {miss['expected']}" if miss["expected"] else ""
                rank = f", at {miss['rank']}" if miss["rank"] else ""
                print(
                    f"  {miss['query']!r}{expected}: first {miss['first']!r},"
                    f" total {miss['total']}{rank}"
                )
    print()
    for line in result["verdicts"]:
        print(line)


# -- main -----------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--companies", type=int, default=100_000, help="default 100000")
    parser.add_argument("--seed", type=int, default=1, help="catalogue and query seed (default 1)")
    parser.add_argument(
        "--query-seed", type=int, help="another seed for the queries alone (default: --seed)"
    )
    parser.add_argument("--half", choices=["dev", "test", "both"], default="both")
    parser.add_argument(
        "--per-kind", type=int, default=400, help="queries made per kind, both halves (400)"
    )
    parser.add_argument("--noise", type=int, default=500, help="noise queries (default 500)")
    parser.add_argument(
        "--limit", type=int, default=0, help="ask at most N queries per kind and half (quick runs)"
    )
    parser.add_argument(
        "--kinds",
        default="",
        help=f"ask only these kinds, comma-separated (of {', '.join([*KINDS, NOISE])})",
    )
    parser.add_argument("--show-misses", type=int, default=5, help="misses kept per kind (5)")
    parser.add_argument(
        "--reload", action="store_true", help="reload the catalogue even if it is there"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL"),
        help="a loopback PostgreSQL database of its own (default: BENCH_DATABASE_URL, else "
        f"{DEFAULT_DATABASE} in the project-local cluster)",
    )
    args = parser.parse_args()
    if args.companies < 100 or args.per_kind < 1:
        parser.error("--companies must be at least 100 and --per-kind at least 1")
    args.kinds = [kind for kind in args.kinds.split(",") if kind] or [*KINDS, NOISE]
    if unknown := set(args.kinds) - {*KINDS, NOISE}:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    return args


def run(args: argparse.Namespace) -> dict:
    halves = list(HALVES) if args.half == "both" else [args.half]
    print(f"==> generating the catalogue: {args.companies:,} companies, seed {args.seed}")
    started = time.perf_counter()
    rows = catalogue.generate(args.companies, args.seed)
    generated = time.perf_counter() - started
    print(f"    {generated:.1f} s")
    database_url, database = prepare(args, rows)
    database["generate_seconds"] = round(generated, 2)
    print("==> making the queries")
    query_seed = args.seed if args.query_seed is None else args.query_seed
    made = list(make_queries(Catalogue(rows), query_seed, args.per_kind, args.noise))
    del rows
    client = api_client(database_url)
    # The first request of a process opens the connection and imports the views: not timed.
    for url in (COMPANIES_URL, LOGOS_URL):
        client.get(url, {"q": "warm up"})
    code = search.code_version()
    kinds: dict[str, dict] = {}
    started = time.perf_counter()
    for kind, queries, ambiguous in made:
        if kind not in args.kinds:
            continue
        kinds[kind] = {"ambiguous": ambiguous, "made": len(queries)}
        for half in halves:
            chosen = [query for query in queries if query.half == half]
            if args.limit:
                chosen = chosen[: args.limit]
            print(f"==> {kind} {half.upper()}: {len(chosen)} queries")
            outcomes = [ask(client, query) for query in chosen]
            kinds[kind][half] = summary(outcomes, args.show_misses)
    seconds = time.perf_counter() - started
    verdicts, met = [], True
    for kind, row in kinds.items():
        if "test" in row and row["test"]["rate"] is not None:
            passed = row["test"]["rate"] >= target(kind)
            met &= passed
            verdicts.append(
                f"target: {kind} TEST hit@3 >= {target(kind):.2f}: {row['test']['rate']:.3f}"
                f" -> {'PASS' if passed else 'FAIL'}"
            )
    return {
        "benchmark": "bench/findability.py",
        "code": code,
        "companies": args.companies,
        "seed": args.seed,
        "query_seed": query_seed,
        "arguments": {key: value for key, value in vars(args).items() if key != "database_url"},
        "database": database,
        "halves": halves,
        "kinds_described": {**KINDS, NOISE: "5-9 random letters, which should find nothing"},
        "queries": {
            half: sum(row[half]["queries"] for kind, row in kinds.items() if kind != NOISE)
            for half in halves
        },
        "kinds": kinds,
        "seconds": seconds,
        "verdicts": verdicts,
        "targets_met": met,
    }


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = parse_args()
    result = run(args)
    print_report(result)
    write_results("findability", result)
    return 0 if result["targets_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
