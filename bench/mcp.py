"""What the MCP server adds to a call over the API request it makes.

Usage (from the project root, with the project venv):

    .venv/bin/python bench/mcp.py [--calls 400] [--pg-port 54343] [--redis-port 56393]

It starts a PostgreSQL cluster and a Redis of its own on loopback through
scripts/lib.sh (`.local/pg-bench-mcp`, `.local/redis-bench-mcp`, the ports given), a
database `logodir_bench_mcp` with one company, and serves the project with gunicorn
(1 sync worker, DEBUG off, request rate limits off: bench/settings.py). Then, in
blocks of 50 that alternate so that drift on the box hits both alike, it times:

  * direct: GET /v1/public/companies/<slug> with httpx2, as the MCP server sends it;
  * mcp: the tool call get_company(slug) through the SDK's client over stdio, to the
    server spawned as `python -m mcp_server` (the same request, plus JSON-RPC over a
    pipe, argument validation, output-schema validation and JSON encoding twice).

What issue 19 asks for: the overhead, p50(mcp) - p50(direct), printed with both p50s
(there is no target figure).

Output: a table on stdout and bench/results/mcp-<date>.json with the commit.
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, where this file would
# stand in for the `mcp` package it measures: the project root goes there instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import anyio  # noqa: E402
import httpx2  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402

from bench.common import (  # noqa: E402
    ROOT,
    django_env,
    free_port,
    gunicorn,
    manage,
    percentiles,
    write_results,
)

DATABASE = "logodir_bench_mcp"
SLUG = "bench-acme"
BLOCK = 50
WARM_UP = 50

SEED = f"""
from directory.catalogue.models import Company, Logo
company, _ = Company.objects.get_or_create(
    slug={SLUG!r}, defaults={{"name": "Bench Acme", "province": "Madrid"}}
)
Logo.objects.get_or_create(company=company, slug="bench-acme-logo", defaults={{"title": "Acme"}})
"""


def start_servers(pg_port: int, redis_port: int) -> str:
    print("==> PostgreSQL and Redis of this benchmark on loopback (scripts/lib.sh)")
    subprocess.run(
        [
            "bash",
            "-c",
            "source scripts/lib.sh && ensure_postgres_binaries && "
            f"start_postgres bench-mcp {pg_port} && ensure_database {pg_port} {DATABASE} && "
            f"ensure_redis_binaries && start_redis bench-mcp {redis_port}",
        ],
        cwd=ROOT,
        check=True,
    )
    return f"postgres://postgres@127.0.0.1:{pg_port}/{DATABASE}"


def stop_servers() -> None:
    subprocess.run(
        ["bash", "-c", "source scripts/lib.sh && stop_postgres bench-mcp; stop_redis bench-mcp"],
        cwd=ROOT,
        check=False,
    )


async def measure(api_url: str, calls: int) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {"direct": [], "mcp": []}
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_server"],
        env={"LOGO_DIRECTORY_URL": api_url, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    path = f"/v1/public/companies/{SLUG}"
    async with (
        Client(server, read_timeout_seconds=30) as client,
        httpx2.AsyncClient(base_url=api_url, headers={"X-Service-Source": "MCP"}) as http,
    ):

        async def direct() -> None:
            response = await http.get(path)
            if response.status_code != 200:
                raise RuntimeError(f"GET {path} answered {response.status_code}")

        async def tool() -> None:
            result = await client.call_tool("get_company", {"slug": SLUG})
            if result.is_error:
                raise RuntimeError(f"get_company failed: {result.content}")

        for _ in range(WARM_UP):
            await direct()
            await tool()
        for _ in range(calls // BLOCK):
            for kind, call in (("direct", direct), ("mcp", tool)):
                for _ in range(BLOCK):
                    started = time.perf_counter()
                    await call()
                    timings[kind].append((time.perf_counter() - started) * 1000)
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=400, help="per kind, a multiple of 50")
    parser.add_argument("--pg-port", type=int, default=54343)
    parser.add_argument("--redis-port", type=int, default=56393)
    args = parser.parse_args()

    database_url = start_servers(args.pg_port, args.redis_port)
    try:
        port = free_port()
        env = django_env(
            database_url=database_url, redis_db=0, port=port, redis_port=args.redis_port
        )
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "shell", "-c", SEED)

        print(f"==> get_company over stdio vs GET /v1/public/companies/{SLUG}, {args.calls} each")
        # The app logs a line per request: to a file, not between the figures.
        with gunicorn(env, port, workers=1, log=ROOT / ".local" / "bench-mcp-gunicorn.log"):
            timings = anyio.run(measure, f"http://127.0.0.1:{port}", args.calls)
    finally:
        stop_servers()

    figures = {
        kind: {"calls": len(values), **percentiles(values)} for kind, values in timings.items()
    }
    overhead = {
        figure: figures["mcp"][figure] - figures["direct"][figure]
        for figure in ("p50", "p95", "mean")
    }
    print(f"\n{'path':<8} {'calls':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    for kind, values in figures.items():
        print(
            f"{kind:<8} {values['calls']:>6} {values['p50']:>8.2f} {values['p95']:>8.2f} "
            f"{values['p99']:>8.2f} {values['mean']:>8.2f}"
        )
    print(
        f"\noverhead of the tool call over its API request: p50 {overhead['p50']:+.2f} ms, "
        f"p95 {overhead['p95']:+.2f} ms, mean {overhead['mean']:+.2f} ms"
    )
    write_results("mcp", {"slug": SLUG, "figures": figures, "overhead_ms": overhead})
    return 0


if __name__ == "__main__":
    sys.exit(main())
