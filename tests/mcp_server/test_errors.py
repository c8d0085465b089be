"""What the API refuses reaches the agent as a tool error with the API's code and
message, when to retry and which scope is missing; and what the API records of a call
made through the MCP server (source, address) is the API's own doing."""

import os
import subprocess
import sys

import anyio
import pytest

from accounts.models import Plan, Scope, Source
from directory.downloads.models import Download
from tests.factories import LogoFactory, UserFactory, add_file, make_current, svg_bytes, token_for
from tests.mcp_server.conftest import checked, error_text, stdio, tool_schemas
from tests.network import free_port
from tests.reliability.servers import ROOT

pytestmark = pytest.mark.django_db(transaction=True)


def logos(count: int) -> list[str]:
    ids = []
    for _ in range(count):
        logo = LogoFactory()
        add_file(logo, svg_bytes())
        ids.append(str(make_current(logo).id))
    return ids


async def download_all(client, ids: list[str]) -> list:
    schema = (await tool_schemas(client))["download_logo"].output_schema
    results = []
    for logo_id in ids:
        result = await client.call_tool("download_logo", {"id": logo_id, "format": "SVG"})
        results.append(checked(result, schema) if not result.is_error else result)
    return results


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_it_reports_a_free_accounts_spent_quota_with_the_time_to_retry(transport, request, app):
    ids = logos(6)
    token = token_for(UserFactory(plan=Plan.FREE), scopes=[Scope.READ_LOGOS], source=Source.MCP)

    async def scenario():
        if transport == "stdio":
            client = stdio(app.url, token)
        else:
            client = request.getfixturevalue("mcp_http").client(token=token)
        async with client:
            return await download_all(client, ids)

    *granted, refused = anyio.run(scenario)

    assert [grant["quota"]["remaining"] for grant in granted] == [4, 3, 2, 1, 0]
    text = error_text(refused)
    assert text.startswith("DOWNLOAD_LIMIT_REACHED (HTTP 429): ")
    retry_after = int(text.split("Retry after ")[1].split(" ")[0])
    assert 86000 < retry_after <= 86400
    # The oldest counted download is the first: its unit is the next to free up.
    assert f"frees up at {granted[-1]['quota']['resetAt']}" in text
    assert "5 of 5 used" in text
    assert set(Download.objects.values_list("source", flat=True)) == {Source.MCP}
    assert Download.objects.filter(counted=True).count() == 5


def test_it_names_the_scope_a_token_lacks(app):
    read_only = token_for(UserFactory(), scopes=[Scope.READ_LOGOS])

    async def scenario():
        async with stdio(app.url, read_only) as client:
            return [
                await client.call_tool("list_palettes", {}),
                await client.call_tool(
                    "create_palette",
                    {"name": "X", "type": "PALETTE", "colors": ["#000000", "#FFFFFF"]},
                ),
            ]

    reading, writing = (error_text(result) for result in anyio.run(scenario))

    assert reading.startswith("INSUFFICIENT_SCOPE (HTTP 403): ")
    assert "lacks the scope read:palettes" in reading
    assert "lacks the scope write:palettes" in writing
    assert f"{app.url}/account/tokens" in writing


def test_it_says_when_to_retry_once_the_request_rate_is_spent(app):
    async def scenario():
        async with stdio(app.url) as client:
            return [await client.call_tool("whoami", {}) for _ in range(21)]

    *answered, limited = anyio.run(scenario)

    assert not any(result.is_error for result in answered)
    text = error_text(limited)
    assert text.startswith("RATE_LIMITED (HTTP 429): ")
    assert 1 <= int(text.split("Retry after ")[1].split(" ")[0]) <= 60


def test_it_passes_the_agents_own_token_through_over_http(mcp_http):
    api_token = token_for(UserFactory(first_name="Grace"), scopes=[Scope.READ_LOGOS])

    async def scenario():
        async with mcp_http.client(token=api_token) as signed_in:
            me = await signed_in.call_tool("whoami", {})
        async with mcp_http.client(token="lgd_" + "0" * 42) as mistyped:
            refused = await mistyped.call_tool("whoami", {})
        return me, refused

    me, refused = anyio.run(scenario)

    # The token's own source applies, not MCP: the API decides.
    assert me.structured_content["token"]["source"] == "API"
    assert me.structured_content["user"]["firstName"] == "Grace"
    assert error_text(refused).startswith("INVALID_TOKEN (HTTP 401): ")


def test_it_records_an_api_tokens_download_through_mcp_with_the_tokens_source(app):
    (logo_id,) = logos(1)
    token = token_for(UserFactory(plan=Plan.PRO), scopes=[Scope.READ_LOGOS], source=Source.API)

    async def scenario():
        async with stdio(app.url, token) as client:
            return await download_all(client, [logo_id])

    anyio.run(scenario)

    assert Download.objects.get().source == Source.API


@pytest.mark.parametrize("app_env", [{"TRUSTED_PROXY_COUNT": "1"}])
def test_it_forwards_the_agents_address_to_an_api_that_trusts_its_proxy(mcp_http):
    # The app behind one proxy; the MCP process beside it, behind the same proxy, which
    # has appended the agent's address to X-Forwarded-For.
    (logo_id,) = logos(1)

    async def scenario():
        async with mcp_http.client(headers={"X-Forwarded-For": "203.0.113.9"}) as client:
            return await download_all(client, [logo_id])

    anyio.run(scenario)

    download = Download.objects.get()
    assert (download.ip, download.source, download.user) == ("203.0.113.9", Source.MCP, None)


def test_it_reports_an_unreachable_api_as_a_tool_error():
    async def scenario():
        async with stdio(f"http://127.0.0.1:{free_port()}") as client:
            return await client.call_tool("whoami", {})

    assert error_text(anyio.run(scenario)).startswith("API_UNREACHABLE: ")


def test_it_refuses_a_process_wide_token_over_http():
    result = subprocess.run(
        [sys.executable, "-m", "mcp_server", "--transport", "http"],
        cwd=ROOT,
        env={**os.environ, "LOGO_DIRECTORY_TOKEN": "lgd_x", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 2
    assert "LOGO_DIRECTORY_TOKEN is for stdio only" in result.stderr
