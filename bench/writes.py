"""What catalogue writes cost beside the search structures the database keeps for them.

Usage (from the project root, with the project venv), after bench/search.py has loaded
its database:

    .venv/bin/python bench/writes.py [--database-url URL] [--renames 200] [--logos 200]
        [--import-companies 10000]

Against the benchmark database (default: logodir_bench on the project-local cluster, as
bench/search.py leaves it; pass the 1,000,000-company one with --database-url), through
the code the importer and the admin run:

1. rename: a random company renamed and saved in its own transaction, committed, as the
   admin saves a company (the embedding is refreshed after the commit, outside the
   measured time: EMBEDDING_BACKEND is off here); then renamed back (measured too);
2. logo: a new logo added to a random company as its current logo, in one transaction,
   through `logo_create` as a proposal's approval adds one (then deleted, not measured);
3. import: `catalogue_import` of a JSON file that changes the name and "about" of
   --import-companies existing companies, with the default embedding backend, as
   `manage.py import_directory` runs it; then the file that changes them back.

Each rename or logo is timed from the transaction's start to its commit; the figures are
p50, p95 and max in milliseconds, and the import's seconds, each with the load average
after it (the machine is shared). Beside the wall clock, each rename and logo's CPU:
this thread's and the PostgreSQL backend's (`log_statement_stats`, as
bench/search_cpu.py reads it), which the load of a shared machine barely moves; and the
backend's part alone (`backend_cpu_*`: the rest is Django's).
Targets (issue 27): rename and new logo p95 <= 20 ms at 1,000,000 companies. Results go
to bench/results/writes-<date>.json.
"""

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import RESULTS  # noqa: E402
from bench.search_cpu import BackendCpu  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:54320/logodir_bench"
TARGET_P95_MS = 20.0


