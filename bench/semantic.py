"""Related companies (directory/search/related.py, embeddings.py): embedding, HTTP latency, the
index.

Usage (from the project root, with the project venv):

    .venv/bin/python bench/semantic.py [--phases embed,http,index] [--companies 100000]
        [--vectors 1000000] [--requests 300] [--rankings index,exact] [--cold]

Phases:

* embed: throughput of the default backend on 10,000 company texts (the bench
  catalogue's names, sector and province, and an "about" sentence), in batches as
  `embed_companies` sends them; wall and CPU time.
* http: its own database `logodir_semantic` on the project-local cluster, loaded with
  --companies synthetic companies by bench/catalogue.py, embedded by `embed_companies`
  (timed: that is the command's real throughput, database writes included), then
  served by gunicorn (2 sync workers, DEBUG=0). One client, one request at a time,
  a new connection each: GET /v1/public/companies?q=...&related=true with terms never
  sent before (so every query is embedded: the query cache's worst case), and the same
  terms without related=true for comparison, each request followed by one to the
  trivial endpoint (/bench/trivial), the yardstick of the same run; and the CPU
  time gunicorn and PostgreSQL spent per request (with its trivial one), which the load
  of a shared machine hardly moves. Twice: with the
  approximate index (the default above EMBEDDING_INDEX_MIN_COMPANIES) and with exact
  ranking (--rankings picks one or both). The first
  related=true requests after gunicorn starts are timed apart: each worker loads the
  model and the vectors before it accepts a request (config/wsgi.py), so they should
  cost what the others do. The database is read into memory first (pg_prewarm), as
  bench/search.py does; --cold leaves that out, to see what the first run after
  PostgreSQL starts pays.
  Target: related=true p95 under 40 ms end to end.
* index: --vectors synthetic unit vectors (512 dimensions, clustered), an f16 HNSW index
  built by directory.search.embeddings.index_build, then opened memory-mapped in a fresh process
  the way a worker does; directory.search.related._nearest timed without and with a filter
  (the vector part of a request), recall@10 against exact ranking, and the worker's
  memory (RSS, and PSS, which splits the shared mapping between processes).
  Target: vector part p95 under 20 ms at 1,000,000 vectors.

Output: a summary on stdout; the figures, the machine, its load and the date in
bench/results/semantic-<date>.json.
"""

import argparse
import contextlib
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import catalogue
from bench.common import (
    RESULTS,
    ROOT,
    VENV_BIN,
    django_env,
    free_port,
    gunicorn,
    manage,
    start_servers,
    write_results,
)
from bench.search import CpuMonitor
from bench.search_db import prewarm

DATABASE = "logodir_semantic"
INDEX_DIR = ROOT / ".local" / "bench-semantic"
DIMENSION = 512

