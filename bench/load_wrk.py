"""bench/load.py's run: wrk's plan as Lua, wrk itself with the CPU of every process
sampled through the run, and the figures read from its answers."""

import contextlib
import math
import os
import subprocess
import time
from collections import Counter
from pathlib import Path

from bench.common import ROOT
from bench.load_data import DATABASE, REDIS_PORT, SEED
from bench.search_server import child_pids, process_cpu, process_name

WARM_UP_SECONDS = 2  # of wrk's run, left out of the figures
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# The contract's answers at a limit: successes here, counted apart.
LIMIT_ANSWERS = {
    ("POST /logos/{id}/download", 429, "DOWNLOAD_LIMIT_REACHED"),
    ("POST /palettes", 409, "PALETTE_LIMIT"),
}


def failed(endpoint: str, status: int, code: str | None) -> bool:
    """An answer that counts as a failure: neither a success nor a limit's answer."""
    return not (200 <= status < 300 or (endpoint, status, code) in LIMIT_ANSWERS)


# -- CPU ----------------------------------------------------------------------------------


def busy_seconds() -> float:
    with open("/proc/stat") as stat:
        values = [int(value) for value in stat.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq = values[:7]
    return (user + nice + system + irq + softirq) / CLOCK_TICKS


class ProcessSampler:
    """CPU seconds of every process, sampled through the run.

    A process that exits during the run keeps its last sample: with CONN_MAX_AGE the
    app's database connections close and reopen every minute, and the work of the
    backends that closed would otherwise vanish into "other".
    """

    def __init__(self) -> None:
        self.first = process_cpu()
        self.last = dict(self.first)
        self.names = {pid: process_name(pid) for pid in self.first}

    def sample(self) -> None:
        for pid, seconds in process_cpu().items():
            if pid not in self.names:
                self.names[pid] = process_name(pid)
            self.last[pid] = seconds

    def split(self, masters: list[int], client: int) -> dict[str, float]:
        """CPU seconds of the app processes, our database backends, Redis and wrk."""
        app = {pid for master in masters for pid in (master, *child_pids(master))}
        split = {"app": 0.0, "postgresql": 0.0, "redis": 0.0, "wrk": 0.0}
        for pid, seconds in self.last.items():
            delta = seconds - self.first.get(pid, 0.0)
            name = self.names.get(pid, "?")
            if pid == client:
                split["wrk"] += delta
            elif pid in app:
                split["app"] += delta
            elif f" {DATABASE} " in name:
                split["postgresql"] += delta
            elif name.startswith("redis-server") and f":{REDIS_PORT}" in name:
                split["redis"] += delta
        return split


# -- running ------------------------------------------------------------------------------


def warm_up(hosts: list[str], paths: list[str]) -> None:
    """Each process imports, connects and fills its caches before the measured run."""
    import urllib.request

    for index, path in enumerate(paths):
        request = urllib.request.Request(
            hosts[index % len(hosts)] + path, headers={"Accept": "application/json"}
        )
        with contextlib.suppress(OSError), urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()


def lua(value) -> str:
    """`value` (str, int, float, bool, list, dict with str keys) as a Lua expression."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        # Paths are percent-encoded, tokens base62, ids and slugs ASCII: nothing to escape
        # beyond the quote and the backslash, and anything else is a bug in the plan.
        if not value.isascii() or not value.isprintable():
            raise ValueError(f"not printable ASCII: {value!r}")
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "{" + ",\n".join(lua(item) for item in value) + "}"
    if isinstance(value, dict):
        return "{" + ",\n".join(f"[{lua(key)}] = {lua(item)}" for key, item in value.items()) + "}"
    raise TypeError(f"no Lua form for {type(value).__name__}")


def thread_plans(plan: dict, threads: int) -> list[dict]:
    """Each wrk thread's share of the plan.

    The search paths, slugs, logo references and read addresses are dealt out, so no
    search is sent twice. Every thread draws from all the tokens and download
    addresses: their quotas are contended across threads, as they would be. Each
    palette account belongs to one thread or, with more threads than accounts, to a
    few, which split its existing palettes: no two threads change or delete the same.
    """
    accounts = list(plan["palettes"])
    owners = {
        account: [t for t in range(threads) if t % len(accounts) == n]
        if threads >= len(accounts)
        else [n % threads]
        for n, account in enumerate(accounts)
    }
    shares = []
    for thread in range(threads):
        mine = [account for account in accounts if thread in owners[account]]
        shares.append(
            {
                "seed": SEED * 1000 + thread,
                **{
                    key: plan[key][thread::threads]
                    for key in (
                        "company_searches",
                        "logo_searches",
                        "company_slugs",
                        "logo_refs",
                        "addresses",
                    )
                },
                **{
                    key: plan[key]
                    for key in (
                        "read_tokens",
                        "download_addresses",
                        "download_free_tokens",
                        "pro_tokens",
                        "download_logos",
                    )
                },
                "palette_accounts": mine,
                "palettes": {
                    account: plan["palettes"][account][
                        owners[account].index(thread) :: len(owners[account])
                    ]
                    for account in mine
                },
            }
        )
    return shares


def write_wrk_plan(folder: Path, plan: dict, ports: list[int], threads: int) -> None:
    """main.lua (the servers) and thread-<n>.lua for bench/load.lua."""
    servers = [{"address": "127.0.0.1", "port": str(port)} for port in ports]
    (folder / "main.lua").write_text(f"return {lua({'hosts': servers})}\n")
    for thread, share in enumerate(thread_plans(plan, threads)):
        (folder / f"thread-{thread}.lua").write_text(f"return {lua(share)}\n")


def run_wrk(folder: Path, ports: list[int], connections: int, duration: int, log: Path, masters):
    """wrk's run: its answers, the CPU split over the measuring window, and that window.

    The window, in time.monotonic() seconds, starts WARM_UP_SECONDS after wrk does
    (threads reading their plan, first connections) and ends a second before it stops.
    """
    command = [
        "wrk",
        f"--threads={connections}",
        f"--connections={connections}",
        f"--duration={duration}s",
        "--timeout=30s",
        f"--script={ROOT / 'bench' / 'load.lua'}",
        f"http://127.0.0.1:{ports[0]}",
    ]
    with open(log, "w") as output:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, "BENCH_LOAD_PLAN": str(folder)},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            time.sleep(WARM_UP_SECONDS)
            sampler, busy_before, started = ProcessSampler(), busy_seconds(), time.monotonic()
            ends = started + duration - WARM_UP_SECONDS - 1
            while time.monotonic() < ends and process.poll() is None:
                time.sleep(min(0.5, max(ends - time.monotonic(), 0)))
                sampler.sample()
            busy_after, stopped = busy_seconds(), time.monotonic()
            if process.wait(timeout=duration + 60) != 0:
                raise RuntimeError(f"wrk failed; see {log}")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    split = sampler.split(masters, process.pid)
    busy = busy_after - busy_before
    split["other"] = max(busy - sum(split.values()), 0.0)
    return read_answers(folder / "results.tsv"), split, busy, (started, stopped)


def read_answers(path: Path) -> dict:
    """bench/load.lua's results: the answers (endpoint, status, error, latency, when, and
    the Retry-After of a 5xx)."""
    answers, exhausted, socket_errors = [], {}, {}
    for line in path.read_text().splitlines():
        kind, *fields = line.split("\t")
        if kind == "answer":
            endpoint, status, code, latency_us, completed_us, retry_after = fields
            latency_ms, completed = int(latency_us) / 1000, int(completed_us) / 1e6
            answers.append(
                (endpoint, int(status), code or None, latency_ms, completed, retry_after or None)
            )
        elif kind == "exhausted" and int(fields[1]):
            exhausted[fields[0]] = exhausted.get(fields[0], 0) + int(fields[1])
        elif kind == "socket_error":
            socket_errors[fields[0]] = int(fields[1])
    return {"answers": answers, "search_pools_exhausted": exhausted, "socket_errors": socket_errors}


def percentile(ordered: list[float], share: float) -> float:
    """Nearest rank."""
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)] if ordered else 0.0


def figures_of(results: dict, window: tuple[float, float]) -> dict:
    """Per endpoint and in total, over the window: counts, failures, req/s, latencies;
    and over the whole run, the answers by status and error code."""
    started, stopped = window
    seconds = stopped - started

    def entry(answers: list[tuple]) -> dict:
        latencies = sorted(answer[3] for answer in answers)
        return {
            "requests": len(answers),
            "failures": sum(failed(*answer[:3]) for answer in answers),
            "rps": len(answers) / seconds,
            "mean_ms": sum(latencies) / len(latencies) if latencies else 0.0,
            "p50_ms": percentile(latencies, 0.50),
            "p95_ms": percentile(latencies, 0.95),
            "p99_ms": percentile(latencies, 0.99),
            "max_ms": latencies[-1] if latencies else 0.0,
        }

    inside = [answer for answer in results["answers"] if started <= answer[4] <= stopped]
    by_endpoint: dict[str, list[tuple]] = {}
    for answer in inside:
        by_endpoint.setdefault(answer[0], []).append(answer)
    outcomes = Counter(answer[:3] for answer in results["answers"])
    return {
        "seconds": seconds,
        "total": entry(inside),
        "endpoints": {name: entry(answers) for name, answers in sorted(by_endpoint.items())},
        "outcomes": [
            {"endpoint": endpoint, "status": status, "error": code, "requests": count}
            for (endpoint, status, code), count in sorted(outcomes.items(), key=str)
        ],
        "answers_whole_run": len(results["answers"]),
        "failures_whole_run": sum(failed(*answer[:3]) for answer in results["answers"]),
        "socket_errors": results["socket_errors"],
        "search_pools_exhausted": results["search_pools_exhausted"],
    }
