"""Chaos: bench/load.py's mix for ten minutes while PostgreSQL and Redis are restarted at
random moments, then an audit that nothing was lost, counted twice or left behind.

Usage (from the project root, with the project venv; run by hand, not in CI):

    .venv/bin/python bench/chaos.py [--duration 600] [--restarts 3] [--seed 1]
        [--pg-port 54330] [--redis-port 56390]

Everything runs on 127.0.0.1 and stops by itself after --duration seconds plus the
set-up (a few minutes the first time: bench/longrun.py builds the catalogue).

1. Servers of its own (bench/longrun.py): a PostgreSQL cluster in .local/pg-chaos on
   --pg-port and a redis-server on --redis-port, which this script stops and starts;
   the database `logodir_chaos`. Data as bench/load.py prepares it, plus 130 accounts
   with a write:proposals token.
2. Load: two gunicorn instances of 3 sync workers, wrk with bench/load.lua's mix on
   32 connections (as bench/load.py), and beside it one client uploading a small SVG
   proposal every half second, in turn from those 130 accounts (10 a day each).
3. Chaos: PostgreSQL and Redis are each stopped --restarts times, at moments drawn
   from --seed between the first and the last minute, at least 30 s apart from any
   other outage, each for 3 to 10 s (drawn too) before they start again. PostgreSQL
   stops with a fast shutdown (connections cut, transactions in flight rolled back),
   Redis with SIGTERM (its counts and cached lookups gone, as after a restart).
4. Audit, afterwards:
   * no over-grant: no FREE account over 5 counted downloads, no address over 3, no
     repeat counted within 12 hours, every downloadCount equal to its counted rows
     (bench/downloads.py's queries);
   * no download recorded without a 200: the download rows of the run equal the
     download answers with status 200 (as the servers logged them: wrk drops what is
     in flight when its time is up);
   * palettes: no account over 100, and the palettes equal what there were plus the
     201s minus the 204s answered;
   * proposals: one row for each 201, and no stored file without a row (no orphan);
   * every 5xx is 503 SERVICE_UNAVAILABLE with Retry-After.
   Reported: the share of requests that failed (any answer other than 2xx and the
   contract's answers at a limit), and for each outage how long it lasted and from
   when to when answers failed because of it.

Output: a report on stdout and bench/results/chaos-<date>.json; exit status 1 when
the audit finds anything.
"""

import argparse
import contextlib
import itertools
import json
import random
import re
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import RESULTS, ROOT, ensure_wrk, start_instances, write_results
from bench.downloads import AUDIT_SQL
from bench.load_data import PALETTE_AUDIT_SQL, build_plan, prepare
from bench.load_wrk import failed, run_wrk, warm_up, write_wrk_plan
from bench.longrun import (
    MAX_SEARCHES,
    MEDIA,
    Servers,
    add_arguments,
    ensure_database,
    instances,
    with_servers,
)

PROPOSAL_ACCOUNTS = 130
EMAIL_DOMAIN = "chaos.bench.invalid"
UPLOAD_EVERY = 0.5
SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">'
    b'<rect width="40" height="40" fill="#00A651"/></svg>'
)


def prepare_chaos(env: dict[str, str]) -> dict:
    """Proposal accounts with a token each; earlier runs' proposals and their files gone;
    what the audit compares with afterwards."""
    from django.core.files.storage import default_storage
    from django.db import connection

    from accounts.models import ApiToken, Scope
    from accounts.services import token_issue, user_ensure
    from palettes.models import Palette
    from proposals.models import Proposal

    users = f"@{EMAIL_DOMAIN}"
    for proposal in Proposal.objects.filter(submitter__email__endswith=users):
        default_storage.delete(proposal.file.name)
        proposal.delete()
    ApiToken.objects.filter(user__email__endswith=users).delete()
    tokens = [
        token_issue(
            user=user_ensure(email=f"proposer{n}{users}"),
            name="chaos",
            scopes=[Scope.WRITE_PROPOSALS],
        ).secret
        for n in range(PROPOSAL_ACCOUNTS)
    ]
    palettes_before = Palette.objects.filter(owner__email__endswith="@load.bench.invalid").count()
    connection.close()
    return {"proposal_tokens": tokens, "palettes_before": palettes_before}


