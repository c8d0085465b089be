"""What bench/chaos.py and bench/soak.py share.

* Servers of their own, which they may stop and start: a PostgreSQL cluster in
  .local/pg-chaos and a redis-server, on loopback ports of their choosing, so that a
  restart never touches the cluster scripts/run.sh and the other benchmarks use.
* The database `logodir_chaos`, copied from the cluster's own `logodir_bench` (the
  100,000 companies of bench/catalogue.py, built there the first time).
* bench/load.py's mix and wrk run, optionally paced to a rate, with the answers cut
  into time slices.
"""

import argparse
import contextlib
import math
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import psycopg

from bench import catalogue
from bench.common import ROOT, django_env, two_free_ports
from bench.load_data import SEED
from bench.load_wrk import failed, percentile
from bench.search_db import migrate

CLUSTER = "chaos"
MEDIA = ROOT / ".local" / "chaos-media"
SOURCE_DATABASE = "logodir_bench"
DATABASE = "logodir_chaos"
COMPANIES = 100_000
# About as many distinct searches of each kind as bench/mix.py can make from this
# catalogue; a longer run repeats them, and the report says how often.
MAX_SEARCHES = 16_000


def _lib(command: str) -> None:
    subprocess.run(["bash", "-c", f"source scripts/lib.sh && {command}"], cwd=ROOT, check=True)


def require_loopback_port(port: int) -> int:
    if not 1024 <= port <= 65535:
        raise SystemExit(f"not a port to listen on: {port}")
    return port


class Servers:
    """The PostgreSQL cluster and the redis-server of a long run, on 127.0.0.1."""

    def __init__(self, pg_port: int, redis_port: int) -> None:
        self.pg_port = require_loopback_port(pg_port)
        self.redis_port = require_loopback_port(redis_port)
        self.redis: subprocess.Popen | None = None
        self.redis_dir = ROOT / ".local" / f"redis-{CLUSTER}-{redis_port}"

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.pg_port}/{database}"

    def start_postgres(self) -> None:
        _lib(f"ensure_postgres_binaries && start_postgres {CLUSTER} {self.pg_port}")

    def stop_postgres(self) -> None:
        _lib(f"stop_postgres {CLUSTER}")

    def start_redis(self) -> None:
        self.redis_dir.mkdir(parents=True, exist_ok=True)
        binary = shutil.which("redis-server")
        if binary is None:
            _lib("ensure_redis_binaries")
            binary = shutil.which("redis-server")
        # A cache only, as deployed: nothing saved, nothing loaded after a restart.
        self.redis = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(self.redis_port), "--save", "",
             "--appendonly", "no", "--dir", str(self.redis_dir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while (
            subprocess.run(
                ["redis-cli", "-p", str(self.redis_port), "ping"], capture_output=True, check=False
            ).stdout.strip()
            != b"PONG"
        ):
            if self.redis.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on {self.redis_port}")
            time.sleep(0.05)

    def stop_redis(self) -> None:
        if self.redis is not None and self.redis.poll() is None:
            self.redis.send_signal(signal.SIGTERM)
            self.redis.wait(timeout=30)
        self.redis = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of both long runs: the load and the servers."""
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--pg-port", type=int, default=54330)
    parser.add_argument("--redis-port", type=int, default=56390)


def with_servers(args: argparse.Namespace, run) -> int:
    """run(args, servers) with the run's redis-server up; it is stopped afterwards."""
    servers = Servers(args.pg_port, args.redis_port)
    servers.start_redis()
    try:
        return run(args, servers)
    finally:
        servers.stop_redis()


def instances(url: str, redis_port: int) -> tuple[list[int], list[str], list[dict[str, str]]]:
    """The ports, addresses and environments of the two gunicorn instances: rate limits
    counted as in production, the files in .local/chaos-media."""
    ports = two_free_ports()
    envs = [
        django_env(
            database_url=url,
            redis_db=0,
            port=port,
            redis_port=redis_port,
            BENCH_RATE_LIMITS="count",
            TRUSTED_PROXY_COUNT="1",
            MEDIA_ROOT=str(MEDIA),
        )
        for port in ports
    ]
    return ports, [f"http://127.0.0.1:{port}" for port in ports], envs


def ensure_database(servers: Servers) -> str:
    """logodir_chaos: a copy of the cluster's logodir_bench, built first when missing."""
    servers.start_postgres()
    _lib(f"ensure_database {servers.pg_port} {SOURCE_DATABASE}")
    with psycopg.connect(servers.url("postgres"), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone()
    if exists:
        migrate(servers.url(DATABASE))
        return servers.url(DATABASE)
    source = servers.url(SOURCE_DATABASE)
    os.environ["REDIS_URL"] = f"redis://127.0.0.1:{servers.redis_port}/0"
    migrate(source)
    with psycopg.connect(source, autocommit=True) as conn:
        if catalogue.company_count(conn) != COMPANIES:
            print(f"==> building the {COMPANIES:,}-company catalogue (bench/catalogue.py)")
            catalogue.load(conn, COMPANIES, SEED)
    with psycopg.connect(servers.url("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{DATABASE}" TEMPLATE "{SOURCE_DATABASE}"')
    return servers.url(DATABASE)


def pace(plan_folder: Path, rate: float, threads: int) -> None:
    """Adds each wrk thread's interval between requests to its plan: `rate` in total."""
    interval_us = int(threads * 1_000_000 / rate)
    for thread in range(threads):
        path = plan_folder / f"thread-{thread}.lua"
        paced = f'return {{["interval_us"] = {interval_us},\n'
        path.write_text(path.read_text().replace("return {", paced, 1))


def slices(answers: list[tuple], start: float, width: float, count: int) -> list[dict]:
    """Requests per second, p50/p99 and failures of each `width`-second slice from `start`."""
    buckets: list[list[tuple]] = [[] for _ in range(count)]
    for answer in answers:
        index = math.floor((answer[4] - start) / width)
        if 0 <= index < count:
            buckets[index].append(answer)
    result = []
    for index, bucket in enumerate(buckets):
        latencies = sorted(answer[3] for answer in bucket)
        result.append(
            {
                "t": round(index * width, 1),
                "rps": len(bucket) / width,
                "p50_ms": percentile(latencies, 0.50),
                "p99_ms": percentile(latencies, 0.99),
                "failures": sum(failed(*answer[:3]) for answer in bucket),
                "server_errors": sum(answer[1] >= 500 for answer in bucket),
            }
        )
    return result


def worker_rss(masters: list[int]) -> dict[int, int]:
    """Resident memory of each gunicorn worker, in KiB."""
    from bench.search_server import child_pids

    rss = {}
    for master in masters:
        for pid in child_pids(master):
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        rss[pid] = int(line.split()[1])
    return rss


class Sampler(threading.Thread):
    """Calls `sample()` every `every` seconds until stopped, keeping (monotonic time, value)."""

    def __init__(self, sample, every: float) -> None:
        super().__init__(daemon=True)
        self.sample, self.every = sample, every
        self.samples: list[tuple[float, object]] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            self.samples.append((time.monotonic(), self.sample()))
            self.stopped.wait(self.every)

    def stop(self) -> list[tuple[float, object]]:
        self.stopped.set()
        self.join()
        return self.samples
