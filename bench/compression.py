"""Bytes and time that compression saves on GET /v1/public/domains, under gunicorn.

Usage (from the project root, with the project venv):

    .venv/bin/python bench/compression.py [--companies 100000] [--rounds 15]

Database: BENCH_DATABASE_URL when set (a loopback server), else the project-local
cluster (127.0.0.1:54320, database `logodir_bench_compression`) through scripts/lib.sh.
Redis: REDIS_URL when set, else the benchmarks' own (127.0.0.1:56382, database 4);
that database is emptied first, so the list is built from the catalogue loaded. Unless the
database already holds exactly N companies it loads N synthetic ones (bench/catalogue.py,
which empties the catalogue of that database), then gives every company without a
website `https://www.<slug>.es`, so the domain list has one entry per company.

It serves the project with gunicorn (1 sync worker, DEBUG off, rate limits off) and
asks for the list in rounds that go round the three codings, identity, gzip and
Brotli (`Accept-Encoding: br`), one request each, a new connection each, after one
warm-up request that builds the list into the cache; each round also asks for the
trivial endpoint (/bench/trivial, bench/urls.py), the yardstick of the same run. Per
coding: the bytes of the body, the time from connect to the first byte and to the last
on loopback, the worker's CPU time per request (from /proc), the client's time to decode
the body, and a revalidation with the answer's ETag (a 304). Loopback moves 10 MB in a
few milliseconds, so what a client on a real link gains is shown for a few link speeds
as: time to the last byte on loopback + bytes / speed + decoding.

Output: a table on stdout and bench/results/compression-<date>.json with the commit.
Run it with nothing else on the machine (`flock /work/bench.lock` where machines are
shared): the times are wall-clock.
"""

import argparse
import gzip
import http.client
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import brotli
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import catalogue
from bench.common import (
    BENCH_REDIS_PORT,
    RESULTS,
    django_env,
    free_port,
    gunicorn,
    manage,
    start_servers,
    write_results,
)
from bench.search_db import require_loopback

DATABASE = "logodir_bench_compression"
PATH = "/v1/public/domains"
TRIVIAL_PATH = "/bench/trivial"
CODINGS = {"identity": None, "gzip": "gzip", "br": "br"}
DECODERS = {"identity": lambda body: body, "gzip": gzip.decompress, "br": brotli.decompress}
LINKS_MBIT = (10, 50, 100, 1000)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def servers() -> tuple[str, int, int]:
    """The database URL, and the Redis port and database number to use."""
    redis_url = os.environ.get("REDIS_URL")
    database_url = os.environ.get("BENCH_DATABASE_URL")
    if database_url and redis_url:
        require_loopback(redis_url)
        require_loopback(database_url)
        redis = urlsplit(redis_url)
        return database_url, redis.port or 6379, int(redis.path.strip("/") or 0)
    return start_servers(DATABASE), BENCH_REDIS_PORT, 4


def ensure_catalogue(database_url: str, companies: int) -> dict:
    with psycopg.connect(database_url, autocommit=True) as conn:
        loaded = None
        if catalogue.company_count(conn) != companies:
            print(f"==> loading {companies:,} synthetic companies")
            loaded = catalogue.load(conn, companies, seed=1)
        with conn.transaction():
            updated = conn.execute(
                "UPDATE directory_company SET website = 'https://www.' || slug || '.es'"
                " WHERE website IS NULL OR website = ''"
            ).rowcount
        if updated:
            print(f"==> gave {updated:,} companies a website")
        count = catalogue.company_count(conn)
    return {"companies": count, "loaded_seconds": loaded.seconds if loaded else None}


def worker_cpu_seconds(master: int) -> float:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    total = 0.0
    for pid in children:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


def fetch(port: int, headers: dict[str, str], path: str = PATH) -> dict:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        first = time.perf_counter()
        body = response.read()
    finally:
        connection.close()
    done = time.perf_counter()
    return {
        "status": response.status,
        "body": body,
        "etag": response.getheader("ETag"),
        "encoding": response.getheader("Content-Encoding"),
        "first_byte_ms": (first - started) * 1000,
        "last_byte_ms": (done - started) * 1000,
    }


