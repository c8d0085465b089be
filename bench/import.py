"""The catalogue import as operators run it: `manage.py import_directory` over a catalogue
made by the demo generator (directory/demo/catalogue.py) with all its files, into a fresh database.

    .venv/bin/python bench/import.py --companies 10000

Measures, each as its own run of the command:
  rows      new companies with their files stored, searchable and served (the command's
            start to the last line of its import progress), in companies a second;
  derived   previews, brand colours and vectors of those companies (the derived pass),
            and the whole run, in companies a second;
  unchanged the same catalogue imported again;
  changed   --changed companies whose "about" changed, imported into the catalogue;
  derived   with --derived-apart, the new companies' rows alone, then the derived pass
            alone (manage.py complete_import), each a run of its own;
and the peak resident memory of the largest process of each run, and the CPU seconds
the command and its workers used (PostgreSQL's own are not counted). The catalogue is made
once per size and seed under .local/bench-import/ and kept. Results go to
bench/results/import-<date>.json.
"""

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import POSTGRES_PORT, ROOT, VENV_BIN, django_env, start_servers, write_results

PYTHON = str(VENV_BIN / "python")
DATABASE = "bench_import"


def _env(database_url: str, media: Path) -> dict[str, str]:
    # No server is started: the port only fills SITE_URL.
    return django_env(database_url=database_url, redis_db=3, port=8000, MEDIA_ROOT=str(media))


def _catalogue(companies: int, seed: int, env: dict[str, str]) -> Path:
    folder = ROOT / ".local" / "bench-import" / f"{companies}-{seed}"
    path = folder / "catalogue.json"
    if path.exists():
        return path
    print(f"==> drawing the demo catalogue of {companies:,} companies into {folder}")
    code = (
        "import django; django.setup(); from pathlib import Path; "
        "from directory.demo.catalogue import catalogue_build, catalogue_write; "
        f"catalogue_write(catalogue_build(companies={companies}, seed={seed}), "
        f"Path({str(folder)!r}))"
    )
    subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, check=True)
    return path


def entry_change(company: dict, number: int) -> dict:
    """Changes the `number`-th changed entry: its name when odd, its "about" when even."""
    if number % 2:
        company["name"] += " Grupo"
    else:
        company["about"] = (company["about"] or "") + " Renovada en 2025."
    return company


def _changed(path: Path, count: int) -> Path:
    """The catalogue with the name (one in two) or the "about" (the others) of its first
    `count` companies changed."""
    target = path.with_name(f"changed-{count}.json")
    document = json.loads(path.read_text(encoding="utf-8"))
    for number, company in enumerate(document["companies"][:count]):
        entry_change(company, number)
    target.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return target


def _fresh_database(env: dict[str, str]) -> None:
    psql = ["psql", "-h", "127.0.0.1", "-p", str(POSTGRES_PORT), "-U", "postgres", "-q"]
    subprocess.run([*psql, "-c", f"DROP DATABASE IF EXISTS {DATABASE}"], check=True)
    subprocess.run([*psql, "-c", f"CREATE DATABASE {DATABASE}"], check=True)
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )


def _postgres_cpu() -> float:
    """CPU seconds used so far by the benchmark's PostgreSQL: the postmaster, its live
    processes and those it has reaped (the import's connection among them)."""
    psql = ["psql", "-h", "127.0.0.1", "-p", str(POSTGRES_PORT), "-U", "postgres", "-qAt"]
    data = subprocess.run(
        [*psql, "-c", "SHOW data_directory"], capture_output=True, text=True, check=True
    ).stdout.strip()
    postmaster = int(Path(data, "postmaster.pid").read_text().split()[0])
    ticks = os.sysconf("SC_CLK_TCK")

    def fields(pid: int) -> list[str]:
        # Fields after the command's name, which may hold spaces: (3) state onwards.
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()

    own = fields(postmaster)
    total = sum(int(value) for value in own[11:15])  # utime, stime, cutime, cstime
    for child in Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split():
        # Ended meanwhile (counted by cutime): its file gone, or its read refused.
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            total += sum(int(value) for value in fields(int(child))[11:13])
    return total / ticks


class _BackendCpu:
    """CPU seconds of the command's own PostgreSQL backends (those of its database), read
    from /proc every second while it runs: on a cluster others share, the cluster's CPU
    is mostly theirs. A backend's last second before it ends is not counted."""

    def __init__(self, database_url: str):
        import psycopg

        self.database = database_url.rsplit("/", 1)[1]
        self.connection = psycopg.connect(
            f"postgres://postgres@127.0.0.1:{POSTGRES_PORT}/postgres", autocommit=True
        )
        # Backends open before the command (this script's own): only what they add counts.
        self.before = self._read()
        self.seen = dict(self.before)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _read(self) -> dict[int, float]:
        ticks = os.sysconf("SC_CLK_TCK")
        found = {}
        for (pid,) in self.connection.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s"
            " AND backend_type = 'client backend'",
            [self.database],
        ).fetchall():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                found[pid] = (int(fields[11]) + int(fields[12])) / ticks
        return found

    def _sample(self) -> None:
        while not self.done.wait(1.0):
            self.seen.update(self._read())

    def stop(self) -> float:
        self.done.set()
        self.thread.join()
        self.seen.update(self._read())
        self.connection.close()
        return round(sum(cpu - self.before.get(pid, 0) for pid, cpu in self.seen.items()), 1)


