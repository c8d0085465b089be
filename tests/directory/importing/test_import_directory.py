import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from directory.catalogue.models import Asset, Company, Domain, FileFormat, Logo, Sector, Variant
from tests.factories import png_bytes, svg_bytes

pytestmark = pytest.mark.django_db


def company_entry(**overrides) -> dict:
    entry = {
        "slug": "banco-ejemplo",
        "name": "Banco Ejemplo",
        "alternativeNames": ["BE"],
        "entityType": "COMPANY",
        "isVerified": True,
        "sector": "banca",
        "province": "Madrid",
        "about": "Un banco.",
        "website": "https://www.ejemplo.es",
        "location": "Madrid",
        "foundedYear": "1900",
        "domains": ["ejemplo.com"],
        "logos": [
            {
                "slug": "banco-ejemplo-2020",
                "title": "Banco Ejemplo (2020)",
                "isCurrent": True,
                "isProduct": False,
                "era": {"from": 2020, "to": None, "label": None},
                "description": None,
                "variants": [
                    {"key": "h", "kind": "TYPE", "name": "Horizontal", "parent": None},
                    {"key": "h-neg", "kind": "VERSION", "name": "Negativo", "parent": "h"},
                ],
                "files": [
                    {"path": "files/be.svg", "variant": None},
                    {"path": "files/be-h.png", "variant": "h"},
                ],
            }
        ],
    }
    entry.update(overrides)
    return entry


@pytest.fixture
def catalogue(tmp_path) -> Path:
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "be.svg").write_bytes(svg_bytes())
    (tmp_path / "files" / "be-h.png").write_bytes(png_bytes())
    path = tmp_path / "catalogue.json"
    write(path, [company_entry()])
    return path


def write(path: Path, companies: list[dict]) -> None:
    document = {"sectors": [{"slug": "banca", "name": "Banca"}], "companies": companies}
    path.write_text(json.dumps(document), encoding="utf-8")


def run(path: Path) -> str:
    from io import StringIO

    out = StringIO()
    call_command("import_directory", str(path), stdout=out, stderr=StringIO())
    return out.getvalue().strip()


def test_it_imports_a_catalogue_file(catalogue):
    assert run(catalogue) == "created 1, updated 0, unchanged 0, failed 0"

    company = Company.objects.get(slug="banco-ejemplo")
    logo = Logo.objects.get(slug="banco-ejemplo-2020")
    assert company.sector == Sector.objects.get(slug="banca", name="Banca")
    assert company.alternative_names == ["BE"]
    assert company.founded_year == "1900"
    assert company.current_logo == logo and logo.is_current
    assert list(Domain.objects.values_list("domain", flat=True)) == ["ejemplo.com"]
    variants = {v.key: v for v in Variant.objects.filter(logo=logo)}
    assert variants["h-neg"].parent == variants["h"]
    assert sorted(Asset.objects.values_list("format", "variant__key", "content_type")) == [
        ("PNG", "h", "image/png"),
        ("SVG", None, "image/svg+xml"),
    ]


def test_it_changes_nothing_when_the_same_file_is_imported_again(catalogue):
    run(catalogue)
    stamps = list(Company.objects.values_list("updated_at", flat=True)) + list(
        Logo.objects.values_list("updated_at", flat=True)
    )
    assets = list(Asset.objects.values_list("id", "sha256", "file"))

    assert run(catalogue) == "created 0, updated 0, unchanged 1, failed 0"
    assert stamps == list(Company.objects.values_list("updated_at", flat=True)) + list(
        Logo.objects.values_list("updated_at", flat=True)
    )
    assert assets == list(Asset.objects.values_list("id", "sha256", "file"))


def test_it_updates_what_changed_in_the_file(catalogue):
    run(catalogue)
    (catalogue.parent / "files" / "be.svg").write_bytes(svg_bytes("#00FF00"))
    write(catalogue, [company_entry(name="Banco Ejemplo Nuevo")])

    assert run(catalogue) == "created 0, updated 1, unchanged 0, failed 0"
    assert Company.objects.get().name == "Banco Ejemplo Nuevo"
    svg = Asset.objects.get(format=FileFormat.SVG)
    assert svg.sha256 != "" and svg.file.read() == svg_bytes("#00FF00")


