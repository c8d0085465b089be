"""Where a company search request's Python CPU goes, beside the trivial endpoint's.

Usage (from the project root, with the project venv), on a database bench/search.py has
loaded and migrated:

    .venv/bin/python bench/api_cpu.py --database-url URL [--requests 1000] [--seed 1]

bench/search.py's concurrency-8 guard is company search's throughput as a share of the
trivial endpoint's (/bench/trivial, bench/urls.py) in the same run. A saving in code
both run (middleware, the renderer) lowers that share; only a saving in what a search
runs beyond the trivial endpoint raises it. This script serves --requests paths of
bench/search.py's company mix (bench/mix.py), each followed by one request to
/bench/trivial, through Django's WSGI handler in this process (what a gunicorn sync
worker calls; bench/settings.py, DEBUG off, persistent connections, no Accept-Encoding,
as wrk sends). For both it reports the CPU of this thread per request
(`time.thread_time`: the view, DRF, the middleware and the client side of the database
call, not the PostgreSQL backend: bench/search_cpu.py measures that), and for each step
a search runs beyond the trivial endpoint, its CPU where it runs, inside the request.
Timed apart from a request, the same code runs several times faster on warm caches and
would understate what it costs there. The steps are timed by wrapping the functions the
request calls (the view's collaborators, DRF's JSONRenderer.render, Django's
set_response_etag, the CORS middleware's add_response_headers): the real code runs.

Output: a table on stdout; bench/results/api-cpu-<date>.json.
"""

import argparse
import contextvars
import functools
import io
import json
import os
import random
import sys
import time
import types
import warnings
from collections import defaultdict
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import write_results  # noqa: E402
from bench.mix import MixBuilder  # noqa: E402
from bench.search_db import prewarm, read_sample, require_loopback  # noqa: E402
from bench.search_server import TRIVIAL_PATH, django_env  # noqa: E402

WARM_UP = 100
# Which request a timed step belongs to: the steps both run are counted per endpoint.
serving = contextvars.ContextVar("serving", default="search")
spent: dict[tuple[str, str], float] = defaultdict(float)
steps: list[str] = []  # the timed steps, in the order a search runs them


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL"))
    parser.add_argument("--requests", type=int, default=1000, help="company searches (1000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not args.database_url:
        parser.error("--database-url (or BENCH_DATABASE_URL) is required")
    require_loopback(args.database_url)
    return args


def timed(step: str, function):
    steps.append(step)

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[(serving.get(), step)] += time.thread_time() - started

    return wrapper


def instrument() -> None:
    """Wraps the steps in timers, in the order a search runs them."""
    from django.middleware import http as conditional_get
    from rest_framework.renderers import JSONRenderer

    from api import cors
    from directory.search import selectors, views

    views.parse = timed("input parsing (api.inputs.parse)", views.parse)
    selectors.company_page = timed("page call (selectors.company_page)", selectors.company_page)
    selectors.json = types.SimpleNamespace(loads=timed("  of which json.loads", json.loads))
    views.envelope = timed("envelope", views.envelope)
    output = views.CompanySearchOutputSerializer
    output.data = property(timed("output shaping (serializer .data)", output.data.fget))
    JSONRenderer.render = timed("rendering (JSONRenderer.render)", JSONRenderer.render)
    conditional_get.set_response_etag = timed(
        "ETag (ConditionalGetMiddleware)", conditional_get.set_response_etag
    )
    middleware = cors.PublicApiCorsMiddleware
    middleware.add_response_headers = timed("CORS headers", middleware.add_response_headers)


def environ(path: str) -> dict:
    path_info, _, query = path.partition("?")
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path_info,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_ACCEPT": "application/json",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
    }


def serve(application, path: str) -> float:
    """One request, its body read to the end as gunicorn would; its CPU in seconds."""
    statuses = []
    started = time.thread_time()
    body = application(
        environ(path), lambda status, headers, exc_info=None: statuses.append(status)
    )
    try:
        content = b"".join(body)
    finally:
        body.close()
    cpu = time.thread_time() - started
    if not statuses[0].startswith("200"):
        raise RuntimeError(f"{path}: {statuses[0]} {content[:300]!r}")
    return cpu


def measure(paths: list[str], database_url: str) -> dict:
    os.environ.update(django_env(database_url, 8000), LOG_REQUESTS="0")
    warnings.filterwarnings("ignore", message="No directory at")  # whitenoise
    import django

    django.setup()
    from django.core.handlers.wsgi import WSGIHandler

    instrument()
    application = WSGIHandler()
    for path in paths[:WARM_UP]:  # connections, imports, caches: not counted
        serve(application, path)
        serve(application, TRIVIAL_PATH)
    spent.clear()
    totals = {"search": 0.0, "trivial": 0.0}
    measured = paths[WARM_UP:]
    for path in measured:
        totals["search"] += serve(application, path)
        token = serving.set("trivial")
        try:
            totals["trivial"] += serve(application, TRIVIAL_PATH)
        finally:
            serving.reset(token)
    per_request = {kind: seconds * 1e6 / len(measured) for kind, seconds in totals.items()}
    return {
        "requests": len(measured),
        "us_per_request": per_request,
        "steps_us": {
            step: {kind: spent[(kind, step)] * 1e6 / len(measured) for kind in totals}
            for step in steps
        },
    }


def print_table(figures: dict) -> None:
    search, trivial = figures["us_per_request"]["search"], figures["us_per_request"]["trivial"]
    print(f"\nPython CPU per request ({figures['requests']} of each, alternating):")
    print(f"  company search {search:7.0f} µs   trivial endpoint {trivial:5.0f} µs")
    print(f"  beyond the trivial endpoint {search - trivial:7.0f} µs\n")
    print(f"{'step':40} {'search':>8} {'trivial':>8} {'beyond':>8} {'of search':>9}")
    listed = 0.0
    for step, by_kind in figures["steps_us"].items():
        beyond = by_kind["search"] - by_kind["trivial"]
        if not step.startswith(" "):
            listed += beyond
        print(
            f"{step:40} {by_kind['search']:8.0f} {by_kind['trivial']:8.0f} {beyond:8.0f}"
            f" {beyond / search:9.1%}"
        )
    rest = search - trivial - listed
    rest_label = "the rest (routing, middleware, GC...)"
    print(f"{rest_label:40} {'':8} {'':8} {rest:8.0f} {rest / search:9.1%}")


def main() -> int:
    args = parse_args()
    load_before = os.getloadavg()
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        companies = conn.execute("SELECT count(*) FROM directory_company").fetchone()[0]
        print(f"==> {companies:,} companies; building the request mix")
        builder = MixBuilder(read_sample(conn), random.Random(args.seed))
        paths = [query.path for query in builder.company_pool(WARM_UP + args.requests).queries]
        print("==> pg_prewarm")
        prewarm(conn)
    figures = measure(paths, args.database_url)
    load_after = os.getloadavg()
    print_table(figures)
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    write_results(
        "api-cpu",
        {
            "benchmark": "bench/api_cpu.py",
            "arguments": {"requests": args.requests, "seed": args.seed},
            "companies": companies,
            "loadavg_before": load_before,
            **figures,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
