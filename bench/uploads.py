"""Peak memory of the app while 4 clients upload 5 MiB proposal files at once.

Usage (from the project root, with the project venv):

    .venv/bin/python bench/uploads.py [--rounds 5] [--clients 4]

It starts the project-local PostgreSQL (127.0.0.1:54320, database
`logodir_bench_uploads`) and a Redis of its own (127.0.0.1:56382) through
scripts/lib.sh, makes one write:proposals token per upload (an account may propose
10 a day), and serves the project with gunicorn (2 sync workers, DEBUG off, files on
local storage under .local/bench-media). Each round, --clients threads POST a
different, incompressible PNG of exactly 5 MiB (5,242,880 bytes: the largest the
API accepts) to /v1/public/proposals at the same moment, while the resident memory
(VmRSS) of every gunicorn process is sampled every 10 ms.

Reported: the idle RSS of the workers after a warm-up request, the peak during the
uploads, and the peak above idle, per worker and summed. Target (issue 5): under
64 MiB above idle.

Then the cost of a refusal at the daily limit (issue 28): one account is brought to
its 10 proposals of the day, and --limit-requests times each, one after the other, it
POSTs a small PNG (64 x 64) and a PNG of about 200 KB that declares 8,000 x 8,000
pixels (256 MB once decoded); both must be refused with 429 PROPOSAL_LIMIT_REACHED
before the upload is read, so at the same cost. GET /v1/public/me with the same
token is timed alongside as the trivial request of the same run. Reported: the median
and p95 of each, in ms. Results: bench/results/uploads-<date>.json.
"""

import argparse
import contextlib
import http.client
import io
import random
import struct
import sys
import threading
import time
import uuid
import zlib
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    django_env,
    free_port,
    gunicorn,
    manage,
    percentiles,
    start_servers,
    write_results,
)

DATABASE = "logodir_bench_uploads"
FILE_BYTES = 5 * 1024 * 1024
TARGET_MIB = 64


def noise_png(seed: int) -> bytes:
    """An incompressible PNG padded to exactly FILE_BYTES with a private chunk."""
    rng = random.Random(seed)
    side = 1100  # 1100 x 1100 RGB noise: about 3.6 MB of PNG
    image = Image.frombytes("RGB", (side, side), rng.randbytes(side * side * 3))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    png = out.getvalue()
    iend = png.rindex(b"IEND") - 4
    padding = FILE_BYTES - len(png) - 12
    data = b"\0" * padding
    chunk = (
        struct.pack(">I", padding) + b"ppAd" + data + struct.pack(">I", zlib.crc32(b"ppAd" + data))
    )
    result = png[:iend] + chunk + png[iend:]
    assert len(result) == FILE_BYTES
    return result


def multipart(data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="companyName"\r\n\r\nBench\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n'
        "Content-Type: image/png\r\n\r\n"
    ).encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), boundary


def upload(port: int, token: str, body: bytes, boundary: str, statuses: list) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(
            "POST",
            "/v1/public/proposals",
            body=body,
            headers={
                "Authorization": f"Bearer {token}",
                "Content-Type": f"multipart/form-data; boundary={boundary}",
            },
        )
        response = connection.getresponse()
        response.read()
        statuses.append(response.status)
    finally:
        connection.close()


def declared_8000_png() -> bytes:
    """A PNG of one colour, 8,000 x 8,000: small on the wire, 256 MB decoded (RGBA)."""
    out = io.BytesIO()
    Image.new("RGB", (8000, 8000), (200, 16, 46)).save(out, format="PNG", compress_level=9)
    return out.getvalue()


def timed(port: int, method: str, path: str, token: str, body=None, boundary=None):
    """(milliseconds, status) of one request on a new connection."""
    headers = {"Authorization": f"Bearer {token}"}
    if boundary is not None:
        headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        started = time.perf_counter()
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return (time.perf_counter() - started) * 1000, response.status
    finally:
        connection.close()


