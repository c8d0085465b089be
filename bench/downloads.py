"""Download-link requests per second under gunicorn, and an audit of the quota after.

Usage (from the project root, with the project venv; installs wrk from Debian if missing):

    .venv/bin/python bench/downloads.py [--accounts 400] [--logos 300] [--duration 20]

It starts the project-local PostgreSQL (127.0.0.1:54320, database
`logodir_bench_downloads`) and a Redis of its own (127.0.0.1:56382) through
scripts/lib.sh, and fills the database through the app's own services: --logos
logos with an SVG file each, --accounts accounts (half FREE, half PRO) with a
read:logos token each. Earlier runs' downloads are deleted first.

Then gunicorn (2 sync workers, DEBUG off, rate limits counted in Redis as in
production but set too high to be reached: bench/settings.py) answers
POST /v1/public/logos/{id}/download {"format": "svg"} from wrk, 16 connections, for
--duration seconds. Each request is a random (account, logo) pair, and one in ten
is anonymous from the same address: most FREE accounts and the address run out of
quota during the run, so both grants (200) and refusals (429) are exercised.

Afterwards the audit counts over-grants in the database: counted downloads beyond
5 per FREE account or 3 per address, a second counted download of one logo by one
subject within 12 hours, and logos whose downloadCount differs from their counted
downloads. Target (issue 4): at least 300 requests per second, zero over-grants. Then
the trivial endpoint of bench/urls.py, on the same server with the same connections: the
downloads' rate is printed as a share of it, the figure to compare between commits.
Results: a table on stdout and bench/results/downloads-<date>.json.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    ROOT,
    django_env,
    ensure_wrk,
    free_port,
    gunicorn,
    start_servers,
    write_results,
)

DATABASE = "logodir_bench_downloads"
CONNECTIONS = 16
WRK_THREADS = 2
TARGET_RPS = 300

AUDIT_SQL = {
    "free_accounts_over_5": """
        SELECT coalesce(sum(n - 5), 0) FROM (
          SELECT count(*) AS n FROM directory_download d JOIN accounts_user u ON u.id = d.user_id
          WHERE d.counted AND u.plan = 'FREE' GROUP BY d.user_id) per_user WHERE n > 5""",
    "addresses_over_3": """
        SELECT coalesce(sum(n - 3), 0) FROM (
          SELECT count(*) AS n FROM directory_download
          WHERE counted AND user_id IS NULL GROUP BY ip) per_ip WHERE n > 3""",
    "repeats_counted_within_12h": """
        SELECT count(*) FROM directory_download a JOIN directory_download b
          ON a.logo_id = b.logo_id AND a.id < b.id AND a.counted AND b.counted
         AND a.user_id IS NOT DISTINCT FROM b.user_id AND a.ip IS NOT DISTINCT FROM b.ip
         AND b.created_at - a.created_at < interval '12 hours'""",
    "logos_with_a_wrong_download_count": """
        SELECT count(*) FROM directory_logo l WHERE l.download_count <> (
          SELECT count(*) FROM directory_download d WHERE d.logo_id = l.id AND d.counted)""",
}


def prepare(env: dict[str, str], accounts: int, logos: int) -> list[str]:
    """Fills the database through the app's services; returns request lines."""
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    from accounts.models import ApiToken, Plan, Scope
    from accounts.services import token_issue, user_ensure
    from directory.catalogue.models import Company, Logo
    from directory.downloads.models import Download
    from directory.editing.services import asset_attach, file_store

    call_command("migrate", "--noinput", verbosity=0)
    Download.objects.all().delete()
    Logo.objects.update(download_count=0)
    svg = (
        b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">'
        b'<rect width="100" height="50" fill="#C8102E"/></svg>'
    )
    stored = file_store(data=svg)
    for n in range(Logo.objects.count(), logos):
        company = Company.objects.create(slug=f"bench-{n}", name=f"Bench {n}")
        logo = Logo.objects.create(company=company, slug=f"bench-{n}-logo", title=f"Bench {n}")
        asset_attach(logo=logo, variant=None, stored=stored)
    ApiToken.objects.filter(user__email__endswith="@bench.invalid").delete()
    tokens = []
    for n in range(accounts):
        plan = Plan.FREE if n % 2 == 0 else Plan.PRO
        user = user_ensure(email=f"user{n}@bench.invalid", plan=plan)
        tokens.append(token_issue(user=user, name="bench", scopes=[Scope.READ_LOGOS]).secret)
    logo_ids = [str(pk) for pk in Logo.objects.values_list("id", flat=True)]
    rng = random.Random(7)
    lines = []
    for _ in range(200_000):
        token = "" if rng.random() < 0.1 else rng.choice(tokens)
        lines.append(f"{rng.choice(logo_ids)}\t{token}")
    print(f"==> {len(logo_ids)} logos, {len(tokens)} accounts with a token each")
    return lines