def test_it_reports_a_bad_entry_with_its_position_and_imports_the_others(catalogue, capsys):
    write(
        catalogue,
        [
            company_entry(),
            {"slug": "sin-nombre"},
            company_entry(slug="otro", domains=[], logos=[], sector="no-such-sector"),
            company_entry(slug="bien", name="Bien", domains=[], logos=[]),
        ],
    )

    with pytest.raises(CommandError, match="created 2, updated 0, unchanged 0, failed 2"):
        call_command("import_directory", str(catalogue))

    errors = capsys.readouterr().err
    assert "entry 1 (sin-nombre): name: This field is required." in errors
    assert "entry 2 (otro): unknown sector no-such-sector" in errors
    assert set(Company.objects.values_list("slug", flat=True)) == {"banco-ejemplo", "bien"}


def test_it_refuses_a_file_that_is_not_a_logo_format(catalogue, capsys):
    (catalogue.parent / "files" / "be.svg").write_bytes(b"<html><script>alert(1)</script></html>")

    with pytest.raises(CommandError, match="failed 1"):
        call_command("import_directory", str(catalogue))

    assert (
        "files/be.svg: not a recognised SVG, PNG, PDF, AI, EPS or ZIP file"
        in capsys.readouterr().err
    )
    assert not Company.objects.exists()


def test_it_judges_a_file_by_its_bytes_not_its_name(catalogue):
    (catalogue.parent / "files" / "be.svg").write_bytes(png_bytes())

    run(catalogue)

    assert Asset.objects.get(variant=None).format == FileFormat.PNG


@pytest.mark.parametrize("path", ["../outside.svg", "/etc/passwd", "files/missing.svg"])
def test_it_refuses_files_outside_the_catalogue_folder_or_missing(catalogue, capsys, path):
    (catalogue.parent.parent / "outside.svg").write_bytes(svg_bytes())
    entry = company_entry()
    entry["logos"][0]["files"] = [{"path": path, "variant": None}]
    write(catalogue, [entry])

    with pytest.raises(CommandError, match="failed 1"):
        call_command("import_directory", str(catalogue))

    assert f"file {path}: " in capsys.readouterr().err
    assert not Company.objects.exists()


def test_it_rolls_back_the_whole_company_when_one_of_its_logos_fails(catalogue):
    entry = company_entry()
    entry["logos"].append({**entry["logos"][0], "slug": "taken", "isCurrent": False, "files": []})
    write(
        catalogue,
        [
            company_entry(slug="first", domains=[], logos=[{**entry["logos"][1], "slug": "taken"}]),
            entry,
        ],
    )

    with pytest.raises(CommandError, match="created 1, updated 0, unchanged 0, failed 1"):
        call_command("import_directory", str(catalogue))

    assert list(Company.objects.values_list("slug", flat=True)) == ["first"]


def test_it_moves_the_current_flag_when_the_file_does(catalogue):
    run(catalogue)
    entry = company_entry()
    old = {**entry["logos"][0], "isCurrent": False}
    new = {**entry["logos"][0], "slug": "banco-ejemplo-2024", "title": "2024", "isCurrent": True}
    write(catalogue, [company_entry(logos=[old, new])])

    run(catalogue)

    assert Company.objects.get().current_logo.slug == "banco-ejemplo-2024"
    assert list(Logo.objects.filter(is_current=True).values_list("slug", flat=True)) == [
        "banco-ejemplo-2024"
    ]


def test_it_refuses_a_domain_that_is_not_one(catalogue, capsys):
    write(catalogue, [company_entry(domains=["not a domain"])])

    with pytest.raises(CommandError, match="failed 1"):
        call_command("import_directory", str(catalogue))

    assert "domains: 'not a domain' is not a domain name" in capsys.readouterr().err


def test_it_refuses_an_unreadable_catalogue(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")

    with pytest.raises(CommandError, match="not a readable JSON file"):
        call_command("import_directory", str(path))