def loadavg() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--renames", type=int, default=200)
    parser.add_argument("--logos", type=int, default=200)
    parser.add_argument("--import-companies", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


BACKEND = BackendCpu()


def setup(database_url: str) -> None:
    os.environ.update(
        DEBUG="1",
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="config.settings",
        EMBEDDING_BACKEND="off",
    )
    import django
    from django.db.backends.signals import connection_created

    django.setup()
    connection_created.connect(BACKEND.connected)


def figures(spent: list[tuple[float, float, float]]) -> dict:
    cuts, cpu, backend = (
        statistics.quantiles(column, n=100, method="inclusive")
        for column in zip(*spent, strict=True)
    )
    return {
        "count": len(spent),
        "p50_ms": round(cuts[49], 2),
        "p95_ms": round(cuts[94], 2),
        "max_ms": round(max(wall for wall, _, _ in spent), 2),
        "cpu_p50_ms": round(cpu[49], 2),
        "cpu_p95_ms": round(cpu[94], 2),
        "backend_cpu_p50_ms": round(backend[49], 2),
        "backend_cpu_p95_ms": round(backend[94], 2),
        "loadavg_after": loadavg(),
    }


def timed(operation) -> tuple[float, float, float]:
    """The wall clock from the transaction's start to its commit, the CPU this thread and
    the PostgreSQL backend spent on it (bench/search_cpu.py), which the load of a shared
    machine barely moves, and the backend's part of that CPU."""
    from django.db import transaction

    BACKEND.take()
    started, cpu = time.perf_counter(), time.thread_time()
    with transaction.atomic():
        operation()
    backend = BACKEND.take()
    spent_cpu = (time.thread_time() - cpu) * 1000 + backend
    return (time.perf_counter() - started) * 1000, spent_cpu, backend


def renames(companies: list, count: int) -> dict:
    from directory.search.embeddings import company_embedding_stale

    def rename(company, name: str):
        def save():
            company.name = name
            company.save()
            company_embedding_stale(company_ids=[company.pk])

        return save

    spent = []
    for company in companies[:count]:
        original = company.name
        spent.append(timed(rename(company, f"{original} Norte")))
        spent.append(timed(rename(company, original)))
    return figures(spent)


def logos(companies: list, count: int) -> dict:
    from directory.catalogue.models import Logo
    from directory.editing.services import logo_create, logo_make_current

    spent, added = [], []
    for number, company in enumerate(companies[:count]):

        def add(company=company, number=number):
            title = f"{company.name} (nuevo)"
            logo = logo_create(
                Logo(company=company, slug=f"bench-logo-{number}", title=title), current=True
            )
            added.append(logo)

        previous = company.current_logo_id
        spent.append(timed(add))
        # Leave the catalogue as it was: the old logo current again, the new one gone.
        if previous is not None:
            logo_make_current(logo=Logo.objects.get(pk=previous))
        added[-1].delete()
    return figures(spent)


def imports(companies: list, count: int) -> dict:
    from django.test.utils import override_settings

    from directory.importing.importer import catalogue_import

    def entry(company, name: str, about: str | None) -> dict:
        return {
            "slug": company.slug,
            "name": name,
            "alternativeNames": company.alternative_names,
            "entityType": company.entity_type,
            "isVerified": company.is_verified,
            "sector": company.sector.slug if company.sector else None,
            "province": company.province,
            "about": about,
        }

    chosen = companies[:count]
    changed = [entry(c, f"{c.name} Sur", f"{c.name}: nueva dirección.") for c in chosen]
    back = [entry(c, c.name, c.about) for c in chosen]
    result = {}
    with tempfile.TemporaryDirectory() as folder, override_settings(EMBEDDING_BACKEND="use"):
        for label, entries in (("changed", changed), ("back", back)):
            path = Path(folder) / f"{label}.json"
            path.write_text(json.dumps({"companies": entries}))
            started = time.perf_counter()
            report = catalogue_import(path)
            seconds = time.perf_counter() - started
            statuses = [item.status for item in report.results]
            result[label] = {
                "seconds": round(seconds, 1),
                "updated": statuses.count("updated"),
                "failed": statuses.count("failed"),
                "loadavg_after": loadavg(),
            }
            print(
                f"    import ({label}): {count:,} companies in {seconds:.1f} s,"
                f" load average {result[label]['loadavg_after']}"
            )
    return result


def main() -> int:
    args = parse_args()
    setup(args.database_url)
    from directory.catalogue.models import Company

    total = Company.objects.count()
    loadavg_before = loadavg()
    database = args.database_url.rsplit("/", 1)[-1]
    print(f"==> {total:,} companies in {database}, load average {loadavg_before}")
    rng = random.Random(args.seed)
    ids = list(Company.objects.values_list("pk", flat=True))
    wanted = max(args.renames, args.logos, args.import_companies)
    chosen = rng.sample(ids, min(wanted, len(ids)))
    by_id = Company.objects.select_related("sector").in_bulk(chosen)
    companies = [by_id[pk] for pk in chosen]

    print(f"==> {args.renames} renames, each saved and committed, then back")
    renamed = renames(companies, args.renames)
    print(f"    {renamed}")
    print(f"==> {args.logos} new current logos")
    added = logos(companies, args.logos)
    print(f"    {added}")
    imported = {}
    if args.import_companies:  # 0: no import, nor the embedding model it loads
        print(f"==> import of {args.import_companies:,} changed companies, then back")
        imported = imports(companies, args.import_companies)

    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    RESULTS.mkdir(parents=True, exist_ok=True)
    output = RESULTS / f"writes-{stamp}.json"
    output.write_text(
        json.dumps(
            {
                "benchmark": "bench/writes.py",
                "date": datetime.now(UTC).isoformat(timespec="seconds"),
                "companies": total,
                "loadavg_before": loadavg_before,
                "rename": renamed,
                "logo": added,
                "import": imported,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"results: {output.relative_to(ROOT)}")
    met = True
    for what, measured in (("rename", renamed), ("new current logo", added)):
        verdict = "PASS" if measured["p95_ms"] <= TARGET_P95_MS else "FAIL"
        met = met and verdict == "PASS"
        print(
            f"target: {what} p95 <= {TARGET_P95_MS:.0f} ms: {measured['p95_ms']} ms -> {verdict}"
            f" (CPU p95 {measured['cpu_p95_ms']} ms)"
        )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
