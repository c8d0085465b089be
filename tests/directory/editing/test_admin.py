"""The staff back office: what staff see and what their changes do to the catalogue."""

import hashlib
import itertools
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.forms import MultiWidget
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Plan, User
from directory.catalogue.models import Asset, Company, Domain, FileFormat, Logo
from tests.directory.search.test_company_summaries import rebuilt, stored
from tests.directory.search.test_search_indexes import grams, grams_recount
from tests.factories import (
    CompanyFactory,
    DomainFactory,
    LogoFactory,
    SectorFactory,
    VariantFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
)

pytestmark = pytest.mark.django_db

MODELS = {
    "sector": "directory_sector",
    "company": "directory_company",
    "logo": "directory_logo",
    "domain": "directory_domain",
    "user": "accounts_user",
}


def changelist_url(model: str) -> str:
    return reverse(f"admin:{MODELS[model]}_changelist")


def change_url(model: str, pk) -> str:
    return reverse(f"admin:{MODELS[model]}_change", args=[pk])


def listed(response) -> list:
    assert response.status_code == 200
    return list(response.context["cl"].result_list)


def unchanged_form_data(response) -> dict:
    """What a browser posts back from a change page when nothing is edited."""
    assert response.status_code == 200
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    data = {}
    for form in forms:
        for field in form:
            value = field.value()
            if value is None or value is False:
                continue
            if isinstance(field.field.widget, MultiWidget):  # e.g. date and time inputs
                for index, part in enumerate(field.field.widget.decompress(value)):
                    data[f"{field.html_name}_{index}"] = part
            else:
                data[field.html_name] = "on" if value is True else value
    return data


def stored_files() -> list[Path]:
    location = Path(settings.STORAGES["default"]["OPTIONS"]["location"])
    return [path for path in location.rglob("*") if path.is_file()]


@pytest.fixture
def catalogue():
    """One of everything, wired together as the import leaves it."""
    company = CompanyFactory(sector=SectorFactory(), alternative_names=["Other name"])
    logo = make_current(LogoFactory(company=company))
    variant = VariantFactory(logo=logo)
    add_file(logo, svg_bytes())
    add_file(logo, png_bytes(), variant=variant)
    return {
        "sector": company.sector,
        "company": company,
        "logo": logo,
        "domain": DomainFactory(company=company),
    }


# Every page renders.


@pytest.mark.parametrize("model", MODELS)
def test_it_renders_the_list_the_add_page_and_the_change_page_of_every_model(
    admin_client, admin_user, catalogue, model
):
    obj = admin_user if model == "user" else catalogue[model]

    assert admin_client.get(changelist_url(model)).status_code == 200
    assert admin_client.get(reverse(f"admin:{MODELS[model]}_add")).status_code == 200
    assert admin_client.get(change_url(model, obj.pk)).status_code == 200


# Lists cost the same number of queries however many rows they show.


_emails = (f"user{n}@example.com" for n in itertools.count())


def _company_with_current_logo():
    return make_current(LogoFactory(company=CompanyFactory(sector=SectorFactory()))).company


ROW_MAKERS = {
    "sector": lambda: CompanyFactory(sector=SectorFactory()).sector,
    "company": _company_with_current_logo,
    "logo": lambda: add_file(LogoFactory(), png_bytes()).logo,
    "domain": DomainFactory,
    "user": lambda: User.objects.create_user(email=next(_emails), password="x"),
}


