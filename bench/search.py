"""Company and logo search through HTTP under gunicorn, against a trivial DRF endpoint.

Usage (from the project root, with the project venv):

    .venv/bin/python bench/search.py [--companies 100000] [--duration 20] [--keep]
        [--reload] [--explain 6] [--per-kind]
        [--pgoptions '-c max_parallel_workers_per_gather=0']

It installs wrk (Debian package `wrk`) when missing and takes about 2.5 minutes with the defaults,
plus about a minute the first time, to load the data.

What it does, in order:

1. Database. BENCH_DATABASE_URL (or --database-url) if set, which must point at a
   loopback server; otherwise it starts the project-local dev cluster the way
   scripts/run.sh does (scripts/lib.sh, 127.0.0.1:54320) and uses its own database
   there, `logodir_bench`. It runs `manage.py migrate`.
2. Data. Unless the database already holds exactly N companies (so reruns are
   fast), it replaces the catalogue with N synthetic Spanish companies (31 sectors,
   52 provinces, about 35% with 1-2 alternative names, about 1.5 logos per company,
   exactly one current), loaded with COPY, then VACUUM ANALYZE; see bench/catalogue.py.
   Loading empties the catalogue tables of that database (TRUNCATE ... CASCADE).
   The tables and indexes are then read into memory with pg_prewarm: every phase
   measures a warm database.
3. The request mix (bench/mix.py): pools of distinct request paths built from the
   loaded names. Company search:
       14% full names, 4% alternative names, 14% name prefixes (4-8 characters),
       14% common 3-letter substrings (page 1-3), 7% accented names or words typed
       without accents, 3% spelled with them, 14% empty q with sector and/or
       province filters (page 1-3), and 30% of the kinds word search added: 6% the
       words of a name in another order, 6% the starts of two or three words, 7% one
       typing mistake, 5% two in a long word, 6% punctuation dropped or typed otherwise.
   Logo search: 40% titles or company names, 30% title prefixes, 30% common
   3-letter substrings. No path is sent twice in a run (wrk reports if its pool
   runs out), so no result cache could flatter the figures.
4. Server. gunicorn, 2 sync workers on 127.0.0.1:<free port>, DEBUG=0,
   DJANGO_SETTINGS_MODULE=bench.settings: the project's settings and URLs plus
   /bench/trivial, a DRF APIView returning a fixed small dict through the same
   middleware and renderer (the ceiling). Stopped at the end, also on errors.
5. Phases, each --duration seconds, after a short warm-up on paths of their own:
   * concurrency 1: company search, logo search and the trivial endpoint with a
     small Python client, a new connection per request (sync workers close it),
     timing from connect to the last byte; p50/p95/p99 per kind of query too;
   * concurrency 8: the trivial endpoint, company search and logo search with wrk
     (2 threads, 8 connections) and bench/paths.lua walking the paths; wrk times
     from sending the request to the last byte;
   * with --per-kind, then at concurrency 8: company search for each kind of the mix
     alone (a kind with fewer distinct queries than the phase sends goes round them
     again), and the company list by sector one company per page (the filter kind
     with pages of one), each also reported as a share of the trivial endpoint: what
     a page of 20 costs beyond a page of one, apart from any search.
   Per phase it also reports, from /proc, the CPU time gunicorn and PostgreSQL
   spent per request, and the CPU used by processes that are not part of the
   benchmark: other load on a shared box inflates latencies and lowers req/s,
   while CPU per request barely moves, so compare runs with that column in view.
6. EXPLAIN. The SQL of the slowest concurrency-1 company searches and logo
   searches, captured through Django's test client, is run again with EXPLAIN
   (ANALYZE, BUFFERS); the --explain company searches (half as many logo searches)
   whose SQL is slowest are reported, the slowest of each kind first.

Targets (on the 2-core machine): company search p95 at most 20 ms at concurrency 1 for
every kind of query at 100,000 companies, 60 ms at 1,000,000; company search
throughput at concurrency 8 at least 30% of the trivial endpoint's. The report also
gives the storage of every search structure, in all and per 100,000 companies.

Output: a table on stdout; all figures, the machine and the date as JSON in
bench/results/search-<date>.json, the plans beside it (-plans.txt). With --keep,
the path lists, gunicorn's log and wrk's raw output stay in bench/results/search-<date>/.
The exit status is 1 when a target is missed.

The parts: bench/search_server.py (the app's environment, gunicorn, the clients, the CPU
accounting), bench/search_db.py (the database, the catalogue, EXPLAIN) and
bench/search_report.py (the table on stdout); this file runs them in order.
"""

