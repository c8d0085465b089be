"""A Python client generated from the served document drives the main journeys.

The client is generated in the test run with openapi-python-client, from the document
the app serves, and talks HTTP to a live server: what the document cannot express, the
client cannot do, and these journeys fail.
"""

import importlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.test import Client as DjangoClient
from PIL import Image

from accounts.models import Scope
from tests.factories import png_bytes, svg_bytes, token_for

PACKAGE = "logo_directory_client"
IMAGE_TYPES = ("image/png", "image/webp")
BYTES = "application/octet-stream"


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """The generated package, imported; generation fails on any warning."""
    # From an address of its own (RFC 5737), so it spends nothing of a test's rate limit.
    response = DjangoClient(REMOTE_ADDR="192.0.2.3").get("/v1/public/openapi.json")
    assert response.status_code == 200
    root = tmp_path_factory.mktemp("generated")
    document = root / "openapi.json"
    document.write_text(json.dumps(response.json()))
    # The Logo Link answers images: a client reads them as bytes. The generator knows
    # bytes by application/octet-stream only, so it is told the image types are bytes.
    config = root / "config.json"
    config.write_text(json.dumps({"content_type_overrides": dict.fromkeys(IMAGE_TYPES, BYTES)}))
    bin_dir = Path(sys.executable).parent
    result = subprocess.run(
        [
            bin_dir / "openapi-python-client",
            "generate",
            "--path",
            document,
            "--output-path",
            root / PACKAGE,
            "--meta",
            "none",
            "--config",
            config,
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        # Its post-generation hooks run ruff, which lives beside the interpreter.
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"},
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    for sign in ("Warning", "Unable to parse", "Skipping", "will not be generated"):
        assert sign not in output, output
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))


def api(generated, name: str):
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def model(generated, name: str):
    return getattr(importlib.import_module(f"{PACKAGE}.models"), name)


@pytest.fixture
def base_url(live_server, settings):
    # Every request of a journey comes from 127.0.0.1; the limits have tests of their own.
    settings.API_RATE_ANONYMOUS = settings.API_RATE_AUTHENTICATED = "1000000/m"
    settings.API_RATE_IMAGES_ANONYMOUS = "1000000/m"
    # Download links point at the site, here the live server.
    settings.SITE_URL = live_server.url
    return live_server.url


@pytest.fixture
def anonymous(generated, base_url):
    return generated.Client(base_url=base_url, raise_on_unexpected_status=True)


@pytest.fixture
def signed_in(generated, base_url, pro_user):
    token = token_for(pro_user, scopes=Scope.values)
    return generated.AuthenticatedClient(
        base_url=base_url, token=token, raise_on_unexpected_status=True
    )


def test_it_searches_and_reads_the_catalogue(generated, anonymous, catalogue):
    search_companies = api(generated, "catalogue.search_companies")
    search_logos = api(generated, "catalogue.search_logos")
    get_company = api(generated, "catalogue.get_company")
    get_logo = api(generated, "catalogue.get_logo")
    get_colors = api(generated, "catalogue.get_company_colors")
    list_domains = api(generated, "catalogue.list_domains")
    get_domain_company = api(generated, "catalogue.get_domain_company")

    companies = search_companies.sync(client=anonymous, q="nandu")
    assert [company.name for company in companies.data] == ["Banco Ñandú"]
    assert (companies.total, companies.total_pages, companies.page) == (1, 1, 1)

    logos = search_logos.sync(client=anonymous, q="cafe", page_size=5)
    assert [logo.company.name for logo in logos.data] == ["Café Sol"]

    company = get_company.sync(companies.data[0].slug, client=anonymous).data
    assert company.name == "Banco Ñandú"
    assert [logo.formats for logo in company.logos] == [["SVG", "PNG", "PDF"]]

    logo = get_logo.sync(str(company.current_logo_id), client=anonymous).data
    assert logo.company.name == "Banco Ñandú"
    assert sorted(asset.format_ for asset in logo.assets) == ["PDF", "PNG", "SVG"]

    colors = get_colors.sync(company.slug, client=anonymous).data
    assert colors.company.name == "Banco Ñandú"
    domains = list_domains.sync(client=anonymous).data
    assert {entry.name for entry in domains} == {"Acme", "Banco Ñandú", "Café Sol"}
    # The domain lookup: a web address on one of them, as a person would paste it.
    entry = next(entry for entry in domains if entry.name == "Café Sol")
    found = get_domain_company.sync(f"https://www.{entry.domain}/contacto", client=anonymous)
    assert (found.data.name, found.data.slug) == ("Café Sol", entry.slug)


def test_it_fetches_a_logo_as_an_image_by_domain(generated, anonymous, catalogue):
    get_logo_image = api(generated, "catalogue.get_logo_image")
    size = model(generated, "GetLogoImageFormat")
    company = catalogue.logos[0].company
    domain = company.domains.get().domain

    response = get_logo_image.sync_detailed(
        domain,
        client=anonymous,
        size=48,
        format_=size.WEBP,
        theme=model(generated, "GetLogoImageTheme").DARK,
    )

    assert response.status_code == 200
    assert response.headers["content-type"] == "image/webp"
    picture = Image.open(io.BytesIO(response.content))
    assert (picture.format, picture.size) == ("WEBP", (48, 48))
    unknown = get_logo_image.sync_detailed("nobody.example", client=anonymous)
    assert (unknown.status_code, unknown.headers["x-logo-fallback"]) == (200, "monogram")