def _queries_to_list(client, model: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(changelist_url(model))
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("model", MODELS)
def test_it_lists_thirty_rows_with_as_many_queries_as_three(admin_client, model):
    for _ in range(3):
        ROW_MAKERS[model]()
    with_three = _queries_to_list(admin_client, model)
    for _ in range(27):
        ROW_MAKERS[model]()

    assert _queries_to_list(admin_client, model) == with_three


def test_it_pages_long_lists(admin_client):
    CompanyFactory.create_batch(51)

    response = admin_client.get(changelist_url("company"))

    assert len(listed(response)) == 50
    assert response.context["cl"].result_count == 51


def _queries_to_show(client, model: str, obj) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(change_url(model, obj.pk))
    assert response.status_code == 200
    return len(queries)


def test_it_shows_a_company_with_many_logos_in_as_many_queries_as_with_one(admin_client):
    def company_with_logos(count: int):
        company = CompanyFactory(sector=SectorFactory())
        LogoFactory.create_batch(count, company=company)
        DomainFactory.create_batch(count, company=company)
        make_current(company.logos.first())
        return company

    assert _queries_to_show(admin_client, "company", company_with_logos(6)) == _queries_to_show(
        admin_client, "company", company_with_logos(1)
    )


def test_it_shows_a_logo_with_many_variants_and_files_in_as_many_queries_as_with_one(
    admin_client,
):
    def logo_with_variants(count: int):
        logo = LogoFactory()
        types = VariantFactory.create_batch(count, logo=logo, kind="TYPE")
        for variant in types:
            VariantFactory(logo=logo, kind="VERSION", parent=variant)
            add_file(logo, png_bytes(), variant=variant)
        return logo

    assert _queries_to_show(admin_client, "logo", logo_with_variants(6)) == _queries_to_show(
        admin_client, "logo", logo_with_variants(1)
    )


# Derived columns and the current logo are not edited by hand.


def _form_fields(response) -> set[str]:
    assert response.status_code == 200
    return set(response.context["adminform"].form.fields)


def test_it_never_offers_the_folded_search_columns_for_editing(admin_client, catalogue):
    company_fields = _form_fields(admin_client.get(change_url("company", catalogue["company"].pk)))
    logo_fields = _form_fields(admin_client.get(change_url("logo", catalogue["logo"].pk)))
    sector_fields = _form_fields(admin_client.get(change_url("sector", catalogue["sector"].pk)))

    assert not company_fields & {"name_fold", "province_fold", "search_text", "current_logo"}
    assert not logo_fields & {"title_fold", "search_text", "is_current"}
    assert "name_fold" not in sector_fields


def test_it_ignores_an_is_current_posted_to_the_logo_form(admin_client):
    logo = LogoFactory()
    url = change_url("logo", logo.pk)
    data = unchanged_form_data(admin_client.get(url)) | {"is_current": "on"}

    assert admin_client.post(url, data).status_code == 302

    logo.refresh_from_db()
    assert not logo.is_current
    assert Company.objects.get(pk=logo.company_id).current_logo is None


def test_it_keeps_a_logos_company_once_the_logo_exists(admin_client):
    logo = LogoFactory()
    other = CompanyFactory()
    url = change_url("logo", logo.pk)
    data = unchanged_form_data(admin_client.get(url)) | {"company": str(other.pk)}

    assert admin_client.post(url, data).status_code == 302

    logo.refresh_from_db()
    assert logo.company_id != other.pk


# Making a logo current goes through the service that keeps the company in step.


def test_it_makes_a_logo_current_with_the_action_and_unsets_the_previous_one(admin_client):
    previous = make_current(LogoFactory())
    logo = LogoFactory(company=previous.company)

    response = admin_client.post(
        changelist_url("logo"), {"action": "make_current", "_selected_action": [str(logo.pk)]}
    )

    assert response.status_code == 302
    logo.refresh_from_db()
    previous.refresh_from_db()
    assert logo.is_current
    assert not previous.is_current
    assert Company.objects.get(pk=logo.company_id).current_logo_id == logo.pk


def test_it_refuses_to_make_two_logos_of_one_company_current(admin_client):
    previous = make_current(LogoFactory())
    first = LogoFactory(company=previous.company)
    second = LogoFactory(company=previous.company)

    response = admin_client.post(
        changelist_url("logo"),
        {"action": "make_current", "_selected_action": [str(first.pk), str(second.pk)]},
        follow=True,
    )

    assert "one current logo" in response.content.decode()
    assert set(Logo.objects.filter(is_current=True)) == {previous}
    assert Company.objects.get(pk=previous.company_id).current_logo_id == previous.pk


def test_it_makes_a_logo_current_from_its_change_page(admin_client):
    previous = make_current(LogoFactory())
    logo = LogoFactory(company=previous.company)
    url = change_url("logo", logo.pk)
    data = unchanged_form_data(admin_client.get(url)) | {"make_current": "on"}

    assert admin_client.post(url, data).status_code == 302

    logo.refresh_from_db()
    previous.refresh_from_db()
    assert logo.is_current
    assert not previous.is_current
    assert Company.objects.get(pk=logo.company_id).current_logo_id == logo.pk


def test_it_makes_a_new_logo_current_when_adding_it(admin_client):
    company = CompanyFactory()

    response = admin_client.post(
        reverse("admin:directory_logo_add"),
        {
            "title": "New logo",
            "slug": "new-logo",
            "company": str(company.pk),
            "make_current": "on",
            "color_palette": "",
            "variants-TOTAL_FORMS": "0",
            "variants-INITIAL_FORMS": "0",
            "assets-TOTAL_FORMS": "0",
            "assets-INITIAL_FORMS": "0",
        },
    )

    assert response.status_code == 302
    logo = Logo.objects.get(slug="new-logo")
    assert logo.is_current
    assert Company.objects.get(pk=company.pk).current_logo_id == logo.pk
    # Added as every new logo is (logo_create): inserted current, its colours known
    # (none) until a file comes, and the summaries and gram counts as a rebuild has them.
    assert (logo.color_palette, logo.colors_computed_at is not None) == ([], True)
    assert stored() == rebuilt()
    assert grams() == grams_recount()


def test_it_deletes_a_current_logo_leaving_its_company_without_one(admin_client):
    logo = make_current(LogoFactory())

    response = admin_client.post(
        reverse("admin:directory_logo_delete", args=[logo.pk]), {"post": "yes"}
    )

    assert response.status_code == 302
    assert not Logo.objects.filter(pk=logo.pk).exists()
    assert Company.objects.get(pk=logo.company_id).current_logo is None


def test_it_deletes_a_company_with_its_logos_files_and_domains(admin_client, catalogue):
    company = catalogue["company"]

    response = admin_client.post(
        reverse("admin:directory_company_delete", args=[company.pk]), {"post": "yes"}
    )

    assert response.status_code == 302
    assert not Company.objects.exists()
    assert not Logo.objects.exists()
    assert not Asset.objects.exists()
    assert not Domain.objects.exists()


# Files are judged by their bytes and stored by the catalogue's services.


def test_it_stores_an_upload_by_its_content_whatever_its_name_and_declared_type(
    admin_client, django_capture_on_commit_callbacks
):
    logo = LogoFactory()
    url = change_url("logo", logo.pk)
    data = unchanged_form_data(admin_client.get(url))
    png = png_bytes()
    data["upload"] = SimpleUploadedFile("logo.svg", png, content_type="image/svg+xml")

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(url, data)

    assert response.status_code == 302
    asset = Asset.objects.get(logo=logo)
    assert asset.format == FileFormat.PNG
    assert asset.content_type == "image/png"
    assert asset.variant is None
    assert asset.size == len(png)
    assert asset.sha256 == hashlib.sha256(png).hexdigest()
    assert asset.file.name.endswith(".png")
    logo.refresh_from_db()
    assert logo.preview, "the preview is drawn once the upload is committed"


def test_it_attaches_an_upload_to_the_chosen_variant(admin_client):
    logo = LogoFactory()
    variant = VariantFactory(logo=logo)
    url = change_url("logo", logo.pk)
    data = unchanged_form_data(admin_client.get(url))
    data["upload"] = SimpleUploadedFile("whatever.bin", svg_bytes())
    data["upload_variant"] = str(variant.pk)

    assert admin_client.post(url, data).status_code == 302

    asset = Asset.objects.get(logo=logo)
    assert (asset.variant, asset.format) == (variant, FileFormat.SVG)


def test_it_replaces_the_file_of_the_same_format_and_variant(admin_client):
    logo = LogoFactory()
    old = add_file(logo, png_bytes(color=(0, 0, 0, 255)))
    url = change_url("logo", logo.pk)
    data = unchanged_form_data(admin_client.get(url))
    new_png = png_bytes(color=(255, 255, 255, 255))
    data["upload"] = SimpleUploadedFile("logo.png", new_png)

    assert admin_client.post(url, data).status_code == 302

    assert list(Asset.objects.filter(logo=logo)) == [old]
    old.refresh_from_db()
    assert old.sha256 == hashlib.sha256(new_png).hexdigest()


def test_it_rejects_an_upload_that_is_no_logo_file_and_stores_nothing(admin_client):
    logo = LogoFactory()
    url = change_url("logo", logo.pk)
    data = unchanged_form_data(admin_client.get(url))
    data["upload"] = SimpleUploadedFile("logo.png", b"just some text\n", content_type="image/png")

    response = admin_client.post(url, data)

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["upload"]
    assert errors == ["Not a recognised SVG, PNG, PDF, AI, EPS or ZIP file."]
    assert not Asset.objects.exists()
    assert stored_files() == []


def test_it_rejects_an_upload_larger_than_the_catalogue_allows(admin_client, settings):
    settings.CATALOGUE_FILE_MAX_BYTES = 100
    logo = LogoFactory()
    url = change_url("logo", logo.pk)
    data = unchanged_form_data(admin_client.get(url))
    data["upload"] = SimpleUploadedFile("logo.png", png_bytes(size=(300, 300)))

    response = admin_client.post(url, data)

    assert response.status_code == 200
    assert "upload" in response.context["adminform"].form.errors
    assert not Asset.objects.exists()


def test_it_lists_a_logos_files_and_deletes_one_redrawing_the_preview(
    admin_client, django_capture_on_commit_callbacks
):
    logo = LogoFactory()
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, png_bytes())
    logo.refresh_from_db()
    assert logo.preview
    url = change_url("logo", logo.pk)
    page = admin_client.get(url)
    assert hashlib.sha256(png_bytes()).hexdigest() in page.content.decode()
    data = unchanged_form_data(page) | {"assets-0-DELETE": "on"}

    with django_capture_on_commit_callbacks(execute=True):
        assert admin_client.post(url, data).status_code == 302

    assert not Asset.objects.filter(logo=logo).exists()
    logo.refresh_from_db()
    assert not logo.preview


