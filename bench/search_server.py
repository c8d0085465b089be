"""bench/search.py's measuring machinery: the app's environment, gunicorn, the clients
(one request at a time in Python, wrk for concurrency) and the CPU accounting per phase."""

import contextlib
import http.client
import json
import os
import resource
import statistics
import subprocess
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.mix import Query

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
LUA_SCRIPT = ROOT / "bench" / "paths.lua"
# The app needs REDIS_URL with DEBUG off; the search phases do not count requests
# (bench/settings.py), so this Redis only holds the domain list's cache.
BENCH_REDIS_URL = "redis://127.0.0.1:56382/3"
TRIVIAL_PATH = "/bench/trivial"
WORKERS = 2
CONCURRENCY = 8
WRK_THREADS = 2
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- figures ----------------------------------------------------------------------------


@dataclass
class Latency:
    mean: float
    p50: float
    p95: float
    p99: float
    max: float

    @classmethod
    def of(cls, milliseconds: list[float]) -> "Latency":
        if len(milliseconds) < 2:
            value = milliseconds[0] if milliseconds else float("nan")
            return cls(value, value, value, value, value)
        cuts = statistics.quantiles(milliseconds, n=100, method="inclusive")
        return cls(
            mean=statistics.fmean(milliseconds),
            p50=cuts[49],
            p95=cuts[94],
            p99=cuts[98],
            max=max(milliseconds),
        )


@dataclass
class Load:
    """CPU use during a phase, in cores (CPU seconds per second of wall time).

    benchmark = server (gunicorn and the benchmark database's backends) + client
    (this process, wrk); other = everything else on the box.
    """

    wall: float
    busy: float
    benchmark: float
    server: float
    other: float
    steal: float
    top_other: list[tuple[str, float]]


@dataclass
class Phase:
    name: str
    concurrency: int
    tool: str
    requests: int
    errors: int
    seconds: float
    rps: float
    latency_ms: Latency
    distinct_paths: int
    repeated_paths: bool
    load: Load | None = None
    by_kind: dict[str, dict] = field(default_factory=dict)
    error_sample: str | None = None
    # CPU time of gunicorn and the database per request: unlike latency and req/s,
    # barely moved by other load on the box.
    server_cpu_ms: float | None = None

    def __post_init__(self) -> None:
        if self.load and self.requests:
            self.server_cpu_ms = self.load.server * self.load.wall * 1000 / self.requests


@dataclass
class Sent:
    kind: str
    path: str
    status: int
    milliseconds: float
    body: bytes


# -- processes and CPU accounting -------------------------------------------------------


def cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def process_name(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()[:80] or "?"


def process_cpu() -> dict[int, float]:
    """The CPU seconds of every process on the box, by process id."""
    seconds = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            value = cpu_seconds(int(entry.name))
            if value is not None:
                seconds[int(entry.name)] = value
    return seconds


def child_pids(pid: int) -> set[int]:
    children: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            children.update(int(child) for child in task.read_text().split())
    return children


class CpuMonitor:
    """Splits the box's CPU time into the benchmark's processes and everything else.

    The benchmark: this process and the children it waited for (wrk), the gunicorn
    master and workers, and the PostgreSQL backends connected to the benchmark
    database. Everything else (other sessions' tests, the cluster's background
    processes) is "other".
    """

    def __init__(self, database: str) -> None:
        self.database = database
        self.gunicorn_pid: int | None = None

    def _ours(self, pid: int, gunicorn: set[int]) -> bool:
        return pid == os.getpid() or pid in gunicorn or f" {self.database} " in process_name(pid)

    def _snapshot(self) -> tuple[float, float, dict[int, float], float]:
        with open("/proc/stat") as stat:
            values = [int(value) for value in stat.readline().split()[1:]]
        user, nice, system, _idle, _iowait, irq, softirq, steal = values[:8]
        busy = (user + nice + system + irq + softirq) / CLOCK_TICKS
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return busy, steal / CLOCK_TICKS, process_cpu(), children.ru_utime + children.ru_stime

    @contextlib.contextmanager
    def measure(self) -> Iterator[list[Load]]:
        """Yields a list that holds the phase's Load once the block is done."""
        out: list[Load] = []
        started = time.monotonic()
        busy0, steal0, processes0, children0 = self._snapshot()
        yield out
        busy1, steal1, processes1, children1 = self._snapshot()
        wall = time.monotonic() - started
        gunicorn: set[int] = set()
        if self.gunicorn_pid:
            gunicorn = {self.gunicorn_pid, *child_pids(self.gunicorn_pid)}
        ours = children1 - children0
        server = 0.0
        others: dict[int, float] = {}
        for pid, seconds in processes1.items():
            delta = seconds - processes0.get(pid, 0.0)
            if self._ours(pid, gunicorn):
                ours += delta
                server += delta if pid != os.getpid() else 0.0
            elif delta > 0:
                others[pid] = delta
        busy = busy1 - busy0
        top = sorted(others.items(), key=lambda item: -item[1])[:3]
        out.append(
            Load(
                wall=wall,
                busy=busy / wall,
                benchmark=ours / wall,
                server=server / wall,
                other=max(busy - ours, 0.0) / wall,
                steal=(steal1 - steal0) / wall,
                top_other=[(process_name(pid), seconds / wall) for pid, seconds in top],
            )
        )


def top_snapshot() -> str:
    result = subprocess.run(
        ["top", "-bn1", "-w", "160"], capture_output=True, text=True, check=False
    )
    return "\n".join(result.stdout.splitlines()[:15])


# -- the app -----------------------------------------------------------------------------


def django_env(database_url: str, port: int, pgoptions: str = "") -> dict[str, str]:
    env = dict(os.environ)
    if pgoptions:
        env["PGOPTIONS"] = pgoptions  # libpq: server settings for every connection
    env.update(
        DEBUG="0",
        SECRET_KEY="bench",  # noqa: S106 - signs nothing that outlives the run
        SITE_URL=f"http://127.0.0.1:{port}",
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url,
        REDIS_URL=os.environ.get("REDIS_URL", BENCH_REDIS_URL),
        DJANGO_SETTINGS_MODULE="bench.settings",
    )
    return env


@contextlib.contextmanager
def gunicorn(
    database_url: str, port: int, log: Path, monitor: CpuMonitor, pgoptions: str
) -> Iterator[int]:
    """Serve the project on 127.0.0.1:port until the block ends, whatever happens."""
    command = [
        str(VENV_BIN / "gunicorn"),
        "config.wsgi:application",
        f"--workers={WORKERS}",
        "--worker-class=sync",
        f"--bind=127.0.0.1:{port}",
        "--backlog=2048",
        "--log-level=warning",
    ]
    print(f"==> gunicorn, {WORKERS} sync workers, on 127.0.0.1:{port}")
    with open(log, "wb") as log_file:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=django_env(database_url, port, pgoptions),
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    monitor.gunicorn_pid = process.pid
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {process.returncode}:\n{log.read_text()}")
            with contextlib.suppress(OSError):
                if fetch(port, TRIVIAL_PATH).status == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer within 60 s:\n{log.read_text()}")
            time.sleep(0.2)
        yield port
    finally:
        monitor.gunicorn_pid = None
        if process.poll() is None:
            process.terminate()  # graceful: the workers finish their request
            try:
                process.wait(timeout=35)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# -- clients ------------------------------------------------------------------------------


def fetch(port: int, path: str, kind: str = "") -> Sent:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers={"Accept": "application/json"})
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    return Sent(kind, path, response.status, (time.perf_counter() - started) * 1000, body)


