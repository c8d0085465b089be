"""A live service for the MCP server to talk to: the app under gunicorn against the test
database (tests/reliability/servers.py), and the MCP server itself, spawned over stdio
by the SDK's client or started as its HTTP process.
"""

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import jsonschema
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from tests.network import free_port
from tests.project import ROOT, database_url
from tests.reliability.servers import AppServer, accepts_connections, wait_until


@pytest.fixture
def start_app(tmp_path) -> Iterator[Callable[..., AppServer]]:
    """Starts the app under gunicorn, with the media folder the factories write to
    (tests/conftest.py puts it in the test's tmp_path) and a cache of its own, so that
    each test starts with fresh rate-limit counts."""
    servers: list[AppServer] = []

    def start(**env: str) -> AppServer:
        port = free_port()
        server = AppServer(
            port,
            {
                "DEBUG": "1",
                # Preview and download links point back at this server.
                "SITE_URL": f"http://127.0.0.1:{port}",
                "DATABASE_URL": database_url(),
                "REDIS_URL": "",
                "MEDIA_ROOT": str(tmp_path / "media"),
                "STORAGE_BACKEND": "local",
                **env,
            },
        )
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        log = server.stop()
        assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def app_env() -> dict[str, str]:
    """More of the app's environment: a test parametrizes it to change it."""
    return {}


@pytest.fixture
def app(start_app, app_env) -> AppServer:
    return start_app(**app_env)


def stdio(api_url: str, token: str | None = None) -> Client:
    """The SDK's client, spawning the server as an agent's desktop host would."""
    env = {"LOGO_DIRECTORY_URL": api_url, "PYTHONPATH": str(ROOT)}
    if token:
        env["LOGO_DIRECTORY_TOKEN"] = token
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "mcp_server"], env=env, cwd=ROOT
    )
    return Client(parameters, read_timeout_seconds=60)


@dataclass
class McpHttpServer:
    url: str
    process: subprocess.Popen

    def client(self, *, token: str | None = None, headers: dict[str, str] | None = None):
        """The SDK's client over Streamable HTTP, sending the agent's own headers."""
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        transport = streamable_http_client(
            f"{self.url}/mcp", http_client=httpx2.AsyncClient(headers=sent, timeout=60)
        )
        return Client(transport, read_timeout_seconds=60)


@pytest.fixture
def mcp_http(app) -> Iterator[McpHttpServer]:
    """The HTTP transport's process, as docker-compose.yml runs it beside gunicorn."""
    port = free_port()
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [sys.executable, "-m", "mcp_server", "--transport", "http"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("LOGO_DIRECTORY_")},
            "LOGO_DIRECTORY_URL": app.url,
            "MCP_HOST": "127.0.0.1",
            "MCP_PORT": str(port),
            "PYTHONPATH": str(ROOT),
        },
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        wait_until(lambda: accepts_connections(port), timeout=30, what="the MCP HTTP server")
        yield McpHttpServer(url=f"http://127.0.0.1:{port}", process=process)
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        if process.poll() is None:
            process.kill()
        log.seek(0)
        logged = log.read().decode(errors="replace")
        log.close()
        assert "Traceback" not in logged, logged[-3000:]


async def tool_schemas(client: Client) -> dict[str, Any]:
    return {tool.name: tool for tool in (await client.list_tools()).tools}


def checked(result: CallToolResult, schema: dict[str, Any]) -> dict[str, Any]:
    """The structured content of a successful call, validated against the tool's own
    declared output schema, and the text content the same JSON."""
    assert not result.is_error, result.content
    jsonschema.validate(result.structured_content, schema)
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    assert result.is_error, result.structured_content
    return "\n".join(block.text for block in result.content if block.type == "text")