def wrk(duration: int, *arguments: str) -> str:
    """wrk's output for CONNECTIONS connections over `duration` seconds."""
    command = ["wrk", f"-t{WRK_THREADS}", f"-c{CONNECTIONS}", f"-d{duration}s", "--timeout=10s"]
    return subprocess.run([*command, *arguments], capture_output=True, text=True, check=True).stdout


def audit() -> dict[str, int]:
    from django.db import connection

    with connection.cursor() as cursor:
        results = {}
        for name, sql in AUDIT_SQL.items():
            cursor.execute(sql)
            results[name] = int(cursor.fetchone()[0])
        cursor.execute("SELECT count(*), count(*) FILTER (WHERE counted) FROM directory_download")
        results["grants"], results["counted"] = cursor.fetchone()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=int, default=400)
    parser.add_argument("--logos", type=int, default=300)
    parser.add_argument("--duration", type=int, default=20)
    args = parser.parse_args()

    ensure_wrk()
    database_url = start_servers(DATABASE)
    port = free_port()
    env = django_env(database_url=database_url, redis_db=1, port=port, BENCH_RATE_LIMITS="count")
    lines = prepare(env, args.accounts, args.logos)
    with tempfile.TemporaryDirectory() as folder:
        requests_file = Path(folder) / "requests.txt"
        requests_file.write_text("\n".join(lines) + "\n")
        # The request log goes to a file, as in production, not to the terminal.
        with gunicorn(env, port, workers=2, log=Path(folder) / "server.log"):
            print(f"==> wrk, {CONNECTIONS} connections, {args.duration} s")
            result = wrk(
                args.duration,
                f"-s{ROOT / 'bench' / 'downloads.lua'}",
                f"http://127.0.0.1:{port}",
                "--",
                str(requests_file),
                str(WRK_THREADS),
            )
            # The machine's speed moves from day to day: the trivial endpoint
            # (bench/urls.py) on the same server, same connections, is the yardstick.
            print(f"==> wrk, the trivial endpoint, {CONNECTIONS} connections, {args.duration} s")
            trivial = wrk(args.duration, f"http://127.0.0.1:{port}/bench/trivial")
    rate = next(row for row in trivial.splitlines() if row.startswith("Requests/sec:"))
    trivial_rps = float(rate.split()[1])
    line = next(row for row in result.splitlines() if row.startswith("BENCH_JSON "))
    figures = json.loads(line.removeprefix("BENCH_JSON "))
    rps = figures["requests"] / (figures["duration_us"] / 1e6)
    checks = audit()
    over_grants = sum(value for name, value in checks.items() if name not in ("grants", "counted"))
    print(
        f"\nrequests {figures['requests']} in {figures['duration_us'] / 1e6:.1f} s: "
        f"{rps:.0f} req/s; 200 {figures['ok']}, 429 {figures['limited']}, "
        f"other {figures['other']}, socket errors {figures['socket_errors']}"
    )
    latency = figures["latency_us"]
    print(
        f"latency p50 {latency['p50'] / 1000:.1f} ms, p95 {latency['p95'] / 1000:.1f} ms, "
        f"p99 {latency['p99'] / 1000:.1f} ms"
    )
    print(f"trivial endpoint {trivial_rps:.0f} req/s: downloads are {rps / trivial_rps:.1%} of it")
    print(f"audit: {json.dumps(checks)}")
    met = rps >= TARGET_RPS and over_grants == 0 and figures["other"] == 0
    print(f"target: >= {TARGET_RPS} req/s and zero over-grants: {'met' if met else 'NOT MET'}")
    write_results(
        "downloads",
        {
            "args": vars(args),
            "rps": rps,
            "trivial_rps": trivial_rps,
            "wrk": figures,
            "audit": checks,
            "met": met,
        },
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
