"""import_directory stopped with kill -9 and run again ends where one uninterrupted run
ends: the command runs as operators run it, in a process of its own, on the test database."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from directory.catalogue.models import Company, Logo, Sector
from directory.demo import catalogue as demo
from directory.search.models import CompanyEmbedding

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[3]
COMPANIES = 120
LEXICON = [
    "directory_search_word",
    "directory_company_tally",
    "directory_search_gram",
    "directory_search_gram_total",
]


def _environment() -> dict[str, str]:
    database = connection.settings_dict
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}:"
        f"{database['PORT']}/{database['NAME']}"
    )
    return {
        **os.environ,
        "DATABASE_URL": url,
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        # Small batches, so that a stop lands between two of them.
        "CATALOGUE_IMPORT_BATCH": "10",
    }


def _start(path: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "import_directory", str(path)],
        cwd=ROOT,
        env=_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(path: Path) -> str:
    process = _start(path)
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    return out.strip()


def _kill_when(path: Path, condition) -> None:
    process = _start(path)
    deadline = time.monotonic() + 300
    while not condition():
        assert process.poll() is None, "the import ended before it could be stopped"
        assert time.monotonic() < deadline
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()


def _table(name: str) -> list:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {name}")  # noqa: S608 - names above
        # Sorted whole: rows equal in their first column come in any order.
        return sorted((tuple(row) for row in cursor.fetchall()), key=repr)


def _catalogue_state() -> dict:
    """Everything an import writes, by slugs and content rather than by generated ids."""
    companies = {}
    for company in Company.objects.select_related("sector", "current_logo").prefetch_related(
        "domains", "logos__variants__parent", "logos__assets__variant"
    ):
        logos = {}
        for logo in company.logos.all():
            logos[logo.slug] = (
                logo.title,
                logo.is_current,
                logo.is_product,
                (logo.era_from, logo.era_to, logo.era_label, logo.description),
                logo.color_palette,
                logo.colors_computed_at is not None,
                bool(logo.preview),
                logo.preview_pending,
                sorted(
                    (v.key, v.kind, v.name, v.parent.key if v.parent else None, bool(v.preview))
                    for v in logo.variants.all()
                ),
                sorted(
                    (a.format, a.variant.key if a.variant else "", a.sha256, a.size, a.file.name)
                    for a in logo.assets.all()
                ),
            )
        embedding = CompanyEmbedding.objects.filter(company=company).first()
        companies[company.slug] = (
            company.name,
            company.alternative_names,
            company.entity_type,
            company.is_verified,
            company.sector.slug if company.sector else None,
            (company.province, company.about, company.website, company.location),
            company.founded_year,
            company.current_logo.slug if company.current_logo else None,
            (company.import_digest.text, company.import_digest.files),
            sorted(domain.domain for domain in company.domains.all()),
            logos,
            embedding.text_hash if embedding else None,
        )
    return {
        "companies": companies,
        "sectors": sorted(Sector.objects.values_list("slug", "name")),
        "lexicon": {name: _table(name) for name in LEXICON},
    }


def _empty_catalogue() -> None:
    """No company any more, as before the first import; the sectors stay, so that the
    tally's sector ids compare. TRUNCATE empties the counts the search triggers keep."""
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE directory_company CASCADE")


def test_it_ends_an_import_stopped_twice_with_kill_9_where_one_whole_run_ends(tmp_path):
    path = demo.catalogue_write(demo.catalogue_build(companies=COMPANIES, seed=5), tmp_path)
    assert _finish(path) == f"created {COMPANIES}, updated 0, unchanged 0, failed 0"
    whole = _catalogue_state()
    assert not Logo.objects.filter(preview_pending=True).exists()
    _empty_catalogue()

    # Stopped while writing the rows, then while drawing what derives from them.
    _kill_when(path, lambda: Company.objects.count() >= 30)
    assert Company.objects.count() < COMPANIES
    _kill_when(
        path,
        lambda: (
            Logo.objects.filter(preview_pending=False, colors_computed_at__isnull=False)
            .exclude(preview="")
            .exists()
        ),
    )
    assert Logo.objects.filter(preview_pending=True).exists()

    assert _finish(path).endswith(", failed 0")
    assert _catalogue_state() == whole
