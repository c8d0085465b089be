"""What the import at scale adds to tests/directory/test_import_directory.py: entries
skipped by their digest, --recheck, sectors anywhere in the file, odd entries in a batch."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from directory.models import Company
from tests.directory.test_import_directory import catalogue, company_entry, run  # noqa: F401

pytestmark = pytest.mark.django_db


def test_it_skips_an_unchanged_entry_and_brings_back_an_admin_change_with_recheck(catalogue):  # noqa: F811
    run(catalogue)
    Company.objects.filter(slug="banco-ejemplo").update(name="Renamed in the admin")

    assert run(catalogue) == "created 0, updated 0, unchanged 1, failed 0"
    assert Company.objects.get().name == "Renamed in the admin"

    out = StringIO()
    call_command("import_directory", str(catalogue), "--recheck", stdout=out, stderr=StringIO())
    assert out.getvalue().strip() == "created 0, updated 1, unchanged 0, failed 0"
    assert Company.objects.get().name == "Banco Ejemplo"


def test_it_reads_the_sectors_wherever_they_stand_in_the_file(catalogue):  # noqa: F811
    document = {
        "companies": [company_entry()],
        "sectors": [{"slug": "banca", "name": "Banca"}],
    }
    catalogue.write_text(json.dumps(document), encoding="utf-8")

    assert run(catalogue) == "created 1, updated 0, unchanged 0, failed 0"
    assert Company.objects.get().sector.slug == "banca"


def test_it_reports_an_entry_of_any_shape_and_imports_the_rest_of_its_batch(catalogue, capsys):  # noqa: F811
    odd = [["not", "an", "object"], {"slug": ["a", "list"], "name": "X"}, "text", None]
    document = {
        "sectors": [{"slug": "banca", "name": "Banca"}],
        "companies": [*odd, company_entry()],
    }
    catalogue.write_text(json.dumps(document), encoding="utf-8")

    with pytest.raises(CommandError, match="created 1, updated 0, unchanged 0, failed 4"):
        call_command("import_directory", str(catalogue))

    errors = capsys.readouterr().err
    assert all(f"entry {position}" in errors for position in range(4))
    assert list(Company.objects.values_list("slug", flat=True)) == ["banco-ejemplo"]