TOPICS = [
    "banco",
    "bank",
    "seguros",
    "insurance",
    "café",
    "coffee",
    "cafeteria",
    "supermercado",
    "grocery",
    "telefonía",
    "mobile operator",
    "fibra",
    "hotel",
    "aerolinea",
    "vuelos",
    "cerveza",
    "beer",
    "vino",
    "ropa",
    "clothing",
    "zapatos",
    "abogados",
    "law firm",
    "dentista",
    "clinica",
    "hospital",
    "farmacia",
    "colegio",
    "universidad",
    "academia",
    "constructora",
    "inmobiliaria",
    "alquiler de pisos",
    "gasolina",
    "electricidad",
    "energia solar",
    "taller mecanico",
    "concesionario",
    "coches",
    "transporte",
    "mudanzas",
    "logistica",
    "panaderia",
    "carniceria",
    "pescaderia",
    "frutas",
    "restaurante",
    "pizza",
    "peluqueria",
    "gimnasio",
    "club de futbol",
    "periodico",
    "radio",
    "television",
    "software",
    "informatica",
    "consultoria",
    "asesoria fiscal",
    "imprenta",
    "muebles",
    "ferreteria",
    "jugueteria",
    "libreria",
    "floristeria",
    "veterinario",
    "agencia de viajes",
]
PLACES = [
    "Madrid",
    "Barcelona",
    "Sevilla",
    "Valencia",
    "Bilbao",
    "Malaga",
    "Zaragoza",
    "Murcia",
    "Palma",
    "Granada",
    "Cadiz",
    "Oviedo",
    "Santander",
    "Vigo",
    "Coruña",
    "Leon",
    "Salamanca",
    "Toledo",
    "Almeria",
    "Huelva",
    "Cordoba",
    "Jaen",
    "Burgos",
    "Soria",
    "Teruel",
    "Lleida",
    "Girona",
    "Tarragona",
    "Castellon",
    "Alicante",
    "Albacete",
    "Cuenca",
    "Badajoz",
    "Caceres",
]
ABOUTS = (
    "Empresa familiar con más de veinte años de experiencia.",
    "Servicio a particulares y empresas en toda la provincia.",
    "Líder regional en su sector, con tiendas propias.",
    "A family business serving customers since 1990.",
    "",
)


def fresh_terms(count: int, seed: int) -> list[str]:
    """Distinct terms, each embedded for the first time when sent."""
    rng = random.Random(seed)
    terms = {f"{topic} {place}" for topic in TOPICS for place in PLACES}
    terms = sorted(terms)
    rng.shuffle(terms)
    return terms[:count]


def percentiles(values: list[float]) -> dict:
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)

    return {
        "n": len(ordered),
        "p50": at(0.5),
        "p95": at(0.95),
        "p99": at(0.99),
        "mean": round(statistics.fmean(ordered), 2),
    }


def loadavg() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


# -- embed -------------------------------------------------------------------------------


def phase_embed(count: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    from directory.search import embeddings

    rng = random.Random(7)
    texts = [
        embeddings.company_text(
            name=f"{topic.title()} {place} {n}",
            alternative_names=[],
            sector=rng.choice(catalogue.SECTORS)[1],
            province=place,
            about=rng.choice(ABOUTS),
        )
        for n, (topic, place) in enumerate(
            (rng.choice(TOPICS), rng.choice(PLACES)) for _ in range(count)
        )
    ]
    print(f"==> embedding {count:,} company texts (load {loadavg()})")
    started = time.perf_counter()
    model = embeddings.UniversalSentenceEncoder()
    loaded = time.perf_counter() - started
    wall, cpu = time.perf_counter(), time.process_time()
    for start in range(0, count, embeddings.EMBED_BATCH):
        model.embed(texts[start : start + embeddings.EMBED_BATCH])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    result = {
        "texts": count,
        "model_load_s": round(loaded, 2),
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "texts_per_s": round(count / wall, 1),
        "cpu_ms_per_text": round(1000 * cpu / count, 2),
        "load_after": loadavg(),
    }
    print(f"    {result}")
    return result


# -- http --------------------------------------------------------------------------------


def fetch(port: int, path: str) -> tuple[float, dict]:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    elapsed = 1000 * (time.perf_counter() - started)
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"{path}: HTTP {response.status} {body[:200]!r}")
    return elapsed, json.loads(body)


TRIVIAL_PATH = "/bench/trivial"  # bench/urls.py: the yardstick of the same run


def run_requests(port: int, terms: list[str], related: bool) -> tuple[dict, dict]:
    """Each term's request, each followed by one to the trivial endpoint, so that both see
    the same load on this shared machine."""
    timings, trivial, sizes = [], [], []
    for term in terms:
        params = {"q": term, **({"related": "true"} if related else {})}
        elapsed, body = fetch(port, "/v1/public/companies?" + urlencode(params))
        timings.append(elapsed)
        sizes.append(len(body.get("related", [])))
        trivial.append(fetch(port, TRIVIAL_PATH)[0])
    return percentiles(timings), {
        "trivial": percentiles(trivial),
        "related_mean": round(statistics.fmean(sizes), 2),
        "related_empty": sum(size == 0 for size in sizes),
    }


