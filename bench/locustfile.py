"""The traffic of bench/load.py: Locust users sending the realistic mix to two app processes.

Run by bench/load.py, which writes the plan (request paths, tokens, addresses, the two
servers) to the JSON file named by BENCH_LOAD_PLAN and reads back the figures this
module writes, at exit, to the file named in the plan. Not meant to be run alone.

Each user is pinned to one of the two servers in turn, as a load balancer would
spread connections, and passes the client's address in X-Forwarded-For (the servers
trust one proxy): anonymous traffic comes from many addresses, as it would in
production, instead of all from 127.0.0.1.

The mix, in request weights: 35 company search, 35 logo search (the distinct paths
of bench/mix.py, none sent twice), 8 company detail, 7 logo detail, 10 download,
5 palettes (list, create, change, delete with write:palettes tokens).

Answers the contract gives under a limit, 429 DOWNLOAD_LIMIT_REACHED on a download
and 409 PALETTE_LIMIT on a palette creation, are successes here, counted apart:
anything else outside 2xx is a failure.
"""

import itertools
import json
import os
import random
from collections import Counter
from pathlib import Path

from locust import FastHttpUser, constant, constant_throughput, events, task

PLAN = json.loads(Path(os.environ["BENCH_LOAD_PLAN"]).read_text())
HOSTS: list[str] = PLAN["hosts"]
RNG = random.Random(PLAN["seed"])

# Searches are sent once each; when a pool runs dry the rest of the run repeats it,
# and the report says so.
COMPANY_SEARCHES = iter(PLAN["company_searches"])
LOGO_SEARCHES = iter(PLAN["logo_searches"])
EXHAUSTED: Counter = Counter()

# Palette ids per token, shared by the users of this process (gevent: no preemption
# between the lookup and the pop, so two users never delete the same palette).
PALETTES: dict[str, list[str]] = {token: list(ids) for token, ids in PLAN["palettes"].items()}

# (endpoint name, HTTP status, error code) -> requests.
OUTCOMES: Counter = Counter()
_host_turn = itertools.count()

LIMIT_ANSWERS = {
    ("POST /logos/{id}/download", 429, "DOWNLOAD_LIMIT_REACHED"),
    ("POST /palettes", 409, "PALETTE_LIMIT"),
}


def _next_search(pool, name: str, fallback: list[str]) -> str:
    try:
        return next(pool)
    except StopIteration:
        EXHAUSTED[name] += 1
        return RNG.choice(fallback)


