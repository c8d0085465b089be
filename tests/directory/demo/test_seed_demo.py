"""python manage.py seed_demo: an invented catalogue of Spain, loaded through the import."""

import re
from io import StringIO

import pytest
from django.core.files.storage import storages
from django.core.management import CommandError, call_command
from django.db.models import Count, F, Q

from directory.catalogue.models import (
    Asset,
    Company,
    EntityType,
    FileFormat,
    Logo,
    Variant,
    VariantKind,
)
from directory.demo import catalogue as demo
from directory.files.formats import detect_format
from tests.factories import CompanyFactory, LogoFactory

pytestmark = pytest.mark.django_db

COMPANIES = 30
ACCENTED = re.compile("[áéíóúüñÁÉÍÓÚÜÑ]")


def seed(*options: str, companies: int = COMPANIES) -> str:
    out = StringIO()
    call_command(
        "seed_demo", "--companies", str(companies), *options, stdout=out, stderr=StringIO()
    )
    return out.getvalue().strip()


def test_it_creates_the_companies_asked_for():
    output = seed()

    assert output == f"demo companies: created {COMPANIES}, updated 0, unchanged 0, failed 0"
    slugs = list(Company.objects.values_list("slug", flat=True))
    assert len(slugs) == len(set(slugs)) == COMPANIES


def test_it_reports_its_progress_in_lines_when_its_output_goes_to_a_file():
    errors = StringIO()

    call_command("seed_demo", "--companies", "5", stdout=StringIO(), stderr=errors)

    lines = errors.getvalue().splitlines()
    # One drawing per logo file.
    drawings = int(re.fullmatch(r"draw: 0 of (\d+)", lines[0])[1])
    assert re.fullmatch(rf"draw: {drawings} of {drawings} in \d+ s", lines[1])
    assert lines[2] == "import: 0 of 5"
    assert re.fullmatch(r"import: 5 of 5 in \d+ s", lines[3])


def test_it_gives_every_company_exactly_one_current_logo():
    seed()

    for company in Company.objects.annotate(
        current=Count("logos", filter=Q(logos__is_current=True))
    ):
        assert company.current == 1
        assert company.current_logo == company.logos.get(is_current=True)


def test_it_dates_older_logos_with_eras_that_end_before_the_current_one():
    seed()

    older = Logo.objects.filter(is_current=False, is_product=False)
    assert older.exists()
    assert not older.filter(era_to__isnull=True).exists()
    assert not Logo.objects.filter(era_from__gt=F("era_to")).exists()
    for logo in older.select_related("company__current_logo"):
        assert logo.era_to < logo.company.current_logo.era_from
    assert not Logo.objects.filter(is_current=True, era_to__isnull=False).exists()


def test_it_names_companies_in_spanish():
    seed()

    names = list(Company.objects.values_list("name", flat=True))
    assert any(ACCENTED.search(name) for name in names)
    assert set(Company.objects.values_list("province", flat=True)) <= set(demo.PROVINCES)


def test_it_adds_a_negative_version_under_a_horizontal_type():
    seed()

    versions = Variant.objects.filter(kind=VariantKind.VERSION).select_related("parent")
    assert versions.exists()
    for version in versions:
        assert (version.key, version.name) == ("h-neg", "Negativo")
        assert version.parent.kind == VariantKind.TYPE
        assert version.parent.logo_id == version.logo_id
        assert (version.parent.key, version.parent.name) == ("h", "Horizontal")


def test_it_stores_an_svg_and_a_png_of_every_logo_judged_by_their_bytes():
    seed()

    for logo in Logo.objects.all():
        formats = set(logo.assets.filter(variant=None).values_list("format", flat=True))
        assert formats == {FileFormat.SVG, FileFormat.PNG}
    for asset in Asset.objects.select_related("variant"):
        with asset.file.open("rb") as handle:
            assert detect_format(handle.read()) == asset.format
    assert set(Asset.objects.filter(variant__key="h").values_list("format", flat=True)) == {"SVG"}
    assert set(Asset.objects.filter(variant__key="h-neg").values_list("format", flat=True)) == {
        "PNG"
    }


def test_it_draws_logos_from_shapes_without_text():
    catalogue = demo.catalogue_build(companies=COMPANIES)

    for drawing in catalogue.drawings.values():
        data = demo.file_draw(drawing)
        assert detect_format(data) == drawing.format
        assert b"<text" not in data


def test_it_builds_the_same_catalogue_from_the_same_seed():
    first = demo.catalogue_build(companies=COMPANIES, seed=7)
    again = demo.catalogue_build(companies=COMPANIES, seed=7)
    other = demo.catalogue_build(companies=COMPANIES, seed=8)

    assert first.document == again.document
    assert first.drawings == again.drawings
    assert first.document != other.document
    path, drawing = next(iter(first.drawings.items()))
    assert demo.file_draw(drawing) == demo.file_draw(again.drawings[path])