def _run_import(path: Path, env: dict[str, str], companies: int, *options: str) -> dict:
    """One run of import_directory: its phases' seconds and rates, its peak memory."""
    return _run_command(["import_directory", str(path), *options], env, companies)


def _run_command(command: list[str], env: dict[str, str], companies: int) -> dict:
    """One run of a management command: its phases' seconds and rates, its peak memory."""
    load_before = os.getloadavg()[0]
    postgres_before = _postgres_cpu()
    backends = _BackendCpu(env["DATABASE_URL"])
    started = time.monotonic()
    process = subprocess.Popen(
        [PYTHON, "manage.py", *command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    derived_at = None
    for line in process.stderr:
        # The rows are in when the import's progress says its last line.
        if derived_at is None and re.match(
            r"import: [\d,]+ of [\d,]+ in |everything is done", line
        ):
            derived_at = time.monotonic()
        # Each line with the seconds since the start: where the time went.
        print(f"    {time.monotonic() - started:7.1f} s  {line.rstrip()}")
    _, status, usage = os.wait4(process.pid, 0)
    ended = time.monotonic()
    output = process.stdout.read().strip()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({process.returncode}): {output}")
    rows = (derived_at or ended) - started
    total = ended - started
    cpu = usage.ru_utime + usage.ru_stime
    postgres = _postgres_cpu() - postgres_before
    backend = backends.stop()
    return {
        "summary": output,
        "rows_seconds": round(rows, 1),
        "rows_per_second": round(companies / rows, 1),
        "derived_seconds": round(ended - (derived_at or ended), 1),
        "total_seconds": round(total, 1),
        "overall_per_second": round(companies / total, 1),
        # ru_maxrss is in KiB: the largest of the process and its waited-for children.
        "peak_rss_mib": round(usage.ru_maxrss / 1024),
        # CPU time of the command and its workers (not PostgreSQL's): on a shared machine,
        # what the run would cost alone.
        "cpu_seconds": round(cpu, 1),
        # And PostgreSQL's (the statements and their triggers), for the same reason.
        "postgres_cpu_seconds": round(postgres, 1),
        # The command's own backends alone (the cluster may be shared).
        "backend_cpu_seconds": backend,
        # The rate alone on two cores, from the CPU both used: between one core doing all
        # of it in turn and both cores busy all along.
        "alone_per_second": [
            round(companies / (cpu + postgres), 1),
            round(2 * companies / (cpu + postgres), 1),
        ],
        "loadavg_before": load_before,
        "loadavg_after": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companies", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--changed", type=int, default=1_000)
    parser.add_argument(
        "--rows-only",
        action="store_true",
        help="Import with --rows-only: no previews, colours or vectors (measured apart).",
    )
    parser.add_argument(
        "--derived-apart",
        action="store_true",
        help="Import the new companies with --rows-only, then measure the derived pass "
        "alone (manage.py complete_import) as a run of its own.",
    )
    options = parser.parse_args()
    flags = ["--rows-only"] if options.rows_only or options.derived_apart else []

    database_url = start_servers(DATABASE)
    media = ROOT / ".local" / "bench-import" / "media"
    env = _env(database_url, media)
    path = _catalogue(options.companies, options.seed, env)
    subprocess.run(["rm", "-rf", str(media)], check=True)
    _fresh_database(env)

    results: dict = {"companies": options.companies, "seed": options.seed, "flags": flags}
    print(f"==> new: {options.companies:,} companies into an empty catalogue")
    results["new"] = _run_import(path, env, options.companies, *flags)
    print(json.dumps(results["new"]))
    if options.derived_apart:
        print("==> derived: previews, colours and vectors of the new companies, alone")
        results["derived"] = _run_command(["complete_import"], env, options.companies)
        print(json.dumps(results["derived"]))
        flags = []
    print("==> unchanged: the same catalogue again")
    results["unchanged"] = _run_import(path, env, options.companies, *flags)
    print(json.dumps(results["unchanged"]))
    if options.changed:
        print(f"==> changed: {options.changed:,} companies' about changed")
        changed = _changed(path, min(options.changed, options.companies))
        results["changed"] = _run_import(changed, env, options.changed, *flags)
        print(json.dumps(results["changed"]))
    write_results("import", results)


if __name__ == "__main__":
    main()
