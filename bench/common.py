"""What the benchmarks other than bench/search.py share: servers, settings, gunicorn, results."""

import contextlib
import json
import os
import socket
import statistics
import subprocess
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
RESULTS = ROOT / "bench" / "results"
# A second checkout on the same machine (a baseline beside a branch) sets these, so that
# its servers and the first one's never meet.
POSTGRES_NAME = os.environ.get("BENCH_POSTGRES_NAME", "dev")
POSTGRES_PORT = int(os.environ.get("BENCH_POSTGRES_PORT", "54320"))
BENCH_REDIS_PORT = int(os.environ.get("BENCH_REDIS_PORT", "56382"))


def ensure_wrk() -> None:
    """wrk, from Debian's package when it is missing (scripts/lib.sh)."""
    subprocess.run(["bash", "-c", "source scripts/lib.sh && ensure_wrk"], cwd=ROOT, check=True)


def start_servers(database: str, *, redis_port: int = BENCH_REDIS_PORT) -> str:
    """The project-local PostgreSQL (POSTGRES_PORT) with `database`, and a Redis for
    benchmarks."""
    print("==> PostgreSQL and Redis on loopback (scripts/lib.sh)")
    # Another port gets a directory of its own under .local/: one Redis per directory.
    redis_name = "bench" if redis_port == BENCH_REDIS_PORT else f"bench-{redis_port}"
    subprocess.run(
        [
            "bash",
            "-c",
            "source scripts/lib.sh && ensure_postgres_binaries && "
            f"start_postgres {POSTGRES_NAME} {POSTGRES_PORT} && "
            f"ensure_database {POSTGRES_PORT} {database} && ensure_redis_binaries && "
            f"start_redis {redis_name} {redis_port}",
        ],
        cwd=ROOT,
        check=True,
    )
    return f"postgres://postgres@127.0.0.1:{POSTGRES_PORT}/{database}"


def django_env(
    *,
    database_url: str,
    redis_db: int,
    port: int,
    redis_port: int = BENCH_REDIS_PORT,
    **extra: str,
) -> dict[str, str]:
    """The app's environment in production mode, with bench/settings.py on top."""
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "bench",  # signs nothing that outlives the run
        "SITE_URL": f"http://127.0.0.1:{port}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/{redis_db}",
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "MEDIA_ROOT": str(ROOT / ".local" / "bench-media"),
        **extra,
    }


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout.strip()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def two_free_ports() -> list[int]:
    """Two distinct free loopback ports, for two app instances."""
    ports = [free_port(), free_port()]
    while ports[1] == ports[0]:
        ports[1] = free_port()
    return ports


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str], port: int, *, workers: int, log: Path | None = None
) -> Iterator[subprocess.Popen]:
    """Serves the project on 127.0.0.1:port until the block ends, whatever happens.

    With `log`, the server's output (the app's request log too) goes there, not to
    the terminal.
    """
    output = open(log, "ab") if log else None  # noqa: SIM115 - closed when the block ends
    process = subprocess.Popen(
        [
            str(VENV_BIN / "gunicorn"),
            "config.wsgi:application",
            f"--workers={workers}",
            "--worker-class=sync",
            f"--bind=127.0.0.1:{port}",
            "--backlog=2048",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=output,
        stderr=subprocess.STDOUT if output else None,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.2)
        time.sleep(0.5)  # the workers boot after the master listens
        yield process
    finally:
        process.terminate()
        process.wait(timeout=35)
        if output:
            output.close()


def start_instances(
    stack: contextlib.ExitStack,
    envs: list[dict[str, str]],
    ports: list[int],
    workers: int,
    log: str,
) -> list[int]:
    """A gunicorn instance per port, stopped when `stack` closes, logging to
    bench/results/<log>-<n>.log; the masters' process ids."""
    return [
        stack.enter_context(
            gunicorn(env, port, workers=workers, log=RESULTS / f"{log}-{n}.log")
        ).pid
        for n, (env, port) in enumerate(zip(envs, ports, strict=True), start=1)
    ]


def percentiles(milliseconds: list[float]) -> dict[str, float]:
    """p50, p95, p99 and the mean of at least two timings."""
    cuts = statistics.quantiles(milliseconds, n=100, method="inclusive")
    return {
        "p50": cuts[49],
        "p95": cuts[94],
        "p99": cuts[98],
        "mean": statistics.fmean(milliseconds),
    }


def write_results(name: str, result: dict) -> Path:
    """bench/results/<name>-<date>.json, with the date, the commit and the machine."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    path = RESULTS / f"{name}-{stamp}.json"
    document = {
        "date": stamp,
        "commit": commit,
        "cpus": os.cpu_count(),
        "loadavg": os.getloadavg(),
        **result,
    }
    path.write_text(json.dumps(document, indent=2, default=str))
    print(f"results: {path.relative_to(ROOT)}")
    return path