def test_it_mixes_kinds_of_entity_logo_histories_and_variants():
    companies = demo.catalogue_build(companies=1000).document["companies"]
    logos = [logo for company in companies for logo in company["logos"]]

    def share(items, test) -> float:
        return sum(map(test, items)) / len(items)

    assert 0.7 < share(companies, lambda c: c["entityType"] == EntityType.COMPANY) < 0.95
    assert {c["entityType"] for c in companies} >= set(EntityType) - {EntityType.POLITICAL_PARTY}

    def has_history(company: dict) -> bool:
        return any(not logo["isCurrent"] and not logo["isProduct"] for logo in company["logos"])

    assert 0.15 < share(companies, has_history) < 0.35
    assert 0.05 < share(companies, lambda c: c["logos"][-1]["isProduct"]) < 0.15
    assert 0.1 < share(logos, lambda logo: bool(logo["variants"])) < 0.3
    assert any(company["alternativeNames"] for company in companies)
    assert any(company["domains"] for company in companies)
    assert all(re.fullmatch(r"\d{4}", company["foundedYear"]) for company in companies)


def test_it_gives_namesakes_numbered_slugs():
    companies = demo.catalogue_build(companies=3000).document["companies"]

    slugs = [company["slug"] for company in companies]
    assert len(set(slugs)) == len(slugs)
    assert any(re.search(r"-\d+$", slug) for slug in slugs)
    logo_slugs = [logo["slug"] for company in companies for logo in company["logos"]]
    assert len(set(logo_slugs)) == len(logo_slugs)


def test_it_reports_every_company_unchanged_when_seeded_again():
    seed()

    assert seed() == f"demo companies: created 0, updated 0, unchanged {COMPANIES}, failed 0"


def test_it_seeds_over_a_catalogue_seeded_with_another_seed():
    seed()

    output = seed("--seed", "7")

    assert output.endswith(", failed 0")
    assert Company.objects.count() > COMPANIES


def test_it_does_nothing_with_if_empty_once_a_company_exists():
    seed()
    before = list(Company.objects.values_list("slug", "updated_at").order_by("slug"))
    logos, assets = Logo.objects.count(), Asset.objects.count()

    assert seed("--if-empty") == "the catalogue already has companies: nothing seeded"
    assert list(Company.objects.values_list("slug", "updated_at").order_by("slug")) == before
    assert (Logo.objects.count(), Asset.objects.count()) == (logos, assets)


def test_it_seeds_an_empty_catalogue_with_if_empty():
    assert seed("--if-empty", companies=5).startswith("demo companies: created 5,")


def test_it_leaves_a_catalogue_that_has_any_company_alone_with_if_empty():
    CompanyFactory()

    seed("--if-empty")

    assert Company.objects.count() == 1


def test_it_fails_when_an_entry_cannot_be_imported():
    taken = demo.catalogue_build(companies=COMPANIES).document["companies"][0]["logos"][0]["slug"]
    LogoFactory(slug=taken)

    with pytest.raises(CommandError, match=r"unchanged 0, failed 1$"):
        seed()
    assert Company.objects.count() == COMPANIES  # the others, plus the logo's own company


def test_it_rejects_fewer_than_one_company():
    with pytest.raises(CommandError, match="at least 1"):
        seed(companies=0)


def test_it_draws_a_preview_of_every_current_logo_after_commit(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        seed(companies=8)

    current = Logo.objects.filter(is_current=True)
    assert current.count() == 8
    for logo in current:
        assert logo.preview
        assert storages["previews"].exists(logo.preview.name)
    for variant in Variant.objects.all():
        assert variant.preview


def test_it_leaves_previews_and_colours_pending_with_rows_only_as_the_api_says(api):
    seed("--rows-only", companies=3)
    logo = Logo.objects.filter(is_current=True).select_related("company").first()

    assert Logo.objects.filter(preview_pending=True).count() == Logo.objects.count()
    assert api.get(f"/v1/public/logos/{logo.slug}").json()["data"]["previewUrl"] is None
    colors = api.get(f"/v1/public/companies/{logo.company.slug}/colors").json()["data"]
    assert (colors["cached"], colors["colors"]) == (False, [])

    errors = StringIO()
    call_command("complete_import", stderr=errors)

    assert errors.getvalue().splitlines()[-1].startswith("everything is done: ")
    assert not Logo.objects.filter(preview_pending=True).exists()
    assert api.get(f"/v1/public/logos/{logo.slug}").json()["data"]["previewUrl"]
    assert api.get(f"/v1/public/companies/{logo.company.slug}/colors").json()["data"]["cached"]
