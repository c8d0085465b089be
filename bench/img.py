"""The Logo Link (GET /v1/public/img/{identifier}) under gunicorn, beside the trivial endpoint.

Usage (from the project root, with the project venv; installs wrk from Debian if missing):

    .venv/bin/python bench/img.py [--companies 400] [--duration 10] [--rate-limits off|count]
        [--database-url postgres://...] [--redis-url redis://...]

1. Servers. --database-url and --redis-url when given (loopback only; the database is
   created when missing), else the project-local PostgreSQL (127.0.0.1:54320, database
   `logodir_bench_img`) and the benchmarks' Redis (127.0.0.1:56382, database 4), through
   scripts/lib.sh.
2. Data. Migrations, then, unless the database already holds --companies companies, the
   demo catalogue (manage.py seed_demo): each current logo an SVG drawn from shapes, a
   fifth of them with a horizontal type and a negative PNG version. The renditions of
   earlier runs (MEDIA_ROOT/previews/img) and the cache are emptied, so that each first
   rendering below is one.
3. Server. gunicorn, 2 sync workers on 127.0.0.1:<free port>, DEBUG off, /bench/trivial
   beside the API (bench/urls.py). Rate limits (bench/settings.py): `off` (default) as
   bench/search.py measures, since the trivial endpoint, outside /v1/public, is never
   counted; `count` counts every API request in Redis as in production (one round trip
   more per image), with limits too high to reach.
4. Phases, addresses by domain (`/v1/public/img/{slug}.es`, as an img tag has them; the
   domain map is built before the first phase):
   * the trivial endpoint at concurrency 1 (a small Python client, a new connection per
     request, timing from connect to the last byte) and 8 (wrk -t2 -c8);
   * first rendering, 128 px PNG (the defaults), one request at a time, one per company:
     each draws its logo (the SVG sanitised and rasterised by resvg, centred on a square,
     encoded) and stores it;
   * first rendering, 128 px PNG with theme=dark (every variant measured first), and
     128 px WebP, one at a time, for the record;
   * cached rendition: the first phase's addresses again, at concurrency 1 and 8, now
     read from storage, after each address was asked for four times more so that both
     workers know what it resolves to (each process keeps that until the next write's
     commit: a server's steady state);
   * storage: files and bytes each first-rendering phase added.
   Each phase also reports the CPU time gunicorn and PostgreSQL spent per request.

Targets (issue 18, on the 2-core machine): a cached rendition at concurrency 8 serves at
least 50% of the trivial endpoint's requests per second; p95 of a first rendering of a
128 px PNG from an SVG at most 50 ms. Results: a table on stdout and
bench/results/img-<date>.json. The exit status is 1 when a target is missed.
"""

import argparse
import http.client
import os
import shutil
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from urllib.parse import urlsplit

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    BENCH_REDIS_PORT,
    django_env,
    ensure_wrk,
    free_port,
    gunicorn,
    manage,
    start_servers,
    write_results,
)
from bench.search_db import require_loopback
from bench.search_server import CpuMonitor, Latency, Phase, run_wrk

DATABASE = "logodir_bench_img"
REDIS_DB = 4
WORKERS = 2
TRIVIAL_PATH = "/bench/trivial"
TARGET_RATIO = 0.50
TARGET_FIRST_P95_MS = 50.0


