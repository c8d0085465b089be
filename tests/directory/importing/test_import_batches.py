"""What the import at scale adds to tests/directory/importing/test_import_directory.py: entries
skipped by their digests (text and files apart), --recheck, sectors anywhere in the file,
odd entries in a batch."""

import json
from io import StringIO

import pytest
from django.core.files.storage import default_storage
from django.core.management import CommandError, call_command

from directory.catalogue.models import Asset, Company, Logo
from tests.directory.importing.test_import_directory import (  # noqa: F401
    catalogue,
    company_entry,
    run,
    write,
)
from tests.factories import svg_bytes

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


def test_it_updates_the_rows_of_changed_companies_a_batch_at_a_time_as_one_at_a_time(
    catalogue,  # noqa: F811
    api,
):
    other = company_entry(
        slug="seguros-ejemplo",
        name="Seguros Ejemplo",
        domains=["seguros-ejemplo.com"],
        logos=[
            {
                **company_entry()["logos"][0],
                "slug": "seguros-ejemplo-2020",
                "title": "Seguros Ejemplo (2020)",
            }
        ],
    )
    write(catalogue, [company_entry(), other])
    run(catalogue)
    before = dict(Company.objects.values_list("slug", "updated_at"))
    renamed = {**other, "logos": [{**other["logos"][0], "title": "Seguros Ejemplo (2021)"}]}
    write(catalogue, [company_entry(name="Banco Zafiro", about="Otro banco."), renamed])

    assert run(catalogue) == "created 0, updated 2, unchanged 0, failed 0"
    assert run(catalogue) == "created 0, updated 0, unchanged 2, failed 0"

    company = Company.objects.get(slug="banco-ejemplo")
    assert (company.name, company.about) == ("Banco Zafiro", "Otro banco.")
    assert company.updated_at > before["banco-ejemplo"]
    assert Logo.objects.get(slug="seguros-ejemplo-2020").title == "Seguros Ejemplo (2021)"
    # Unchanged in its own row, so not touched; its logo's row is.
    assert Company.objects.get(slug="seguros-ejemplo").updated_at == before["seguros-ejemplo"]
    # The search lexicon and the logos' search documents follow the new name.
    found = api.get("/v1/public/companies", {"q": "zafiro"}).json()["data"]
    assert [item["slug"] for item in found] == ["banco-ejemplo"]
    assert "zafiro" in Logo.objects.get(slug="banco-ejemplo-2020").search_doc.lower()


def test_it_imports_an_entry_again_when_only_one_of_its_files_changed(catalogue):  # noqa: F811
    run(catalogue)
    (catalogue.parent / "files" / "be.svg").write_bytes(svg_bytes("#00FF00"))

    assert run(catalogue) == "created 0, updated 1, unchanged 0, failed 0"
    assert Asset.objects.get(variant=None).file.read() == svg_bytes("#00FF00")


def test_it_reads_no_file_again_for_an_entry_whose_text_alone_changed(catalogue):  # noqa: F811
    run(catalogue)
    # Gone from storage: an import that read and stored the file again would put it back.
    stored = Asset.objects.get(variant=None).file.name
    default_storage.delete(stored)
    write(catalogue, [company_entry(name="Banco Zafiro")])

    assert run(catalogue) == "created 0, updated 1, unchanged 0, failed 0"
    assert Company.objects.get().name == "Banco Zafiro"
    assert not default_storage.exists(stored)
