"""`logo-directory-mcp`: the MCP server over stdio (default) or Streamable HTTP."""

import argparse

import anyio
import uvicorn

from mcp_server.config import from_environment
from mcp_server.server import build, http_app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="logo-directory-mcp",
        description=(
            "The logo directory's MCP server, a client of its public API "
            "(LOGO_DIRECTORY_URL, default http://127.0.0.1:8000)."
        ),
    )
    parser.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (one agent, token from LOGO_DIRECTORY_TOKEN) or http (Streamable HTTP "
        "at /mcp on MCP_HOST:MCP_PORT, each agent's own bearer token passed through)",
    )
    arguments = parser.parse_args(argv)
    settings = from_environment()
    if arguments.transport == "http" and settings.token:
        # A hosted server serves many agents: one token for all of them would make every
        # agent act as that account. Each agent sends its own.
        parser.error("LOGO_DIRECTORY_TOKEN is for stdio only; over HTTP each agent sends its own")
    server, api = build(settings)

    async def serve() -> None:
        try:
            if arguments.transport == "stdio":
                await server.run_stdio_async()
            else:
                config = uvicorn.Config(
                    http_app(server, settings),
                    host=settings.host,
                    port=settings.port,
                    log_level="warning",
                    # The agent's address, for X-Forwarded-For, is read from the
                    # header by the tools, not rewritten by uvicorn.
                    proxy_headers=False,
                )
                await uvicorn.Server(config).serve()
        finally:
            await api.aclose()

    anyio.run(serve)