def measure(port: int, master: int, rounds: int) -> tuple[dict, dict]:
    samples: dict[str, list[dict]] = {coding: [] for coding in CODINGS}
    trivial: list[dict] = []
    for _ in range(rounds):
        cpu = worker_cpu_seconds(master)
        answer = fetch(port, {}, TRIVIAL_PATH)
        answer["cpu_ms"] = (worker_cpu_seconds(master) - cpu) * 1000
        assert answer["status"] == 200, answer["status"]
        trivial.append(answer)
        for coding, header in CODINGS.items():
            cpu = worker_cpu_seconds(master)
            answer = fetch(port, {"Accept-Encoding": header} if header else {})
            answer["cpu_ms"] = (worker_cpu_seconds(master) - cpu) * 1000
            assert answer["status"] == 200, answer["status"]
            assert answer["encoding"] == header, (coding, answer["encoding"])
            decoding = time.perf_counter()
            DECODERS[coding](answer["body"])
            answer["decode_ms"] = (time.perf_counter() - decoding) * 1000
            samples[coding].append(answer)
    figures = {}
    for coding, answers in samples.items():
        header = CODINGS[coding]
        revalidations = [
            fetch(
                port,
                {
                    "If-None-Match": answers[0]["etag"],
                    **({"Accept-Encoding": header} if header else {}),
                },
            )
            for _ in range(rounds)
        ]
        assert {answer["status"] for answer in revalidations} == {304}
        figures[coding] = {
            "bytes": len(answers[0]["body"]),
            "etag": answers[0]["etag"],
            "first_byte_ms": statistics.median(a["first_byte_ms"] for a in answers),
            "last_byte_ms": statistics.median(a["last_byte_ms"] for a in answers),
            # /proc counts in clock ticks (10 ms): the mean over every round.
            "cpu_ms": statistics.fmean(a["cpu_ms"] for a in answers),
            "decode_ms": statistics.median(a["decode_ms"] for a in answers),
            "revalidate_ms": statistics.median(a["last_byte_ms"] for a in revalidations),
        }
    for figure in figures.values():
        figure["links"] = {
            f"{speed} Mbit/s": figure["last_byte_ms"]
            + figure["bytes"] * 8 / (speed * 1000)
            + figure["decode_ms"]
            for speed in LINKS_MBIT
        }
        figure["saved_bytes"] = figures["identity"]["bytes"] - figure["bytes"]
        figure["saved_ms"] = {
            link: figures["identity"]["links"][link] - ms for link, ms in figure["links"].items()
        }
    baseline = {
        "path": TRIVIAL_PATH,
        "last_byte_ms": statistics.median(a["last_byte_ms"] for a in trivial),
        "cpu_ms": statistics.fmean(a["cpu_ms"] for a in trivial),
    }
    return figures, baseline


def report(figures: dict, trivial: dict) -> None:
    print(
        f"\n{'coding':<9}{'bytes':>12}{'ratio':>8}{'1st byte':>10}{'last byte':>11}"
        f"{'CPU':>8}{'decode':>8}{'304':>7}   (ms: medians, CPU a mean)"
    )
    identity = figures["identity"]["bytes"]
    for coding, f in figures.items():
        print(
            f"{coding:<9}{f['bytes']:>12,}{f['bytes'] / identity:>8.1%}{f['first_byte_ms']:>10.1f}"
            f"{f['last_byte_ms']:>11.1f}{f['cpu_ms']:>8.1f}{f['decode_ms']:>8.1f}"
            f"{f['revalidate_ms']:>7.1f}"
        )
    print(
        f"\ntrivial endpoint ({TRIVIAL_PATH}), same rounds: {trivial['last_byte_ms']:.1f} ms to "
        f"the last byte, {trivial['cpu_ms']:.1f} ms CPU; /domains to its last byte: "
        + ", ".join(
            f"{coding} {f['last_byte_ms'] / trivial['last_byte_ms']:,.0f}x"
            for coding, f in figures.items()
        )
    )
    print("\ntime to a decoded list on a link of (ms; saved against identity in brackets)")
    print(f"{'coding':<9}" + "".join(f"{link:>22}" for link in figures["identity"]["links"]))
    for coding, f in figures.items():
        cells = "".join(
            f"{ms:>12.0f} ({f['saved_ms'][link]:>+6.0f})" for link, ms in f["links"].items()
        )
        print(f"{coding:<9}{cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--companies", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    database_url, redis_port, redis_db = servers()
    port = free_port()
    env = django_env(database_url=database_url, redis_db=redis_db, port=port, redis_port=redis_port)
    print("==> manage.py migrate")
    manage(env, "migrate", "--noinput", "-v", "0")
    data = ensure_catalogue(database_url, args.companies)
    subprocess.run(
        ["redis-cli", "-p", str(redis_port), "-n", str(redis_db), "FLUSHDB"],
        check=True,
        capture_output=True,
    )
    log = RESULTS / "compression-gunicorn.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with gunicorn(env, port, workers=1, log=log) as server:
        warm = fetch(port, {})
        print(f"==> first request: {warm['last_byte_ms']:.0f} ms")
        figures, trivial = measure(port, server.pid, args.rounds)
    report(figures, trivial)
    write_results(
        "compression",
        {
            "path": PATH,
            "rounds": args.rounds,
            "workers": 1,
            **data,
            "first_request_ms": warm["last_byte_ms"],
            "figures": figures,
            "trivial": trivial,
        },
    )


if __name__ == "__main__":
    main()
