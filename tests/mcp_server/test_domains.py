"""lookup_domain: one request to the API's domain lookup, whatever an agent pastes."""

import re

import anyio
import pytest

from tests.factories import (
    CompanyFactory,
    DomainFactory,
    LogoFactory,
    add_file,
    make_current,
    png_bytes,
)
from tests.mcp_server.conftest import checked, stdio, tool_schemas

pytestmark = pytest.mark.django_db(transaction=True)

FOUND = [
    "acme.example",
    "ACME.EXAMPLE",
    "www.acme.example.",
    "https://WWW.Shop.Acme.Example./contact?x=1#top",
    "eu.tienda.acme.example",
    "españa.example",
    "ESPAÑA.example",
    "xn--espaa-rta.example",
]
NOT_FOUND = {
    "elsewhere.example": "No company is known by the domain elsewhere.example.",
    "localhost": "'localhost' is not a domain name: no company is known by it.",
    # Dot segments: sent as they are, the client would ask for /domains (the whole list).
    ".": "'.' is not a domain name: no company is known by it.",
    "..": "'..' is not a domain name: no company is known by it.",
}


def test_it_looks_each_domain_up_with_one_request_to_the_api(app):
    acme = CompanyFactory(name="Acme", website="https://www.acme.example/inicio")
    DomainFactory(company=acme, domain="xn--espaa-rta.example")  # españa.example
    add_file(LogoFactory(company=acme), png_bytes())
    make_current(acme.logos.get())

    async def scenario():
        async with stdio(app.url) as client:
            schema = (await tool_schemas(client))["lookup_domain"].output_schema
            calls = {}
            for domain in [*FOUND, *NOT_FOUND]:
                result = await client.call_tool("lookup_domain", {"domain": domain})
                calls[domain] = (checked(result, schema), result.content)
            return calls

    calls = anyio.run(scenario)

    for domain in FOUND:
        body, content = calls[domain]
        assert (body["query"], body["found"], body["message"]) == (domain, True, None)
        assert (body["data"]["id"], body["data"]["name"]) == (str(acme.id), "Acme")
        assert body["data"]["currentLogo"]["previewUrl"]
        images = [block for block in content if block.type == "image"]
        assert [image.mime_type for image in images] == ["image/png"]
    for domain, message in NOT_FOUND.items():
        body, content = calls[domain]
        assert body == {"query": domain, "found": False, "data": None, "message": message}
        assert [block.type for block in content] == ["text"]
    # One lookup a call, never the whole list.
    requests = re.findall(r"GET (/v1/public/domains\S*) (\d+)", app.logged())
    assert len(requests) == len(FOUND) + len(NOT_FOUND)
    assert all(path.startswith("/v1/public/domains/") for path, _ in requests)