def refusal_costs(port: int, token: str, small: bytes, requests: int) -> dict:
    """Per kind: the timings and statuses of an account at its daily limit."""
    kinds = {
        "small_png_429": ("POST", "/v1/public/proposals", *multipart(small)),
        "declared_8000_png_429": ("POST", "/v1/public/proposals", *multipart(declared_8000_png())),
        "trivial_me": ("GET", "/v1/public/me", None, None),
    }
    found: dict[str, dict] = {}
    for name, (method, path, body, boundary) in kinds.items():
        runs = [timed(port, method, path, token, body, boundary) for _ in range(requests)]
        found[name] = {
            "statuses": sorted({status for _, status in runs}),
            "body_bytes": len(body or b""),
            **percentiles([ms for ms, _ in runs]),
        }
    return found


def rss_kib(pid: int) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def workers(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children")
    return [int(pid) for pid in children.read_text().split()] if children.exists() else []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--limit-requests", type=int, default=30)
    args = parser.parse_args()

    database_url = start_servers(DATABASE)
    port = free_port()
    env = django_env(database_url=database_url, redis_db=2, port=port, BENCH_RATE_LIMITS="count")
    manage(env, "migrate", "--noinput", "-v", "0")
    run = uuid.uuid4().hex[:8]
    tokens = [
        manage(env, "issue_token", f"u{run}-{n}@bench.invalid", "--scopes", "write:proposals")
        for n in range(args.rounds * args.clients + 1)
    ]
    files = [multipart(noise_png(seed)) for seed in range(args.clients)]
    with gunicorn(env, port, workers=2) as process:
        # Warm both workers with a small upload each (imports, connections), then measure.
        small = io.BytesIO()
        Image.new("RGB", (64, 64), (200, 16, 46)).save(small, format="PNG")
        for _ in range(4):
            upload(port, tokens[-1], *multipart(small.getvalue()), [])
        time.sleep(1)
        pids = workers(process.pid)
        idle = {pid: rss_kib(pid) for pid in pids}
        peak = dict(idle)
        statuses: list[int] = []
        sampling = True

        def sample() -> None:
            while sampling:
                for pid in pids:
                    peak[pid] = max(peak[pid], rss_kib(pid))
                time.sleep(0.01)

        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.perf_counter()
        for round_index in range(args.rounds):
            threads = [
                threading.Thread(
                    target=upload,
                    args=(port, tokens[round_index * args.clients + n], *files[n], statuses),
                )
                for n in range(args.clients)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        elapsed = time.perf_counter() - started
        sampling = False
        sampler.join()

        # The warm-up account proposed 4; 6 more bring it to its daily 10.
        for _ in range(6):
            upload(port, tokens[-1], *multipart(small.getvalue()), [])
        costs = refusal_costs(port, tokens[-1], small.getvalue(), args.limit_requests)

    above = {pid: (peak[pid] - idle[pid]) / 1024 for pid in pids}
    print(f"\nuploads: {len(statuses)} ({sorted(set(statuses))}) in {elapsed:.1f} s")
    for pid in pids:
        print(
            f"worker {pid}: idle {idle[pid] / 1024:.1f} MiB, peak {peak[pid] / 1024:.1f} MiB, "
            f"above idle {above[pid]:.1f} MiB"
        )
    total_above = sum(above.values())
    print(f"all workers: {total_above:.1f} MiB above idle (target under {TARGET_MIB} MiB)")
    print("\nan account at its daily limit (ms, one request at a time):")
    for name, cost in costs.items():
        print(
            f"  {name}: {cost['statuses']} median {cost['p50']:.1f} p95 {cost['p95']:.1f}"
            f" ({cost['body_bytes']:,} bytes sent)"
        )
    refused_alike = (
        costs["small_png_429"]["statuses"] == [429]
        and costs["declared_8000_png_429"]["statuses"] == [429]
        and costs["declared_8000_png_429"]["p50"] < 2 * costs["small_png_429"]["p50"] + 5
    )
    met = total_above < TARGET_MIB and set(statuses) == {201} and refused_alike
    write_results(
        "uploads",
        {
            "args": vars(args),
            "statuses": statuses,
            "idle_kib": idle,
            "peak_kib": peak,
            "above_idle_mib": above,
            "total_above_idle_mib": total_above,
            "at_daily_limit": costs,
            "met": met,
        },
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