def fetch(port: int, path: str) -> tuple[int, float, int]:
    """(status, milliseconds from connect to the last byte, body bytes)."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    return response.status, (time.perf_counter() - started) * 1000, len(body)


def sequential(
    name: str, port: int, paths: list[str], monitor: CpuMonitor, seconds: float | None = None
) -> Phase:
    """One request at a time, each path once (or round and round for `seconds`)."""
    timings, errors = [], []
    with monitor.measure() as load:
        started = time.perf_counter()
        index = 0
        while index < len(paths) or (seconds and time.perf_counter() - started < seconds):
            path = paths[index % len(paths)]
            status, milliseconds, _ = fetch(port, path)
            timings.append(milliseconds)
            if status != 200:
                errors.append(f"{status} {path}")
            index += 1
            if seconds and time.perf_counter() - started >= seconds:
                break
        elapsed = time.perf_counter() - started
    return Phase(
        name=name,
        concurrency=1,
        tool="python http.client",
        requests=len(timings),
        errors=len(errors),
        seconds=elapsed,
        rps=len(timings) / elapsed,
        latency_ms=Latency.of(timings),
        distinct_paths=min(len(paths), len(timings)),
        repeated_paths=len(timings) > len(paths),
        load=load[0],
        error_sample=errors[0] if errors else None,
    )


def stored(folder: Path) -> tuple[int, int]:
    files = [path for path in folder.rglob("*") if path.is_file()] if folder.exists() else []
    return len(files), sum(path.stat().st_size for path in files)


def ensure_database(url: str) -> None:
    parts = urlsplit(url)
    admin = parts._replace(path="/postgres").geturl()
    name = parts.path.lstrip("/")
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if exists.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')


def prepare(env: dict[str, str], companies: int) -> list[str]:
    """The catalogue (seeded when needed), empty renditions and cache; the slugs of the
    companies with a current logo."""
    manage(env, "migrate", "--noinput")
    with psycopg.connect(env["DATABASE_URL"]) as connection:
        count = connection.execute("SELECT count(*) FROM directory_company").fetchone()[0]
    if count != companies:
        if count:
            raise SystemExit(
                f"the database holds {count} companies, not {companies}: "
                "give --companies that number, or a fresh --database-url"
            )
        print(f"==> seeding {companies} demo companies (manage.py seed_demo)")
        manage(env, "seed_demo", "--companies", str(companies))
    shutil.rmtree(Path(env["MEDIA_ROOT"]) / "previews" / "img", ignore_errors=True)
    manage(env, "shell", "-c", "from django.core.cache import cache; cache.clear()")
    with psycopg.connect(env["DATABASE_URL"]) as connection:
        rows = connection.execute(
            "SELECT slug FROM directory_company WHERE current_logo_id IS NOT NULL "
            "AND website IS NOT NULL ORDER BY slug"
        ).fetchall()
    return [slug for (slug,) in rows]


def ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else float("nan")


def print_report(phases: list[Phase], storage: dict, result: dict) -> None:
    print()
    print(
        f"{'phase':<34}{'conc':>5}{'requests':>10}{'req/s':>10}{'p50 ms':>9}{'p95 ms':>9}"
        f"{'p99 ms':>9}{'CPU ms/req':>12}{'errors':>8}"
    )
    for phase in phases:
        latency = phase.latency_ms
        cpu = f"{phase.server_cpu_ms:.2f}" if phase.server_cpu_ms is not None else "-"
        print(
            f"{phase.name:<34}{phase.concurrency:>5}{phase.requests:>10,}{phase.rps:>10,.1f}"
            f"{latency.p50:>9.2f}{latency.p95:>9.2f}{latency.p99:>9.2f}{cpu:>12}{phase.errors:>8}"
        )
    print()
    print("storage per rendition (first renderings):")
    for name, figures in storage.items():
        print(
            f"  {name:<28} {figures['files']:>5} files, {figures['bytes']:>10,} bytes, "
            f"{figures['bytes_per_file']:>7,.0f} bytes each"
        )
    print()
    for target in result["targets"]:
        verdict = "met" if target["met"] else "NOT MET"
        print(f"target: {target['what']}: {target['value']} -> {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--companies", type=int, default=400)
    parser.add_argument("--duration", type=int, default=10, help="seconds per timed phase")
    parser.add_argument("--rate-limits", choices=("off", "count"), default="off")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL"))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL"))
    args = parser.parse_args()

    ensure_wrk()
    if args.database_url:
        require_loopback(args.database_url)
        ensure_database(args.database_url)
        database_url = args.database_url
    else:
        database_url = start_servers(DATABASE)
    port = free_port()
    env = django_env(
        database_url=database_url,
        redis_db=REDIS_DB,
        port=port,
        redis_port=BENCH_REDIS_PORT,
        BENCH_RATE_LIMITS=args.rate_limits,
    )
    if args.redis_url:
        require_loopback(args.redis_url)
        env["REDIS_URL"] = args.redis_url
    slugs = prepare(env, args.companies)
    renditions_folder = Path(env["MEDIA_ROOT"]) / "previews" / "img"
    light = [f"/v1/public/img/{slug}.es" for slug in slugs]
    dark = [f"{path}?theme=dark" for path in light]
    webp = [f"{path}?format=webp" for path in light]
    print(f"==> {len(light)} companies with a current logo (SVG) and a website")

    monitor = CpuMonitor(urlsplit(database_url).path.lstrip("/"))
    phases: list[Phase] = []
    storage: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        with gunicorn(env, port, workers=WORKERS, log=workdir / "server.log") as server:
            monitor.gunicorn_pid = server.pid
            # Warm-up: workers loaded, connections open, the domain map built.
            for path in (TRIVIAL_PATH, "/v1/public/domains", "/v1/public/me") * 5:
                fetch(port, path)

            print(f"==> trivial endpoint, concurrency 1 and 8, {args.duration} s each")
            phases.append(
                sequential("trivial endpoint", port, [TRIVIAL_PATH], monitor, args.duration)
            )
            phases.append(
                run_wrk("trivial endpoint", port, [TRIVIAL_PATH], args.duration, workdir, monitor)
            )

            for name, paths in (
                ("first rendering 128 png", light),
                ("first rendering 128 png dark", dark),
                ("first rendering 128 webp", webp),
            ):
                print(f"==> {name}: {len(paths)} addresses, one at a time")
                before = stored(renditions_folder)
                phases.append(sequential(name, port, paths, monitor))
                after = stored(renditions_folder)
                files, size = after[0] - before[0], after[1] - before[1]
                storage[name.removeprefix("first rendering ")] = {
                    "files": files,
                    "bytes": size,
                    "bytes_per_file": size / files if files else 0,
                }

            # Each worker keeps what an address resolves to (directory/images/logolink.py): every
            # address is asked for a few times more, so both workers know it, as a server
            # in steady state does.
            for path in light * 4:
                fetch(port, path)
            print(f"==> cached rendition, concurrency 1 and 8, {args.duration} s each")
            phases.append(sequential("cached rendition", port, light, monitor, args.duration))
            phases.append(run_wrk("cached rendition", port, light, args.duration, workdir, monitor))

    by_name = {(phase.name, phase.concurrency): phase for phase in phases}
    trivial_c8 = by_name[("trivial endpoint", 8)]
    cached_c8 = by_name[("cached rendition", 8)]
    first = by_name[("first rendering 128 png", 1)]
    rps_ratio = ratio(cached_c8.rps, trivial_c8.rps)
    targets = [
        {
            "what": f"cached rendition req/s at concurrency 8 >= {TARGET_RATIO:.0%} of the "
            "trivial endpoint's",
            "value": f"{cached_c8.rps:,.0f} / {trivial_c8.rps:,.0f} = {rps_ratio:.1%}",
            "met": rps_ratio >= TARGET_RATIO,
        },
        {
            "what": "first rendering of a 128 px PNG from an SVG, p95 <= "
            f"{TARGET_FIRST_P95_MS:.0f} ms",
            "value": f"{first.latency_ms.p95:.1f} ms",
            "met": first.latency_ms.p95 <= TARGET_FIRST_P95_MS,
        },
    ]
    errors = sum(phase.errors for phase in phases)
    result = {
        "args": {key: value for key, value in vars(args).items() if "url" not in key},
        "workers": WORKERS,
        "companies_drawn": len(light),
        "phases": [asdict(phase) for phase in phases],
        "storage": storage,
        "cpu_ratio_cached_to_trivial_c8": ratio(
            trivial_c8.server_cpu_ms or 0, cached_c8.server_cpu_ms or 0
        ),
        "targets": targets,
        "errors": errors,
    }
    print_report(phases, storage, result)
    write_results("img", result)
    return 0 if all(target["met"] for target in targets) and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
