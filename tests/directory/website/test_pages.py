"""The website pages the API's `url` fields point at."""

import pytest

from tests.factories import CompanyFactory, LogoFactory, add_file, make_current, svg_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def logo(django_capture_on_commit_callbacks):
    company = CompanyFactory(slug="cafes-ibanez", name="Cafés Ibáñez", province="León")
    logo = make_current(LogoFactory(company=company, slug="ci-2010", title="Cafés Ibáñez 2010"))
    with django_capture_on_commit_callbacks(execute=True):
        add_file(logo, svg_bytes())
    return logo


def test_it_finds_companies_from_the_home_page_ignoring_accents(client, logo):
    response = client.get("/", {"q": "ibanez"})

    assert response.status_code == 200
    assert 'href="/companies/cafes-ibanez"' in response.content.decode()


def test_it_shows_a_company_at_its_api_url(client, api, logo):
    url = api.get("/v1/public/companies/cafes-ibanez").json()["data"]["url"]

    page = client.get(url.removeprefix("http://testserver")).content.decode()

    assert "<h1>Cafés Ibáñez</h1>" in page
    assert 'href="/logos/ci-2010"' in page
    assert f"/media/previews/{logo.id}/" in page


def test_it_shows_a_logo_at_its_api_url(client, api, logo):
    url = api.get("/v1/public/logos/ci-2010").json()["data"]["url"]

    page = client.get(url.removeprefix("http://testserver")).content.decode()

    assert "<h1>Cafés Ibáñez 2010</h1>" in page
    assert "SVG" in page


def test_it_serves_previews_as_png_and_nothing_else(client, logo):
    name = logo.__class__.objects.get(pk=logo.pk).preview.name

    response = client.get(f"/media/previews/{name}")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert b"".join(response.streaming_content).startswith(b"\x89PNG")
    assert client.get("/media/previews/../files/x.svg").status_code == 404


@pytest.mark.parametrize("path", ["/companies/nope", "/logos/nope"])
def test_it_answers_unknown_pages_with_404(client, path):
    assert client.get(path).status_code == 404