class Client(FastHttpUser):
    host = HOSTS[0]
    wait_time = (
        constant_throughput(PLAN["rate_per_user"]) if PLAN["rate_per_user"] > 0 else constant(0)
    )

    def on_start(self) -> None:
        self.base = HOSTS[next(_host_turn) % len(HOSTS)]

    # -- sending ----------------------------------------------------------------------

    def anonymous_or_token(self, token_share: float) -> dict[str, str]:
        if RNG.random() < token_share:
            return {"Authorization": f"Bearer {RNG.choice(PLAN['read_tokens'])}"}
        return {"X-Forwarded-For": RNG.choice(PLAN["addresses"])}

    def send(
        self,
        method: str,
        path: str,
        name: str,
        headers: dict[str, str],
        body: dict | None = None,
    ) -> dict | None:
        """The request under `name`; its JSON body, or None."""
        with self.client.request(
            method,
            self.base + path,
            name=name,
            headers={"Accept": "application/json", **headers},
            json=body,
            catch_response=True,
        ) as response:
            status = response.status_code or 0
            document = None
            # Parsing every search result would cost the client more CPU than the
            # servers can spare on a shared box: only errors and created palettes.
            if (status >= 400 or name == "POST /palettes") and response.content:
                try:
                    document = json.loads(response.content)
                except ValueError:
                    document = None
            code = document.get("error") if status >= 400 and isinstance(document, dict) else None
            OUTCOMES[(name, status, code)] += 1
            if 200 <= status < 300 or (name, status, code) in LIMIT_ANSWERS:
                response.success()
            else:
                response.failure(f"{status} {code or ''}".strip())
            return document

    # -- the mix ----------------------------------------------------------------------

    @task(35)
    def company_search(self) -> None:
        path = _next_search(COMPANY_SEARCHES, "company", PLAN["company_searches"])
        self.send("GET", path, "GET /companies?q", self.anonymous_or_token(0.2))

    @task(35)
    def logo_search(self) -> None:
        path = _next_search(LOGO_SEARCHES, "logo", PLAN["logo_searches"])
        self.send("GET", path, "GET /logos?q", self.anonymous_or_token(0.2))

    @task(8)
    def company_detail(self) -> None:
        slug = RNG.choice(PLAN["company_slugs"])
        self.send(
            "GET",
            f"/v1/public/companies/{slug}",
            "GET /companies/{slug}",
            self.anonymous_or_token(0.2),
        )

    @task(7)
    def logo_detail(self) -> None:
        ref = RNG.choice(PLAN["logo_refs"])
        self.send("GET", f"/v1/public/logos/{ref}", "GET /logos/{id}", self.anonymous_or_token(0.2))

    @task(10)
    def download(self) -> None:
        # A third each: anonymous addresses (3 per 24 h), FREE (5) and PRO (unlimited).
        who = RNG.random()
        if who < 1 / 3:
            headers = {"X-Forwarded-For": RNG.choice(PLAN["download_addresses"])}
        elif who < 2 / 3:
            headers = {"Authorization": f"Bearer {RNG.choice(PLAN['download_free_tokens'])}"}
        else:
            headers = {"Authorization": f"Bearer {RNG.choice(PLAN['pro_tokens'])}"}
        logo = RNG.choice(PLAN["download_logos"])
        self.send(
            "POST",
            f"/v1/public/logos/{logo}/download",
            "POST /logos/{id}/download",
            headers,
            {"format": RNG.choice(["svg", "SVG"])},
        )

    @task(5)
    def palettes(self) -> None:
        token = RNG.choice(list(PALETTES))
        headers = {"Authorization": f"Bearer {token}"}
        owned = PALETTES[token]
        action = RNG.choices(["list", "create", "change", "delete"], [40, 35, 15, 10])[0]
        if action == "change" and owned:
            # Out of the list while in flight: no other user deletes it meanwhile.
            palette = owned.pop(RNG.randrange(len(owned)))
            body = {"name": f"Changed {RNG.randrange(10**6)}", "isPublic": RNG.random() < 0.5}
            self.send(
                "PATCH", f"/v1/public/palettes/{palette}", "PATCH /palettes/{id}", headers, body
            )
            owned.append(palette)
        elif action == "delete" and owned:
            palette = owned.pop(RNG.randrange(len(owned)))
            self.send("DELETE", f"/v1/public/palettes/{palette}", "DELETE /palettes/{id}", headers)
        elif action in ("create", "change", "delete"):
            colors = [f"#{RNG.randrange(16**6):06X}" for _ in range(RNG.randint(2, 6))]
            body = {"type": "PALETTE", "name": f"Load {RNG.randrange(10**6)}", "colors": colors}
            created = self.send("POST", "/v1/public/palettes", "POST /palettes", headers, body)
            if created and "data" in created:
                owned.append(created["data"]["id"])
        else:
            page = RNG.choices([1, 2, 3], [0.7, 0.2, 0.1])[0]
            self.send("GET", f"/v1/public/palettes?page={page}", "GET /palettes", headers)


@events.test_start.add_listener
def mark_start(**_kwargs) -> None:
    # bench/load.py measures CPU between these two markers, without Locust's own start.
    Path(PLAN["started_file"]).write_text("{}")


@events.test_stop.add_listener
def mark_stop(**_kwargs) -> None:
    Path(PLAN["stopped_file"]).write_text("{}")


@events.quitting.add_listener
def write_figures(environment, **_kwargs) -> None:
    """Per endpoint and in total: counts, failures, percentiles; and the outcomes."""

    def entry(stats) -> dict:
        return {
            "requests": stats.num_requests,
            "failures": stats.num_failures,
            "rps": stats.total_rps,
            "mean_ms": stats.avg_response_time,
            "p50_ms": stats.get_response_time_percentile(0.50),
            "p95_ms": stats.get_response_time_percentile(0.95),
            "p99_ms": stats.get_response_time_percentile(0.99),
            "max_ms": stats.max_response_time,
        }

    stats = environment.stats
    figures = {
        "seconds": stats.total.last_request_timestamp - stats.total.start_time,
        "total": entry(stats.total),
        "endpoints": {name: entry(value) for (name, _method), value in stats.entries.items()},
        "outcomes": [
            {"endpoint": name, "status": status, "error": code, "requests": count}
            for (name, status, code), count in sorted(OUTCOMES.items(), key=str)
        ],
        "search_pools_exhausted": dict(EXHAUSTED),
    }
    Path(PLAN["figures_file"]).write_text(json.dumps(figures, indent=2))