def test_it_downloads_a_logo_file_through_the_returned_link(generated, signed_in, catalogue):
    download_logo = api(generated, "catalogue.download_logo")
    by_format = model(generated, "DownloadByFormatInputRequest")
    logo = catalogue.logos[0]

    response = download_logo.sync_detailed(
        str(logo.id), client=signed_in, body=by_format(format_="svg")
    )

    assert response.status_code == 200
    link = response.parsed
    assert link.data.expires_in == 3600
    assert link.data.filename.endswith(".svg")
    assert link.quota.unlimited is True
    file = httpx.get(link.data.url)
    assert file.status_code == 200
    assert file.content == svg_bytes()


def test_it_creates_lists_reads_changes_and_deletes_palettes(generated, signed_in):
    palettes = "palettes."
    create = api(generated, palettes + "create_palette")
    list_ = api(generated, palettes + "list_palettes")
    get = api(generated, palettes + "get_palette")
    update = api(generated, palettes + "update_palette")
    delete = api(generated, palettes + "delete_palette")
    palette_shape = model(generated, "PaletteShapeInputRequest")
    gradient_shape = model(generated, "GradientShapeInputRequest")
    gradient = model(generated, "GradientRequest")
    stop = model(generated, "GradientStopRequest")
    kind = model(generated, "GradientKindEnum")
    patch = model(generated, "PatchedPaletteUpdateInputRequest")

    created = create.sync(
        client=signed_in,
        body=palette_shape(name="Brand", type_="PALETTE", colors=["#c8102e", "#FFFFFF"]),
    ).data
    gradient_created = create.sync(
        client=signed_in,
        body=gradient_shape(
            name="Sunset",
            type_="GRADIENT",
            colors=gradient(
                kind=kind.LINEAR,
                angle=90,
                stops=[stop(hex_="#FF0000", position=0), stop(hex_="#0000FF", position=100)],
            ),
        ),
    ).data
    assert (created.name, created.type_, created.colors) == (
        "Brand",
        "PALETTE",
        ["#C8102E", "#FFFFFF"],
    )
    assert gradient_created.colors.kind == "linear"

    listed = list_.sync(client=signed_in)
    assert {palette.name for palette in listed.data} == {"Brand", "Sunset"}
    assert listed.quota.used == 2

    assert get.sync(str(created.id), client=signed_in).data.name == "Brand"

    changed = update.sync(
        str(created.id), client=signed_in, body=patch(name="Brand 2", is_public=True)
    ).data
    assert (changed.name, changed.is_public) == ("Brand 2", True)

    assert delete.sync_detailed(str(created.id), client=signed_in).status_code == 204
    gone = get.sync_detailed(str(created.id), client=signed_in)
    assert (gone.status_code, gone.parsed.error) == (404, "PALETTE_NOT_FOUND")


def test_it_uploads_a_proposal_and_lists_it(generated, signed_in, catalogue):
    create = api(generated, "proposals.create_proposal")
    list_ = api(generated, "proposals.list_proposals")
    body = model(generated, "ProposalCreateInputRequest")
    file = generated.types.File(payload=io.BytesIO(png_bytes()), file_name="logo.png")
    company = catalogue.logos[0].company

    proposal = create.sync(
        client=signed_in,
        body=body(file=file, company_slug=company.slug, notes="The new one."),
    ).data

    assert (proposal.status, proposal.company_name, proposal.notes) == (
        "PENDING",
        company.name,
        "The new one.",
    )
    assert (proposal.file.format_, proposal.file.content_type) == ("PNG", "image/png")
    assert [item.id for item in list_.sync(client=signed_in).data] == [proposal.id]


def test_it_links_a_device_and_uses_the_token_it_gets(generated, anonymous, base_url, pro_user):
    start = api(generated, "account.start_device_link")
    exchange = api(generated, "account.exchange_device_code")
    get_me = api(generated, "account.get_me")
    code_body = model(generated, "DeviceCodeInputRequest")
    plugin_source = model(generated, "PluginSourceEnum")
    token_body = model(generated, "DeviceTokenInputRequest")

    started = start.sync(
        client=anonymous, body=code_body(source=plugin_source.FIGMA, client_name="Figma at work")
    ).data
    # The person approves on the website's /device page, signed in.
    site = DjangoClient()
    site.force_login(pro_user)
    approved = site.post("/device", {"user_code": started.user_code, "action": "approve"})
    assert approved.status_code == 200

    granted = exchange.sync(client=anonymous, body=token_body(device_code=started.device_code))
    assert sorted(granted.data.scopes) == sorted(Scope.values)
    plugin = generated.AuthenticatedClient(
        base_url=base_url, token=granted.data.token, raise_on_unexpected_status=True
    )
    me = get_me.sync(client=plugin)
    assert me.authenticated is True
    assert (me.token.name, me.token.source, me.user.plan) == ("Figma at work", "FIGMA", "PRO")