def run_sequential(
    name: str, port: int, queries: list[Query], seconds: float, monitor: CpuMonitor
) -> tuple[Phase, list[Sent]]:
    """One request at a time, a new connection each, until time or queries run out."""
    sent: list[Sent] = []
    with monitor.measure() as load:
        started = time.perf_counter()
        deadline = started + seconds
        for query in queries:
            if time.perf_counter() >= deadline:
                break
            sent.append(fetch(port, query.path, query.kind))
        elapsed = time.perf_counter() - started
    errors = [item for item in sent if item.status != 200]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for item in sent:
        by_kind[item.kind].append(item.milliseconds)
    phase = Phase(
        name=name,
        concurrency=1,
        tool="python http.client",
        requests=len(sent),
        errors=len(errors),
        seconds=elapsed,
        rps=len(sent) / elapsed,
        latency_ms=Latency.of([item.milliseconds for item in sent]),
        distinct_paths=len({item.path for item in sent}),
        repeated_paths=len(sent) == len(queries) and elapsed < seconds,
        load=load[0],
        by_kind={
            kind: {"requests": len(values), **asdict(Latency.of(values))}
            for kind, values in sorted(by_kind.items())
        },
        error_sample=(
            f"{errors[0].status} {errors[0].path}: {errors[0].body[:300]!r}" if errors else None
        ),
    )
    if phase.repeated_paths:
        print(f"    note: {name} used up its {len(queries)} paths before {seconds} s")
    return phase, sent


def run_wrk(
    name: str,
    port: int,
    paths: list[str],
    seconds: int,
    workdir: Path,
    monitor: CpuMonitor,
    concurrency: int = CONCURRENCY,
) -> Phase:
    paths_file = workdir / f"paths-{name.replace(' ', '-')}.txt"
    paths_file.write_text("\n".join(paths) + "\n")
    command = [
        "wrk",
        f"-t{WRK_THREADS}",
        f"-c{concurrency}",
        f"-d{seconds}s",
        "--timeout=10s",
        f"-s{LUA_SCRIPT}",
        f"http://127.0.0.1:{port}",
        "--",
        str(paths_file),
        str(WRK_THREADS),
    ]
    with monitor.measure() as load:
        result = subprocess.run(
            command, capture_output=True, text=True, check=False, timeout=seconds + 60
        )
    if result.returncode != 0:
        raise RuntimeError(f"wrk failed ({result.returncode}): {result.stdout}{result.stderr}")
    (workdir / f"wrk-{name.replace(' ', '-')}.txt").write_text(result.stdout + result.stderr)
    line = next(line for line in result.stdout.splitlines() if line.startswith("BENCH_JSON "))
    figures = json.loads(line.removeprefix("BENCH_JSON "))
    errors = sum(figures["errors"].values())
    latency = {key: value / 1000 for key, value in figures["latency_us"].items()}
    elapsed = figures["duration_us"] / 1e6
    return Phase(
        name=name,
        concurrency=concurrency,
        tool=f"wrk -t{WRK_THREADS} -c{concurrency}",
        requests=figures["requests"],
        errors=errors,
        seconds=elapsed,
        rps=figures["requests"] / elapsed,
        latency_ms=Latency(
            latency["mean"], latency["p50"], latency["p95"], latency["p99"], latency["max"]
        ),
        distinct_paths=figures["distinct_paths"],
        repeated_paths=figures["wrapped"] and len(paths) > 1,
        load=load[0],
        error_sample=json.dumps(figures["errors"]) if errors else None,
    )