def test_it_offers_only_the_logos_own_types_as_a_versions_parent(admin_client):
    logo = LogoFactory()
    own_type = VariantFactory(logo=logo, kind="TYPE")
    VariantFactory(logo=logo, kind="VERSION", parent=own_type)
    VariantFactory(kind="TYPE")  # another logo's

    response = admin_client.get(change_url("logo", logo.pk))

    (variants,) = [
        inline.formset
        for inline in response.context["inline_admin_formsets"]
        if inline.formset.prefix == "variants"
    ]
    assert all(list(form.fields["parent"].queryset) == [own_type] for form in variants.forms)


# Domains.


def test_it_stores_a_domain_in_the_form_the_api_looks_up(admin_client):
    company = CompanyFactory()

    response = admin_client.post(
        reverse("admin:directory_domain_add"),
        {"domain": "  WWW.Example.ES ", "company": str(company.pk)},
    )

    assert response.status_code == 302
    assert Domain.objects.get(company=company).domain == "example.es"


# Users log in with their email.


def test_it_adds_a_user_by_email_and_password(admin_client):
    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {
            "email": "New.Person@Example.COM",
            "usable_password": "true",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
        },
    )

    assert response.status_code == 302
    user = User.objects.get(email="new.person@example.com")
    assert user.check_password("a long enough passphrase")
    assert user.plan == Plan.FREE
    assert not user.is_staff