import argparse
import contextlib
import json
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import catalogue  # noqa: E402
from bench.common import ensure_wrk, free_port  # noqa: E402
from bench.mix import (  # noqa: E402
    COMPANY_MIX,
    COMPANY_PATH,
    LOGO_MIX,
    MixBuilder,
    Pool,
    Query,
    Sample,
)
from bench.search_db import (  # noqa: E402
    bench_database,
    database_facts,
    ensure_data,
    explain_slowest,
    migrate,
    prewarm,
    read_sample,
    search_storage,
)
from bench.search_report import print_report  # noqa: E402
from bench.search_server import (  # noqa: E402
    CONCURRENCY,
    TRIVIAL_PATH,
    WORKERS,
    CpuMonitor,
    Phase,
    Sent,
    fetch,
    gunicorn,
    run_sequential,
    run_wrk,
    top_snapshot,
)

RESULTS = ROOT / "bench" / "results"
# Pool sizes per second of phase: more than either client can send.
SEQUENTIAL_PER_SECOND = 300
WRK_PER_SECOND = 800
WARM_UP_REQUESTS = 150
PER_KIND_POOL = 10_000
ONE_PER_PAGE = "company: sector, 1 per page"
LAST_PAGE = 500  # the API's (api/pagination.py)
# Company search p95 at concurrency 1, for every kind of query: at 100,000 companies and
# at 1,000,000.
TARGET_P95_MS = {100_000: 20.0, 1_000_000: 60.0}
TARGET_RATIO = 0.30


# -- main ---------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--companies", type=int, default=100_000, help="default 100000")
    parser.add_argument(
        "--duration", type=int, default=20, help="seconds per measured phase (default 20)"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep path lists, gunicorn's log and wrk's output"
    )
    parser.add_argument(
        "--reload", action="store_true", help="reload the data even if N companies are there"
    )
    parser.add_argument("--seed", type=int, default=1, help="data and mix seed (default 1)")
    parser.add_argument(
        "--explain",
        type=int,
        default=6,
        help="EXPLAIN the N slowest company searches and N/2 slowest logo searches (default 6)",
    )
    parser.add_argument(
        "--per-kind",
        action="store_true",
        help="after the phases, company search at concurrency 8 for each kind of query alone, "
        "and the listing one company per page, each as a share of the trivial endpoint",
    )
    parser.add_argument(
        "--pgoptions",
        default="",
        help="PGOPTIONS for the server's database connections, to try settings, e.g. "
        "'-c max_parallel_workers_per_gather=0'",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL"),
        help="a loopback PostgreSQL database of its own (default: BENCH_DATABASE_URL, else "
        "logodir_bench in the project-local cluster)",
    )
    args = parser.parse_args()
    if args.companies < 100 or args.duration < 1:
        parser.error("--companies must be at least 100 and --duration at least 1")
    return args


