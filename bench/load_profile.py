"""Where bench/load.py's requests spend their time: each endpoint in-process under cProfile.

Usage (from the project root, with the project venv; after bench/load.py has run once,
or it prepares the same database itself):

    .venv/bin/python bench/load_profile.py [--requests 200] [--top 12]

It uses bench/load.py's database (`logodir_load`), data and request plan, and sends
--requests requests of each endpoint of the mix, one at a time, through Django's test
client in this process (the whole middleware stack, rate limits counted in Redis, no
HTTP server). Per endpoint it prints the wall time and this process's CPU time per
request (their difference is mostly waiting for PostgreSQL and Redis), the share of
the mix, and the functions where cProfile saw the most time spent (tottime). The
figures under cProfile are inflated, the proportions are what matters.
"""

import argparse
import cProfile
import io
import json
import pstats
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, django_env, manage
from bench.load_data import REDIS_PORT, build_plan, ensure_database, prepare

# Endpoint -> share of the mix in bench/load.lua.
MIX = {
    "GET /companies?q": 0.35,
    "GET /logos?q": 0.35,
    "GET /companies/{slug}": 0.08,
    "GET /logos/{id}": 0.07,
    "POST /logos/{id}/download": 0.10,
    "palettes (list 40, create 35, change 15, delete 10)": 0.05,
}


def requests_of(plan: dict, count: int, rng: random.Random) -> dict[str, list[tuple]]:
    """(method, path, headers, body) per endpoint, in bench/load.lua's proportions."""

    def anonymous() -> dict[str, str]:
        return {"HTTP_X_FORWARDED_FOR": rng.choice(plan["addresses"])}

    def token(secret: str) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}

    palettes = []
    owners = list(plan["palettes"])
    for _ in range(count):
        secret = rng.choice(owners)
        owned = plan["palettes"][secret]
        action = rng.choices(["list", "create", "change", "delete"], [40, 35, 15, 10])[0]
        if action in ("change", "delete") and owned:
            palette = owned.pop(rng.randrange(len(owned)))
            if action == "change":
                owned.append(palette)
            method = "PATCH" if action == "change" else "DELETE"
            body = {"name": "Changed"} if action == "change" else None
            palettes.append((method, f"/v1/public/palettes/{palette}", token(secret), body))
        elif action == "list":
            palettes.append(("GET", "/v1/public/palettes", token(secret), None))
        else:
            body = {"type": "PALETTE", "name": "Profiled", "colors": ["#112233", "#445566"]}
            palettes.append(("POST", "/v1/public/palettes", token(secret), body))
    downloads = []
    for _ in range(count):
        who = rng.choice(["anonymous", "free", "pro"])
        headers = (
            {"HTTP_X_FORWARDED_FOR": rng.choice(plan["download_addresses"])}
            if who == "anonymous"
            else token(rng.choice(plan[f"{who}_tokens"]))
        )
        logo = rng.choice(plan["download_logos"])
        downloads.append(("POST", f"/v1/public/logos/{logo}/download", headers, {"format": "svg"}))
    return {
        "GET /companies?q": [
            ("GET", p, anonymous(), None) for p in plan["company_searches"][:count]
        ],
        "GET /logos?q": [("GET", p, anonymous(), None) for p in plan["logo_searches"][:count]],
        "GET /companies/{slug}": [
            ("GET", f"/v1/public/companies/{slug}", anonymous(), None)
            for slug in plan["company_slugs"][:count]
        ],
        "GET /logos/{id}": [
            ("GET", f"/v1/public/logos/{ref}", anonymous(), None)
            for ref in plan["logo_refs"][:count]
        ],
        "POST /logos/{id}/download": downloads,
        "palettes (list 40, create 35, change 15, delete 10)": palettes,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200, help="per endpoint (default 200)")
    parser.add_argument("--top", type=int, default=12, help="functions shown per endpoint")
    args = parser.parse_args()

    url = ensure_database()
    env = django_env(
        database_url=url,
        redis_db=0,
        port=8000,
        redis_port=REDIS_PORT,
        BENCH_RATE_LIMITS="count",
        TRUSTED_PROXY_COUNT="1",
    )
    manage(env, "migrate", "--noinput")
    prepared = prepare(env, 2000)
    plan = build_plan(url, prepared, args.requests * 2)

    import logging

    from django.test import Client

    logging.disable(logging.INFO)  # the request log would go to the terminal here
    client = Client(SERVER_NAME="127.0.0.1", HTTP_ACCEPT="application/json")
    rng = random.Random(1)
    summary = {}
    for name, requests in requests_of(plan, args.requests, rng).items():

        def send(method: str, path: str, headers: dict, body: dict | None) -> int:
            data = json.dumps(body) if body is not None else None
            kwargs = {"content_type": "application/json"} if data is not None else {}
            response = getattr(client, method.lower())(path, data, **kwargs, **headers)
            return response.status_code

        for request in requests[:10]:  # connections, caches, first imports
            send(*request)
        profile = cProfile.Profile()
        statuses: dict[int, int] = {}
        wall, cpu = time.perf_counter(), time.process_time()
        profile.enable()
        for request in requests[10:]:
            status = send(*request)
            statuses[status] = statuses.get(status, 0) + 1
        profile.disable()
        sent = len(requests) - 10
        wall_ms = (time.perf_counter() - wall) * 1000 / sent
        cpu_ms = (time.process_time() - cpu) * 1000 / sent
        summary[name] = {"wall_ms": wall_ms, "app_cpu_ms": cpu_ms, "statuses": statuses}
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("tottime").print_stats(args.top)
        print(f"\n=== {name}: {sent} requests, statuses {statuses}")
        print(f"    wall {wall_ms:.1f} ms, app CPU {cpu_ms:.1f} ms per request (under cProfile)")
        body = out.getvalue()
        print(body[body.find("   ncalls") :].rstrip())
        # The project's own functions by cumulative time: which step of ours costs what.
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(
            rf"^{re.escape(str(ROOT))}/(?!\.venv)", args.top
        )
        body = out.getvalue()
        print(body[body.find("   ncalls") :].rstrip())

    print(f"\n{'endpoint':52} {'share':>6} {'wall':>7} {'app CPU':>8} {'weighted wall':>14}")
    for name, figures in summary.items():
        print(
            f"{name:52} {MIX[name]:6.0%} {figures['wall_ms']:7.1f} {figures['app_cpu_ms']:8.1f}"
            f" {MIX[name] * figures['wall_ms']:14.2f}"
        )
    mean = sum(MIX[name] * figures["wall_ms"] for name, figures in summary.items())
    print(f"mix mean wall per request: {mean:.1f} ms (one process, under cProfile)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