def _log_lines(log: Path) -> list[dict]:
    lines = []
    for line in log.read_text(errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            lines.append(json.loads(line))
    return lines


def wait_for_warm_up(log: Path, workers: int, timeout: float = 300) -> list[int]:
    """How long each worker's warm-up took (directory.search.related.warm_up logs it), once all
    of them have logged it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [
            int(line["message"].split()[-2])
            for line in _log_lines(log)
            if line.get("message", "").startswith("search warmed up in")
        ]
        if len(found) >= workers:
            return found
        time.sleep(0.2)
    raise RuntimeError(f"the workers did not log their warm-up within {timeout} s: see {log}")


def request_durations(log: Path) -> list[float]:
    """The server's time for each company request so far, in the order it logged them."""
    return [
        line["duration_ms"]
        for line in _log_lines(log)
        if "duration_ms" in line and line.get("path") != TRIVIAL_PATH
    ]


def phase_http(companies: int, requests: int, rankings: list[str], *, cold: bool) -> dict:
    import psycopg

    url = start_servers(DATABASE)
    port = free_port()
    env = django_env(
        database_url=url, redis_db=6, port=port, EMBEDDING_INDEX_DIR=str(INDEX_DIR), DEBUG="0"
    )
    print("==> manage.py migrate")
    # Also applies the SQL files whose text changed (docs/sql.md): the database measured
    # holds the checkout's functions, whatever commit migrated it before.
    manage(env, "migrate", "--noinput", "-v", "0")
    with psycopg.connect(url, autocommit=True) as conn:
        if catalogue.company_count(conn) != companies:
            print(f"==> loading {companies:,} synthetic companies")
            catalogue.load(conn, companies, seed=11)
        if not cold:
            # As bench/search.py does: the first run after PostgreSQL starts otherwise
            # reads what requests touch from the disk (docs/performance.md).
            print("==> pg_prewarm")
            prewarm(conn)
    print(f"==> embed_companies (load {loadavg()})")
    started = time.perf_counter()
    summary = manage(env, "embed_companies")
    embed_seconds = time.perf_counter() - started
    print(f"    {summary} [{embed_seconds:.0f} s]")
    result = {
        "companies": companies,
        "embed_companies": summary,
        "embed_companies_s": round(embed_seconds, 1),
        "prewarmed": not cold,
    }
    terms = fresh_terms(3 * requests + 60, seed=3)
    for name, extra in (
        ("index", {}),
        ("exact", {"EMBEDDING_INDEX_MIN_COMPANIES": str(companies + 1)}),
    ):
        if name not in rankings:
            continue
        run_env = {**env, **extra}
        offset = {"index": 0, "exact": requests}[name]
        log = RESULTS / f"semantic-{name}-gunicorn.log"
        RESULTS.mkdir(parents=True, exist_ok=True)
        log.unlink(missing_ok=True)
        with gunicorn(run_env, port, workers=2, log=log) as server:
            monitor = CpuMonitor(DATABASE)
            monitor.gunicorn_pid = server.pid
            # The first requests after the start, once both workers say they are ready.
            warm_ups = wait_for_warm_up(log, workers=2)
            first, _ = run_requests(port, terms[-60:-50], related=True)
            first_server = [round(ms, 1) for ms in request_durations(log)[:10]]
            for term in terms[-50:]:
                fetch(port, "/v1/public/companies?" + urlencode({"q": term, "related": "1"}))
            chosen = terms[offset : offset + requests]
            print(f"==> {name}: {requests} related=true requests (load {loadavg()})")
            with monitor.measure() as related_load:
                with_related, sizes = run_requests(port, chosen, related=True)
            with monitor.measure() as plain_load:
                plain, _ = run_requests(port, terms[2 * requests : 3 * requests], related=False)
            # CPU that gunicorn and PostgreSQL spent per request (with its trivial request):
            # unlike latency, it hardly moves with the load of the shared machine.
            cpu = {
                kind: round(load.server * load.wall * 1000 / requests, 2)
                for kind, (load,) in (("related", related_load), ("plain", plain_load))
            }
            result[name] = {
                "worker_warm_up_ms": warm_ups,
                "first_ten_related_after_start": first,
                "first_ten_related_after_start_server": first_server,
                "related": with_related,
                "plain": plain,
                "server_cpu_ms": cpu,
                **sizes,
                "worker_rss_mb": worker_rss(port),
                "load_after": loadavg(),
            }
            print(f"    workers warmed up in {warm_ups} ms")
            print(f"    first ten after the start {first}, in the server {first_server}")
            print(f"    related {with_related}\n    plain   {plain}\n    {sizes}")
            print(f"    server CPU per request, ms: {cpu}")
    return result


def worker_rss(port: int) -> list[float]:
    """Resident memory of the gunicorn workers serving `port`, in MB."""
    found = []
    for status in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            command = status.read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "gunicorn" in command and f":{port}" in command:
            pid = status.parent.name
            text = (status.parent / "status").read_text()
            rss = next(line for line in text.splitlines() if line.startswith("VmRSS"))
            found.append((pid, int(rss.split()[1]) / 1024))
    found.sort()
    return [round(rss, 1) for _, rss in found[1:]]  # the first pid is the master


# -- index -------------------------------------------------------------------------------


def synthetic_vectors(count: int, seed: int):
    import numpy as np

    rng = np.random.default_rng(seed)
    centroids = rng.standard_normal((max(count // 200, 1), DIMENSION), dtype=np.float32)
    vectors = np.empty((count, DIMENSION), dtype=np.float32)
    for start in range(0, count, 100_000):
        stop = min(count, start + 100_000)
        chosen = rng.integers(0, len(centroids), stop - start)
        noise = rng.standard_normal((stop - start, DIMENSION), dtype=np.float32)
        block = centroids[chosen] + 0.8 * noise
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        vectors[start:stop] = block
    return vectors


def phase_index(count: int, queries: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    import numpy as np

    from directory.search import embeddings

    INDEX_DIR.mkdir(parents=True, exist_ok=True)
    path = INDEX_DIR / f"synthetic-{count}.usearch"
    vectors = synthetic_vectors(count, seed=5)
    keys = np.arange(1, count + 1, dtype=np.int64)
    rng = np.random.default_rng(9)
    probes = vectors[rng.integers(0, count, queries)] + 0.3 * rng.standard_normal(
        (queries, DIMENSION), dtype=np.float32
    )
    probes /= np.linalg.norm(probes, axis=1, keepdims=True)
    probe_file = INDEX_DIR / "probes.npy"
    np.save(probe_file, probes)
    exact = []
    for probe in probes[:50]:
        scores = vectors @ probe
        exact.append(keys[np.argpartition(-scores, 10)[:10]].tolist())
    (INDEX_DIR / "exact.json").write_text(json.dumps(exact))
    result = {"vectors": count, "dimension": DIMENSION}
    if path.exists() and json.loads(path.with_suffix(".json").read_text())["count"] == count:
        print(f"==> reusing the index at {path}")
        result["build_s"] = "reused"
    else:
        print(f"==> building an f16 HNSW index of {count:,} vectors (load {loadavg()})")
        started = time.perf_counter()
        embeddings.index_build(keys, vectors, path, version="synthetic")
        result["build_s"] = round(time.perf_counter() - started, 1)
        result["load_during_build"] = loadavg()
        print(f"    {result['build_s']} s, file {path.stat().st_size / 2**20:.0f} MB")
    result["file_mb"] = round(path.stat().st_size / 2**20, 1)
    del vectors
    worker = subprocess.run(
        [str(VENV_BIN / "python"), __file__, "--worker", str(path), "--vectors", str(count)],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
    )
    if worker.returncode != 0:
        raise SystemExit(worker.stderr)
    result.update(json.loads(worker.stdout.strip().splitlines()[-1]))
    print(f"    {result}")
    return result


def memory() -> dict:
    status = Path("/proc/self/status").read_text()
    rss = next(line for line in status.splitlines() if line.startswith("VmRSS"))
    rollup = Path("/proc/self/smaps_rollup").read_text()
    pss = next(line for line in rollup.splitlines() if line.startswith("Pss:"))
    return {"rss_mb": int(rss.split()[1]) / 1024, "pss_mb": int(pss.split()[1]) / 1024}


def index_worker(path: str, count: int) -> None:
    """A worker's view: the index memory-mapped, per-key filter arrays, timed searches."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    import numpy as np
    from usearch.index import Index

    from directory.search import embeddings, related

    before = memory()
    opened = time.perf_counter()
    index = Index.restore(path, view=True)
    index.expansion_search = embeddings.INDEX_EXPANSION_SEARCH
    opened = time.perf_counter() - opened
    rng = np.random.default_rng(1)
    keys = np.arange(1, count + 1, dtype=np.int64)
    state = related._Vectors(
        version="synthetic",
        index_stamp=None,
        keys=keys,
        sectors=rng.integers(1, 32, count),
        provinces=rng.integers(0, 52, count).astype(np.int32),
        province_codes={},
        matrix=None,
        index=index,
        delta_keys=np.empty(0, dtype=np.int64),
        delta_matrix=np.empty((0, DIMENSION), dtype=np.float32),
    )
    probes = np.load(Path(path).parent / "probes.npy")
    exact = json.loads((Path(path).parent / "exact.json").read_text())
    want = related.POOL
    plain, filtered, recalls = [], [], []
    for number, probe in enumerate(probes):
        started = time.perf_counter()
        found = [key for _, key in related._nearest(state, probe, None, want)]
        plain.append(1000 * (time.perf_counter() - started))
        if number < len(exact):
            recalls.append(len(set(found[:10]) & set(exact[number])) / 10)
        mask = state.sectors == (number % 31 + 1)  # one sector of 31
        started = time.perf_counter()
        related._nearest(state, probe, mask, want)
        filtered.append(1000 * (time.perf_counter() - started))
    after = memory()
    print(
        json.dumps(
            {
                "open_ms": round(1000 * opened, 1),
                "search": percentiles(plain[10:]),
                "search_one_sector_filter": percentiles(filtered[10:]),
                "recall_at_10": round(statistics.fmean(recalls), 3),
                "worker_before": before,
                "worker_after": after,
                "load_after": loadavg(),
            }
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phases", default="embed,http,index")
    parser.add_argument("--companies", type=int, default=100_000)
    parser.add_argument("--texts", type=int, default=10_000)
    parser.add_argument("--vectors", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--rankings", default="index,exact")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="http: no pg_prewarm first (what the first run after PostgreSQL starts pays)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        index_worker(args.worker, args.vectors)
        return 0
    phases = args.phases.split(",")
    result: dict = {"load_before": loadavg(), "phases": phases}
    failed = False
    if "embed" in phases:
        result["embed"] = phase_embed(args.texts)
    if "http" in phases:
        result["http"] = phase_http(
            args.companies, args.requests, args.rankings.split(","), cold=args.cold
        )
        failed |= any(
            result["http"][name]["related"]["p95"] > 40
            for name in ("index", "exact")
            if name in result["http"]
        )
    if "index" in phases:
        result["index"] = phase_index(args.vectors, args.queries)
        failed |= result["index"]["search"]["p95"] >= 20
    result["load_after"] = loadavg()
    write_results("semantic", result)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