def code_version() -> str:
    """The commit measured, and whether the working tree differed from it."""
    result = subprocess.run(
        ["git", "describe", "--always", "--dirty", "--exclude=*"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip() or os.environ.get("BENCH_CODE_VERSION", "unknown")


def machine_facts() -> dict:
    wrk = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False)
    return {
        "nproc": os.cpu_count(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "django": version("django"),
        "djangorestframework": version("djangorestframework"),
        "gunicorn": version("gunicorn"),
        "psycopg": version("psycopg"),
        "wrk": (wrk.stdout or wrk.stderr).split("[")[0].strip(),
        "loadavg_before": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
    }


def kind_paths(builder: MixBuilder, kind: str) -> Callable[[], list[str]]:
    """Distinct company search paths of one kind, as many as the kind has up to a pool's
    size: wrk goes round them again when they run out (a kind with few distinct meanings,
    such as three common letters, is then partly served from a warm cache)."""

    def paths() -> list[str]:
        mix = {kind: (1.0, COMPANY_MIX[kind][1])}
        pool = builder.pool(COMPANY_PATH, mix, PER_KIND_POOL, builder.company_params, up_to=True)
        return [query.path for query in pool.queries]

    return paths


def one_per_page(sample: Sample) -> list[str]:
    """The companies of each sector, one per page, as far as the API pages."""
    return [
        f"{COMPANY_PATH}?{urlencode({'sector': slug, 'pageSize': 1, 'page': page})}"
        for slug, _ in sample.sectors
        for page in range(1, LAST_PAGE + 1)
    ]


def run(args: argparse.Namespace, workdir: Path, stamp: str) -> dict:
    ensure_wrk()
    machine = machine_facts()
    top_before = top_snapshot()
    print(top_before)
    database_url = bench_database(args.database_url)
    database_name = urlsplit(database_url).path.lstrip("/")
    migrated = migrate(database_url)
    with psycopg.connect(database_url, autocommit=True) as conn:
        loaded = ensure_data(conn, args.companies, args.seed, args.reload)
        if migrated and not loaded["loaded"]:
            print("    new migrations: VACUUM ANALYZE of the catalogue tables")
            catalogue.vacuum_analyze(conn)
        prewarmed = prewarm(conn)
        sample = read_sample(conn)
        database = database_facts(conn)
        storage = search_storage(conn)

    print("==> building the request mix")
    builder = MixBuilder(sample, random.Random(args.seed))
    per_phase_sequential = args.duration * SEQUENTIAL_PER_SECOND
    per_phase_wrk = args.duration * WRK_PER_SECOND
    pool_size = WARM_UP_REQUESTS + per_phase_sequential + per_phase_wrk
    pools: dict[str, Pool] = {
        "company": builder.company_pool(pool_size),
        "logo": builder.logo_pool(pool_size),
    }

    monitor = CpuMonitor(database_name)
    phases: list[Phase] = []
    company_sent: list[Sent] = []
    logo_sent: list[Sent] = []
    port = free_port()
    code = code_version()  # what gunicorn is about to import
    with gunicorn(database_url, port, workdir / "gunicorn.log", monitor, args.pgoptions):
        print("==> warming up")
        for pool in pools.values():
            for query in pool.take(WARM_UP_REQUESTS):
                fetch(port, query.path, query.kind)
        run_wrk("warm-up", port, [TRIVIAL_PATH], 2, workdir, monitor)

        def sequential(name: str, queries: list[Query]) -> list[Sent]:
            print(f"==> {name}, concurrency 1, {args.duration} s")
            phase, sent = run_sequential(name, port, queries, args.duration, monitor)
            phases.append(phase)
            return sent

        company_sent = sequential("company search", pools["company"].take(per_phase_sequential))
        logo_sent = sequential("logo search", pools["logo"].take(per_phase_sequential))
        sequential("trivial", [Query("trivial", TRIVIAL_PATH)] * args.duration * 10_000)

        concurrent: list[tuple[str, Callable[[], list[str]]]] = [
            ("trivial", lambda: [TRIVIAL_PATH]),
            ("company search", lambda: [q.path for q in pools["company"].take(per_phase_wrk)]),
            ("logo search", lambda: [q.path for q in pools["logo"].take(per_phase_wrk)]),
        ]
        # What each kind costs on its own, and the filter kind's listing one company per
        # page: what a page of 20 costs beyond a page of one, no search in either.
        per_kind: list[tuple[str, Callable[[], list[str]]]] = []
        if args.per_kind:
            per_kind = [(f"company: {kind}", kind_paths(builder, kind)) for kind in COMPANY_MIX]
            per_kind.append((ONE_PER_PAGE, lambda: one_per_page(sample)))
        for name, paths in concurrent + per_kind:
            print(f"==> {name}, concurrency {CONCURRENCY} (wrk), {args.duration} s")
            phases.append(run_wrk(name, port, paths(), args.duration, workdir, monitor))
    print("==> gunicorn stopped")

    explained: list[dict] = []
    explain_error = None
    if args.explain > 0:
        print(f"==> EXPLAIN ANALYZE of the {args.explain} slowest company and logo searches")
        try:
            explained = explain_slowest(database_url, company_sent, args.explain)
            explained += explain_slowest(database_url, logo_sent, args.explain // 2)
        except Exception as error:  # the figures above are still worth keeping
            explain_error = f"{type(error).__name__}: {error}"
            print(f"    EXPLAIN failed, figures kept: {explain_error}")

    by_name = {(phase.name, phase.concurrency): phase for phase in phases}
    by_kind = by_name[("company search", 1)].by_kind
    slowest_kind = max(by_kind, key=lambda kind: by_kind[kind]["p95"])
    p95 = by_kind[slowest_kind]["p95"]
    target_p95 = TARGET_P95_MS[min(TARGET_P95_MS, key=lambda size: abs(size - args.companies))]
    ratio = by_name[("company search", CONCURRENCY)].rps / by_name[("trivial", CONCURRENCY)].rps
    return {
        "benchmark": "bench/search.py",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "stamp": stamp,
        "code": code,
        "arguments": {key: value for key, value in vars(args).items() if key != "database_url"},
        "database_name": database_name,
        "machine": {**machine, "top_before": top_before, "loadavg_after": _loadavg()},
        "database": {**database, "prewarmed": prewarmed, "load": loaded, "storage": storage},
        "gunicorn": {"workers": WORKERS, "worker_class": "sync", "bind": "127.0.0.1"},
        "mix": {
            "company": {kind: share for kind, (share, _) in COMPANY_MIX.items()},
            "logo": {kind: share for kind, (share, _) in LOGO_MIX.items()},
            "spelling_only": {name: dict(pool.spelling_only) for name, pool in pools.items()},
            "common_trigrams": builder.trigrams[:50],
        },
        "phases": [asdict(phase) for phase in phases],
        "ratios": {
            "company_over_trivial_rps_c8": ratio,
            "logo_over_trivial_rps_c8": by_name[("logo search", CONCURRENCY)].rps
            / by_name[("trivial", CONCURRENCY)].rps,
            # --per-kind: each kind alone, and a page of one company.
            "per_kind_over_trivial_rps_c8": {
                name: by_name[(name, CONCURRENCY)].rps / by_name[("trivial", CONCURRENCY)].rps
                for name, _ in per_kind
            },
            # The same comparison in server CPU per request, which other load barely moves.
            "trivial_over_company_server_cpu_c8": _ratio(
                by_name[("trivial", CONCURRENCY)].server_cpu_ms,
                by_name[("company search", CONCURRENCY)].server_cpu_ms,
            ),
        },
        "targets": {
            "company_p95_c1": {
                "what": f"company search p95 at concurrency 1 <= {target_p95:.0f} ms"
                " for every kind of query",
                "measured": f"{p95:.1f} ms ({slowest_kind}, the slowest kind)",
                "met": p95 <= target_p95,
            },
            "company_rps_ratio_c8": {
                "what": f"company search req/s at concurrency {CONCURRENCY} >= "
                f"{TARGET_RATIO:.0%} of the trivial endpoint's",
                "measured": f"{ratio:.1%}",
                "met": ratio >= TARGET_RATIO,
            },
        },
        "slowest_company_requests_c1": [
            {"kind": item.kind, "path": item.path, "ms": item.milliseconds}
            for item in sorted(company_sent, key=lambda item: -item.milliseconds)[:20]
        ],
        "explain": explained,
        "explain_error": explain_error,
    }


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    return numerator / denominator if numerator and denominator else None


def _loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> int:
    # A plain SIGTERM would skip the finally blocks that stop gunicorn.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = parse_args()
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    RESULTS.mkdir(parents=True, exist_ok=True)
    if args.keep:
        workdir = RESULTS / f"search-{stamp}"
        workdir.mkdir()
        context: contextlib.AbstractContextManager = contextlib.nullcontext(str(workdir))
    else:
        context = tempfile.TemporaryDirectory(prefix="bench-search-")
    with context as directory:
        result = run(args, Path(directory), stamp)
    output = RESULTS / f"search-{stamp}.json"
    output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    plans = RESULTS / f"search-{stamp}-plans.txt"
    plans.write_text(
        "\n\n".join(
            f"-- {item['kind']} {item['path']} ({item['http_ms']:.1f} ms over HTTP)\n"
            + "\n".join(f"{query['sql']}\n{query['plan']}\n" for query in item["queries"])
            for item in result["explain"]
        )
    )
    print_report(result)
    print()
    print(f"results: {output.relative_to(ROOT)}, plans: {plans.relative_to(ROOT)}")
    return 0 if all(target["met"] for target in result["targets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