def test_it_refuses_a_second_user_with_the_same_email(admin_client):
    User.objects.create_user(email="taken@example.com", password="x")

    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {
            "email": "Taken@Example.com",
            "usable_password": "true",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
        },
    )

    assert response.status_code == 200
    assert "email" in response.context["adminform"].form.errors
    assert User.objects.filter(email__iexact="taken@example.com").count() == 1


def test_it_changes_a_users_plan(admin_client):
    user = User.objects.create_user(email="someone@example.com", password="x")
    url = change_url("user", user.pk)
    data = unchanged_form_data(admin_client.get(url)) | {"plan": Plan.PRO}

    assert admin_client.post(url, data).status_code == 302

    user.refresh_from_db()
    assert user.plan == Plan.PRO
    assert user.check_password("x")


def test_it_finds_users_by_email_and_filters_them_by_plan_and_staff(admin_client):
    pro = User.objects.create_user(email="pro@example.com", plan=Plan.PRO)
    User.objects.create_user(email="free@example.com")

    assert listed(admin_client.get(changelist_url("user"), {"q": "pro@"})) == [pro]
    assert listed(admin_client.get(changelist_url("user"), {"plan__exact": Plan.PRO})) == [pro]
    staff = listed(admin_client.get(changelist_url("user"), {"is_staff__exact": "1"}))
    assert [user.email for user in staff] == ["admin@example.com"]
