"""A strict Content-Security-Policy on every HTML page, and pages that work under it.

The site loads nothing from other hosts and runs nothing inline, so the policy allows
this origin only; a browser loading each page (the API docs and the admin included)
reports no violation.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.conftest import browser_page
from tests.factories import (
    PASSWORD,
    CompanyFactory,
    LogoFactory,
    UserFactory,
    add_file,
    make_current,
    svg_bytes,
)

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
PAGES = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/signup/sent/",
    "/accounts/password/reset/",
    "/examples/logo-link",
    "/v1/public/docs",
]


@pytest.fixture
def logo():
    company = CompanyFactory(slug="cafes-sol", name="Cafés Sol")
    logo = make_current(LogoFactory(company=company, slug="cafes-sol-2020", title="Cafés Sol"))
    add_file(logo, svg_bytes(fill="#C8102E"))
    logo.color_palette = ["#C8102E"]
    logo.save()
    return logo


def _directives(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return {
        part.split()[0]: " ".join(part.split()[1:]) for part in policy.split(";") if part.strip()
    }


def test_it_sends_a_strict_policy_on_every_html_page(client, logo):
    staff = UserFactory(is_staff=True, is_superuser=True)
    pages = [*PAGES, "/companies/cafes-sol", "/logos/cafes-sol-2020", "/admin/login/"]
    responses = [client.get(path) for path in pages]
    client.force_login(staff)
    responses += [
        client.get("/admin/"),
        client.get("/account/tokens"),
        client.get("/accounts/password/change/"),
    ]

    for response in responses:
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/html")
        directives = _directives(response)
        assert directives["default-src"] == "'self'"
        assert directives["script-src"] == "'self'"
        assert directives["style-src"] == "'self'"
        assert directives["frame-ancestors"] == "'none'"
        assert directives["object-src"] == "'none'"
        assert directives["form-action"] == "'self'"
        assert "unsafe" not in response["Content-Security-Policy"]


def test_it_sends_no_policy_with_json(api):
    assert "Content-Security-Policy" not in api.get("/v1/public/companies")


def test_it_writes_no_inline_script_or_style_in_its_templates():
    inline = re.compile(
        r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>|<style\b|\sstyle=|\son[a-z]+="
    )
    found = {
        str(path.relative_to(TEMPLATES)): inline.findall(path.read_text())
        for path in TEMPLATES.rglob("*.html")
    }

    assert {name: hits for name, hits in found.items() if hits} == {}


@pytest.mark.django_db(transaction=True)
def test_it_shows_every_page_in_a_browser_without_a_policy_violation(chromium, live_server):
    company = CompanyFactory(slug="cafes-sol", name="Cafés Sol")
    logo = make_current(LogoFactory(company=company, slug="cafes-sol-2020", title="Cafés Sol"))
    add_file(logo, svg_bytes(fill="#C8102E"))
    logo.color_palette = ["#C8102E"]
    logo.save()
    UserFactory(email="staff@example.com", is_staff=True, is_superuser=True)
    page = browser_page(chromium, live_server)
    page.route(
        f"{settings.SITE_URL}/**",
        lambda route: route.continue_(
            url=route.request.url.replace(settings.SITE_URL, live_server.url, 1)
        ),
    )
    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )

    for path in [*PAGES, "/companies/cafes-sol", "/logos/cafes-sol-2020"]:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        if path == "/v1/public/docs":
            expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    page.goto("/logos/cafes-sol-2020")
    swatch = page.locator(".swatches svg.chip rect").first
    assert swatch.get_attribute("fill") == "#C8102E"
    page.goto("/admin/login/")
    page.locator("#id_username").fill("staff@example.com")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    page.wait_for_load_state("networkidle")
    for path in ["/admin/", "/admin/proposals/proposal/", "/admin/directory/company/"]:
        page.goto(path)
        page.wait_for_load_state("networkidle")

    assert violations == []
