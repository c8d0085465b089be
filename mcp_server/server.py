"""The MCP server: its tools over stdio or Streamable HTTP, in front of one API."""

import logging

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse

from mcp_server.api import Api
from mcp_server.config import Settings
from mcp_server.tools import Tools

INSTRUCTIONS = """\
The logo directory: logos, brand colours and logo files of the companies of Spain.
Find a company with search_companies (or lookup_domain for a website), read its logos
with get_company and get_logo, its colours with get_brand_colors, and get a file with
download_logo, which spends download quota: read the formats of get_logo first.
Palettes need a token. Errors carry the API's code; a 429 says when to retry."""


def build(settings: Settings, api: Api | None = None) -> tuple[MCPServer, Api]:
    api = api or Api(settings.api_url)
    server = MCPServer(
        "logo-directory",
        title="Logo directory",
        instructions=INSTRUCTIONS,
        website_url=settings.api_url,
        version="1.0.0",
        # stderr is the agent host's log: warnings only, not a line per API request.
        log_level="WARNING",
    )
    logging.getLogger("httpx2").setLevel(logging.WARNING)
    Tools(api, settings.token).register(server)
    return server, api


def http_app(server: MCPServer, settings: Settings) -> Starlette:
    """The Streamable HTTP endpoint at /mcp, and /healthz for the container's probe.

    Stateless: no session lives in the process, so any number of processes can serve
    behind one address, and each request carries its own Authorization header.
    """

    @server.custom_route("/healthz", methods=["GET"])
    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    security = None
    if settings.allowed_hosts:
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True, allowed_hosts=settings.allowed_hosts
        )
    return server.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=True,
        json_response=True,
        transport_security=security,
        host=settings.host,
    )
