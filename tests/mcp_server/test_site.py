"""What the service itself carries for agents: /llms.txt, and the MCP server's place in
docker-compose.yml and pyproject.toml."""

import re
import tomllib
from pathlib import Path

import yaml

from mcp_server import cli

ROOT = Path(__file__).resolve().parents[2]


def test_it_serves_a_plain_text_guide_for_agents_at_the_site_root(client, settings):
    settings.SITE_URL = "https://logos.example"

    response = client.get("/llms.txt")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    assert text.startswith("# Logo directory\n")
    for address in (
        "https://logos.example/v1/public/openapi.json",
        "https://logos.example/mcp",
        "https://logos.example/v1/public/companies/{slug}/colors",
        "LOGO_DIRECTORY_TOKEN",
        "logo-directory-mcp",
        "download_logo",
    ):
        assert address in text
    assert "{" not in text.replace("{slug}", "").replace("{id}", "").replace('{"', "")


def _variables_the_mcp_server_reads() -> set[str]:
    source = (ROOT / "mcp_server" / "config.py").read_text()
    return set(re.findall(r"(?:os\.environ\.get|_port)\(\"([A-Z0-9_]+)\"", source))


def test_it_runs_the_http_transport_beside_the_app_in_the_compose_file():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    mcp = compose["services"]["mcp"]

    assert mcp["command"] == ["python", "-m", "mcp_server", "--transport", "http"]
    assert set(mcp["environment"]) <= _variables_the_mcp_server_reads()
    # No process-wide token: each agent sends its own.
    assert "LOGO_DIRECTORY_TOKEN" not in mcp["environment"]
    api_host = mcp["environment"]["LOGO_DIRECTORY_URL"].split("://")[1].split(":")[0]
    assert api_host in compose["services"]["app"]["environment"]["ALLOWED_HOSTS"]
    assert "8001/healthz" in " ".join(mcp["healthcheck"]["test"])


def test_it_installs_the_console_command():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())

    assert project["project"]["scripts"]["logo-directory-mcp"] == "mcp_server.cli:main"
    assert cli.main
    assert any(dependency.startswith("mcp==") for dependency in project["project"]["dependencies"])
