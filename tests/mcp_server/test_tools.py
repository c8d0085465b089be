"""Every tool, driven through the SDK's client over stdio and over Streamable HTTP,
against the app under gunicorn: with a token of every scope and without one.

Each successful call's structured content is validated against the output schema the
tool declares, and its text content is the same JSON.
"""

import uuid
from dataclasses import dataclass

import anyio
import httpx2
import pytest

from accounts.models import Plan, Scope, Source
from directory.catalogue.models import Logo
from directory.downloads.models import Download
from tests.factories import (
    PDF_BYTES,
    CompanyFactory,
    DomainFactory,
    LogoFactory,
    PaletteFactory,
    SectorFactory,
    UserFactory,
    add_file,
    make_current,
    png_bytes,
    svg_bytes,
    token_for,
)
from tests.mcp_server.conftest import checked, error_text, stdio, tool_schemas

pytestmark = pytest.mark.django_db(transaction=True)

TOOLS = {
    "search_companies",
    "get_company",
    "get_brand_colors",
    "lookup_domain",
    "search_logos",
    "get_logo",
    "download_logo",
    "list_palettes",
    "create_palette",
    "update_palette",
    "delete_palette",
    "whoami",
}
PALETTE_TOOLS = {"list_palettes", "create_palette", "update_palette", "delete_palette"}


@dataclass(frozen=True)
class Entry:
    """What a test needs of a company and its current logo, read before the event loop
    starts (the ORM is not for async code)."""

    logo_id: str
    slug: str
    company_id: str

    @classmethod
    def of(cls, logo: Logo) -> "Entry":
        return cls(logo_id=str(logo.id), slug=logo.company.slug, company_id=str(logo.company_id))


@dataclass(frozen=True)
class Catalogue:
    logos: list[Entry]


@pytest.fixture
def catalogue() -> Catalogue:
    """Companies with a current logo in SVG, PNG and PDF (so with previews and colours),
    each with its website's domain."""
    sector = SectorFactory(slug="banking", name="Banking")
    logos = []
    for name, domain in (
        ("Acme", "acme.example"),
        ("Banco Ñandú", "nandu.example"),
        ("Café Sol", "cafesol.example"),
    ):
        company = CompanyFactory(name=name, sector=sector, website=f"https://{domain}")
        DomainFactory(company=company, domain=domain)
        logo = LogoFactory(company=company)
        add_file(logo, svg_bytes())
        add_file(logo, png_bytes())
        add_file(logo, PDF_BYTES)
        logos.append(Entry.of(make_current(logo)))
    return Catalogue(logos=logos)


@pytest.fixture
def pro_token() -> str:
    """A PRO account (unlimited downloads) with one palette, and its token of every
    scope made for an MCP client."""
    user = UserFactory(plan=Plan.PRO, first_name="Ada")
    PaletteFactory(owner=user, name="Brand")
    return token_for(user, scopes=Scope.values, source=Source.MCP, name="Agent")


