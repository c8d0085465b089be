"""What token authentication and rate limiting add to a request, under gunicorn.

Usage (from the project root, with the project venv):

    .venv/bin/python bench/auth.py [--requests 3000]

It starts the project-local PostgreSQL (127.0.0.1:54320, its own database
`logodir_bench_auth`) and a Redis of its own (127.0.0.1:56382) through
scripts/lib.sh, issues a read:logos token with `manage.py issue_token`, and serves
the project with gunicorn (1 sync worker, DEBUG off) twice:

  * BENCH_RATE_LIMITS=off: requests are not counted (bench/settings.py);
  * BENCH_RATE_LIMITS=count: every request is counted in Redis as in production
    (django-ratelimit, fixed windows), with limits too high to be reached.

In each it sends GET /v1/public/me one at a time, a new connection each (sync
workers close it), alternating anonymous requests and requests with the token so
that drift on the box hits both alike, and times connect to last byte.

Target (issue 3): the added cost of token authentication plus rate limiting,
p50(token, counted) - p50(anonymous, not counted), under 1 ms.

Output: a table on stdout and bench/results/auth-<date>.json with the commit.
"""

import argparse
import contextlib
import http.client
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
RESULTS = ROOT / "bench" / "results"
DATABASE = "logodir_bench_auth"
DATABASE_URL = f"postgres://postgres@127.0.0.1:54320/{DATABASE}"
REDIS_URL = "redis://127.0.0.1:56382/0"
START_SERVERS = (
    "source scripts/lib.sh && ensure_postgres_binaries && start_postgres dev 54320 && "
    f"ensure_database 54320 {DATABASE} && ensure_redis_binaries && start_redis bench 56382"
)
PATH = "/v1/public/me"
WARM_UP = 200
TARGET_MS = 1.0


def env(port: int, rate_limits: str) -> dict[str, str]:
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "bench",  # signs nothing that outlives the run
        "SITE_URL": f"http://127.0.0.1:{port}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "BENCH_RATE_LIMITS": rate_limits,
        "DB_CONN_HEALTH_CHECKS": os.environ.get("DB_CONN_HEALTH_CHECKS", "1"),
    }


def manage(*args: str) -> str:
    result = subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env(8000, "off"),
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port: int, headers: dict[str, str]) -> tuple[int, float]:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", PATH, headers=headers)
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    return response.status, (time.perf_counter() - started) * 1000


@contextlib.contextmanager
def gunicorn(rate_limits: str) -> Iterator[int]:
    port = free_port()
    process = subprocess.Popen(
        [
            str(VENV_BIN / "gunicorn"),
            "config.wsgi:application",
            "--workers=1",
            "--worker-class=sync",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=env(port, rate_limits),
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError):
                if get(port, {})[0] == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=35)


def percentiles(milliseconds: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(milliseconds, n=100, method="inclusive")
    return {
        "p50": cuts[49],
        "p95": cuts[94],
        "p99": cuts[98],
        "mean": statistics.fmean(milliseconds),
    }


def measure(rate_limits: str, token: str, requests: int) -> dict[str, dict]:
    kinds = {"anonymous": {}, "token": {"Authorization": f"Bearer {token}"}}
    timings: dict[str, list[float]] = {kind: [] for kind in kinds}
    with gunicorn(rate_limits) as port:
        for n in range(WARM_UP + requests):
            for kind, headers in kinds.items():
                status, milliseconds = get(port, headers)
                if status != 200:
                    raise RuntimeError(f"{kind} GET {PATH} answered {status}")
                if n >= WARM_UP:
                    timings[kind].append(milliseconds)
    return {
        kind: {"requests": len(values), **percentiles(values)} for kind, values in timings.items()
    }


def commit() -> str:
    result = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    )
    return result.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="per kind and configuration")
    args = parser.parse_args()

    print("==> PostgreSQL and Redis on loopback (scripts/lib.sh)")
    subprocess.run(["bash", "-c", START_SERVERS], cwd=ROOT, check=True)
    manage("migrate", "--noinput", "-v", "0")
    token = manage("issue_token", "bench@example.invalid", "--scopes", "read:logos").strip()

    phases = {}
    for rate_limits in ("off", "count"):
        print(f"==> GET {PATH}, rate limits {rate_limits}, {args.requests} requests per kind")
        phases[rate_limits] = measure(rate_limits, token, args.requests)

    baseline = phases["off"]["anonymous"]["p50"]
    added = {
        "rate limiting alone (anonymous)": phases["count"]["anonymous"]["p50"] - baseline,
        "token authentication alone": phases["off"]["token"]["p50"] - baseline,
        "token authentication + rate limiting": phases["count"]["token"]["p50"] - baseline,
    }
    print(f"\n{'rate limits':<12} {'caller':<10} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for rate_limits, kinds in phases.items():
        for kind, figures in kinds.items():
            print(
                f"{rate_limits:<12} {kind:<10} {figures['p50']:>8.2f} "
                f"{figures['p95']:>8.2f} {figures['p99']:>8.2f}"
            )
    print("\nadded to p50 over an anonymous request that is not counted:")
    for name, milliseconds in added.items():
        print(f"  {name:<40} {milliseconds:+.2f} ms")
    met = added["token authentication + rate limiting"] < TARGET_MS
    print(f"target: under {TARGET_MS} ms: {'met' if met else 'NOT MET'}")

    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    result = {
        "date": stamp,
        "commit": commit(),
        "machine": {
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "platform": platform.platform(),
        },
        "loadavg_before": os.getloadavg(),
        "path": PATH,
        "phases": phases,
        "added_p50_ms": added,
        "target_ms": TARGET_MS,
        "met": met,
    }
    out = RESULTS / f"auth-{stamp}.json"
    out.write_text(json.dumps(result, indent=2))
    print(f"results: {out.relative_to(ROOT)}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