class Uploader(threading.Thread):
    """One client proposing a logo every UPLOAD_EVERY seconds, round the accounts and hosts."""

    def __init__(self, hosts: list[str], tokens: list[str], until: float) -> None:
        super().__init__(daemon=True)
        self.hosts, self.tokens, self.until = hosts, tokens, until
        self.answers: list[tuple] = []

    def _post(self, host: str, token: str) -> tuple[int, str | None, str | None]:
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="companyName"\r\n\r\n'
                f'Chaos\r\n--{boundary}\r\nContent-Disposition: form-data; name="file";'
                ' filename="logo.svg"\r\nContent-Type: image/svg+xml\r\n\r\n'
            ).encode()
            + SVG
            + f"\r\n--{boundary}--\r\n".encode()
        )
        request = urllib.request.Request(
            f"{host}/v1/public/proposals",
            data=body,
            method="POST",
            headers={
                "Authorization": f"Bearer {token}",
                "Content-Type": f"multipart/form-data; boundary={boundary}",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, None, None
        except urllib.error.HTTPError as error:
            code = json.loads(error.read() or b"{}").get("error")
            return error.code, code, error.headers.get("Retry-After")

    def run(self) -> None:
        sent = 0
        while time.monotonic() < self.until:
            started = time.monotonic()
            host, token = self.hosts[sent % len(self.hosts)], self.tokens[sent % len(self.tokens)]
            try:
                status, code, retry_after = self._post(host, token)
            except OSError as error:  # refused or cut: a failure with no answer
                status, code, retry_after = 0, type(error).__name__, None
            done = time.monotonic()
            self.answers.append(
                ("POST /proposals", status, code, (done - started) * 1000, done, retry_after)
            )
            sent += 1
            time.sleep(max(0.0, UPLOAD_EVERY - (time.monotonic() - started)))


def schedule(seed: int, duration: int, restarts: int) -> list[dict]:
    """When each service stops and for how long: inside the run, leaving its first and
    last minute alone, at least 30 s between outages."""
    rng = random.Random(seed)
    while True:
        moments = sorted(rng.uniform(60, duration - 60) for _ in range(2 * restarts))
        if all(b - a >= 30 for a, b in itertools.pairwise(moments)):
            break
    services = ["postgresql"] * restarts + ["redis"] * restarts
    rng.shuffle(services)
    return [
        {"service": service, "at": at, "down_for": rng.uniform(3, 10)}
        for service, at in zip(services, moments, strict=True)
    ]


class Chaos(threading.Thread):
    def __init__(self, servers: Servers, plan: list[dict], started: float) -> None:
        super().__init__(daemon=True)
        self.servers, self.plan, self.started = servers, plan, started
        self.outages: list[dict] = []

    def run(self) -> None:
        for event in self.plan:
            time.sleep(max(0.0, self.started + event["at"] - time.monotonic()))
            stop, start = {
                "postgresql": (self.servers.stop_postgres, self.servers.start_postgres),
                "redis": (self.servers.stop_redis, self.servers.start_redis),
            }[event["service"]]
            stopping = time.monotonic()
            stop()
            stopped = time.monotonic()
            time.sleep(event["down_for"])
            start()
            self.outages.append(
                {
                    "service": event["service"],
                    "stopping": stopping,
                    "stopped": stopped,
                    "started": time.monotonic(),
                }
            )
            print(
                f"    {event['service']} down at {stopping - self.started:.0f} s for"
                f" {time.monotonic() - stopping:.1f} s",
                flush=True,
            )


def visibility(outages: list[dict], answers: list[tuple], run_started: float) -> list[dict]:
    """For each outage: how long the service was down and which answers failed from
    when it stopped until the next outage (or the end)."""
    report = []
    for index, outage in enumerate(outages):
        until = outages[index + 1]["stopping"] if index + 1 < len(outages) else float("inf")
        failures = sorted(
            answer[4]
            for answer in answers
            if outage["stopping"] <= answer[4] < until and failed(*answer[:3])
        )
        report.append(
            {
                "service": outage["service"],
                "at_s": round(outage["stopping"] - run_started, 1),
                "down_s": round(outage["started"] - outage["stopping"], 2),
                "failed_answers": len(failures),
                "failures_from_s": round(failures[0] - outage["stopping"], 2) if failures else None,
                "failures_until_s": round(failures[-1] - outage["stopping"], 2)
                if failures
                else None,
            }
        )
    return report


def served(logs: list[Path]) -> Counter:
    """What the app processes answered, from their request log lines: (endpoint, status).

    The servers' word rather than wrk's: wrk drops the answers still in flight when its
    time is up, and a download answered then is counted in the database all the same.
    """
    kinds = [
        ("POST", re.compile(r"^/v1/public/logos/[^/]+/download$"), "POST /logos/{id}/download"),
        ("POST", re.compile(r"^/v1/public/palettes$"), "POST /palettes"),
        ("DELETE", re.compile(r"^/v1/public/palettes/[^/]+$"), "DELETE /palettes/{id}"),
        ("POST", re.compile(r"^/v1/public/proposals$"), "POST /proposals"),
    ]
    answered: Counter = Counter()
    for log in logs:
        for line in log.read_text(errors="replace").splitlines():
            if '"config.request"' not in line:
                continue
            entry = json.loads(line)
            for method, path, endpoint in kinds:
                if entry["method"] == method and path.match(entry["path"]):
                    answered[(endpoint, entry["status"])] += 1
    return answered


def audit(url: str, answers: list[tuple], logs: list[Path], prepared: dict, media: Path) -> dict:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        checks = {name: int(conn.execute(sql).fetchone()[0]) for name, sql in AUDIT_SQL.items()}
        checks["accounts_over_100_palettes"] = int(conn.execute(PALETTE_AUDIT_SQL).fetchone()[0])
        downloads = int(conn.execute("SELECT count(*) FROM directory_download").fetchone()[0])
        palettes = int(
            conn.execute(
                "SELECT count(*) FROM palettes_palette p JOIN accounts_user u ON u.id = p.owner_id"
                " WHERE u.email LIKE '%%@load.bench.invalid'"
            ).fetchone()[0]
        )
        proposals = conn.execute(
            "SELECT p.file FROM proposals_proposal p JOIN accounts_user u ON u.id = p.submitter_id"
            " WHERE u.email LIKE %s",
            [f"%@{EMAIL_DOMAIN}"],
        ).fetchall()
    outcomes = served(logs)
    stored = {
        str(path.relative_to(media / "files"))
        for path in (media / "files" / "proposals").glob("*")
        if path.is_file()
    }
    rows = {name for (name,) in proposals}
    server_errors = [answer for answer in answers if answer[1] >= 500]
    expected_palettes = (
        prepared["palettes_before"]
        + outcomes[("POST /palettes", 201)]
        - outcomes[("DELETE /palettes/{id}", 204)]
    )
    return {
        **checks,
        "download_rows": downloads,
        "download_200s": outcomes[("POST /logos/{id}/download", 200)],
        "download_200s_wrk_saw": sum(
            1 for answer in answers if answer[:2] == ("POST /logos/{id}/download", 200)
        ),
        "downloads_without_a_200": downloads - outcomes[("POST /logos/{id}/download", 200)],
        "palettes": palettes,
        "palettes_expected": expected_palettes,
        "proposal_rows": len(rows),
        "proposal_201s": outcomes[("POST /proposals", 201)],
        "orphan_files": len(stored - rows),
        "rows_without_a_file": len(rows - stored),
        "server_errors": len(server_errors),
        "server_errors_not_503_with_retry_after": sum(
            1 for answer in server_errors if answer[1] != 503 or answer[5] in (None, "-")
        ),
        "server_error_codes": dict(Counter(answer[2] for answer in server_errors)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=600, help="seconds of load (default 600)")
    parser.add_argument("--restarts", type=int, default=3, help="outages of each service")
    parser.add_argument("--seed", type=int, default=1)
    add_arguments(parser)
    args = parser.parse_args()
    if args.duration < 120 + 30 * 2 * args.restarts:
        raise SystemExit("--duration too short for that many outages 30 s apart")
    return with_servers(args, run)


def run(args: argparse.Namespace, servers: Servers) -> int:
    url = ensure_database(servers)
    ports, hosts, envs = instances(url, args.redis_port)
    prepared = prepare(envs[0], 2000)
    prepared_chaos = prepare_chaos(envs[0])
    plan = build_plan(url, prepared, MAX_SEARCHES)
    ensure_wrk()
    events = schedule(args.seed, args.duration, args.restarts)

    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    RESULTS.mkdir(parents=True, exist_ok=True)
    wrk_log = RESULTS / f"chaos-{stamp}-wrk.txt"
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        write_wrk_plan(Path(folder), plan, ports, args.connections)
        print(f"==> two gunicorn instances, {args.workers} sync workers each, on {hosts}")
        masters = start_instances(stack, envs, ports, args.workers, f"chaos-{stamp}")
        warm_up(hosts, plan["warm_up"])
        print(f"==> wrk: {args.connections} connections, {args.duration} s, outages: {events}")
        started = time.monotonic()
        chaos = Chaos(servers, events, started)
        uploader = Uploader(hosts, prepared_chaos["proposal_tokens"], started + args.duration)
        chaos.start()
        uploader.start()
        results, _split, _busy, _window = run_wrk(
            Path(folder), ports, args.connections, args.duration, wrk_log, masters
        )
        chaos.join()
        uploader.join()
    answers = results["answers"] + uploader.answers
    logs = [RESULTS / f"chaos-{stamp}-{n}.log" for n in (1, 2)]
    checks = audit(url, answers, logs, prepared_chaos, MEDIA)
    outages = visibility(chaos.outages, answers, started)
    total = len(answers)
    failures = sum(failed(*answer[:3]) for answer in answers)
    socket_errors = sum(results["socket_errors"].values())

    print(f"\nanswers: {total:,}; failed {failures:,} ({failures / total:.3%})")
    print(f"connections wrk could not complete: {results['socket_errors']}")
    for outage in outages:
        print(
            f"  {outage['service']:10} at {outage['at_s']:6.1f} s, down {outage['down_s']:5.2f} s:"
            f" {outage['failed_answers']:4} failed answers"
            + (
                f" from +{outage['failures_from_s']} s to +{outage['failures_until_s']} s"
                if outage["failed_answers"]
                else ""
            )
        )
    print(f"audit: {json.dumps(checks)}")
    problems = {
        "over-grants": sum(checks[name] for name in AUDIT_SQL),
        "accounts over 100 palettes": checks["accounts_over_100_palettes"],
        "downloads recorded without a 200": checks["downloads_without_a_200"],
        "palettes other than answered": checks["palettes"] - checks["palettes_expected"],
        "proposals other than answered": checks["proposal_rows"] - checks["proposal_201s"],
        "orphan files": checks["orphan_files"],
        "proposals without their file": checks["rows_without_a_file"],
        "5xx other than 503 with Retry-After": checks["server_errors_not_503_with_retry_after"],
    }
    for what, count in problems.items():
        print(f"{'PASS' if count == 0 else 'FAIL'}  {what}: {count}")
    write_results(
        "chaos",
        {
            "arguments": vars(args),
            "schedule": events,
            "answers": total,
            "failed": failures,
            "failed_share": failures / total,
            "socket_errors": results["socket_errors"],
            "socket_errors_total": socket_errors,
            "outcomes": [
                {"endpoint": e, "status": s, "error": c, "requests": n}
                for (e, s, c), n in sorted(Counter(a[:3] for a in answers).items(), key=str)
            ],
            "outages": outages,
            "audit": checks,
            "problems": problems,
            "wrk_log": str(wrk_log.relative_to(ROOT)),
        },
    )
    return 0 if not any(problems.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