async def every_tool(client, catalogue: Catalogue, *, signed_in: bool) -> dict:
    """Lists the tools, then calls each one once or more; returns the last results."""
    tools = await tool_schemas(client)
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and tool.input_schema["type"] == "object"
        assert tool.output_schema["type"] == "object"
        assert tool.annotations is not None and tool.annotations.read_only_hint is not None
    schema = {name: tool.output_schema for name, tool in tools.items()}
    assert tools["download_logo"].annotations.read_only_hint is False
    assert "quota" in tools["download_logo"].description.lower()
    assert tools["delete_palette"].annotations.destructive_hint is True

    async def call(tool: str, /, **arguments):
        return await client.call_tool(tool, arguments)

    acme, nandu, _ = catalogue.logos
    found = await call("search_companies", q="nandu")
    body = checked(found, schema["search_companies"])
    assert [company["name"] for company in body["data"]] == ["Banco Ñandú"]
    assert "related" not in body
    assert [block.mime_type for block in found.content if block.type == "image"] == ["image/png"]
    widened = checked(
        await call("search_companies", q="banco", related=True), schema["search_companies"]
    )
    assert isinstance(widened["related"], list)

    detail = await call("get_company", slug=nandu.slug)
    company = checked(detail, schema["get_company"])
    assert company["data"]["currentLogoId"] == nandu.logo_id
    assert [block.mime_type for block in detail.content if block.type == "image"] == ["image/png"]
    # A dot segment stays in the path: "/companies/.." would be the API's root.
    nowhere = error_text(await call("get_company", slug=".."))
    assert nowhere.startswith("COMPANY_NOT_FOUND (HTTP 404): "), nowhere
    colors = checked(await call("get_brand_colors", slug=nandu.slug), schema["get_brand_colors"])
    assert colors["data"]["colors"] == ["#C8102E"]

    match = checked(
        await call("lookup_domain", domain="https://WWW.Shop.Acme.Example./contact?x=1"),
        schema["lookup_domain"],
    )
    assert (match["found"], match["data"]["slug"]) == (True, acme.slug)
    missing = checked(
        await call("lookup_domain", domain="elsewhere.example"), schema["lookup_domain"]
    )
    assert (missing["found"], missing["data"]) == (False, None)

    logos = checked(await call("search_logos", q="cafe", pageSize=5), schema["search_logos"])
    assert [logo["company"]["name"] for logo in logos["data"]] == ["Café Sol"]

    logo = await call("get_logo", id=nandu.logo_id)
    assert checked(logo, schema["get_logo"])["data"]["formats"] == ["SVG", "PNG", "PDF"]
    image = next(block for block in logo.content if block.type == "image")
    assert image.mime_type == "image/png" and image.data

    # Formats in either case, as the API takes them.
    download = await call("download_logo", id=nandu.logo_id, format="svg")
    link = checked(download, schema["download_logo"])
    assert link["data"]["filename"].endswith(".svg")
    assert link["quota"]["unlimited"] is signed_in
    file = httpx2.get(link["data"]["url"])
    assert (file.status_code, file.content) == (200, svg_bytes())

    me = checked(await call("whoami"), schema["whoami"])
    assert me["authenticated"] is signed_in

    results = {"whoami": me}
    if not signed_in:
        for name, arguments in (
            ("list_palettes", {}),
            ("create_palette", {"name": "X", "type": "PALETTE", "colors": ["#000000", "#FFFFFF"]}),
            ("update_palette", {"id": str(uuid.uuid4()), "name": "Y"}),
            ("delete_palette", {"id": str(uuid.uuid4())}),
        ):
            text = error_text(await call(name, **arguments))
            assert text.startswith("INVALID_TOKEN (HTTP 401): "), text
            assert "needs a token" in text
        return results

    listed = checked(await call("list_palettes"), schema["list_palettes"])
    assert [palette["name"] for palette in listed["data"]] == ["Brand"]
    created = checked(
        await call(
            "create_palette",
            name="Nandú",
            type="PALETTE",
            colors=["#c8102e", "#FFFFFF"],
            companyId=nandu.company_id,
        ),
        schema["create_palette"],
    )["data"]
    assert created["colors"] == ["#C8102E", "#FFFFFF"]
    assert created["company"]["name"] == "Banco Ñandú"
    gradient = checked(
        await call(
            "create_palette",
            name="Dusk",
            type="GRADIENT",
            colors={
                "kind": "linear",
                "angle": 90,
                "stops": [{"hex": "#000000", "position": 0}, {"hex": "#FFFFFF", "position": 100}],
            },
        ),
        schema["create_palette"],
    )["data"]
    assert gradient["colors"]["kind"] == "linear"
    # Only what is given changes; an explicit null unlinks the company.
    renamed = checked(
        await call("update_palette", id=created["id"], name="Ñandú", companyId=None),
        schema["update_palette"],
    )["data"]
    assert (renamed["name"], renamed["colors"], renamed["company"]) == (
        "Ñandú",
        ["#C8102E", "#FFFFFF"],
        None,
    )
    deleted = checked(await call("delete_palette", id=gradient["id"]), schema["delete_palette"])
    assert deleted == {"id": gradient["id"], "deleted": True}
    again = error_text(await call("delete_palette", id=gradient["id"]))
    assert again.startswith("PALETTE_NOT_FOUND (HTTP 404): ")
    return results


def test_it_serves_every_tool_over_stdio_with_a_token(app, catalogue, pro_token):
    async def scenario():
        async with stdio(app.url, pro_token) as client:
            return await every_tool(client, catalogue, signed_in=True)

    me = anyio.run(scenario)["whoami"]
    assert me["user"]["firstName"] == "Ada"
    assert (me["token"]["name"], me["token"]["source"]) == ("Agent", "MCP")
    assert Download.objects.get().source == Source.MCP


def test_it_serves_every_tool_over_stdio_without_a_token(app, catalogue):
    async def scenario():
        async with stdio(app.url) as client:
            return await every_tool(client, catalogue, signed_in=False)

    assert anyio.run(scenario)["whoami"] == {"authenticated": False}
    # An anonymous download made through MCP is recorded as coming from MCP.
    download = Download.objects.get()
    assert (download.source, download.user, download.ip) == (Source.MCP, None, "127.0.0.1")


def test_it_serves_every_tool_over_http_with_the_agents_token(mcp_http, catalogue, pro_token):
    async def scenario():
        async with mcp_http.client(token=pro_token) as client:
            return await every_tool(client, catalogue, signed_in=True)

    assert anyio.run(scenario)["whoami"]["token"]["source"] == "MCP"
    assert Download.objects.get().source == Source.MCP


def test_it_serves_every_tool_over_http_without_a_token(mcp_http, catalogue):
    async def scenario():
        async with mcp_http.client() as client:
            return await every_tool(client, catalogue, signed_in=False)

    assert anyio.run(scenario)["whoami"] == {"authenticated": False}
    assert Download.objects.get().source == Source.MCP
