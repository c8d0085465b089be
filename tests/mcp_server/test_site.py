"""What the service itself carries for agents: /llms.txt, and the MCP server's place in
docker-compose.yml and pyproject.toml."""

import io
import re
import tomllib
from pathlib import Path

import pytest
import yaml
from PIL import Image

from mcp_server import cli
from tests.factories import CompanyFactory, LogoFactory, add_file, make_current, svg_bytes

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
        "https://logos.example/v1/public/domains/{domain}",
    ):
        assert address in text
    # Every brace a placeholder of the guide or JSON, none left over from formatting.
    assert not re.search(r'\{(?!slug\}|id\}|domain\}|")', text)


@pytest.mark.django_db
def test_it_gives_agents_a_logo_link_address_that_draws_the_logo(api, client, settings):
    settings.SITE_URL = "https://logos.example"
    acme = CompanyFactory(website="https://www.acme.example")
    logo = LogoFactory(company=acme)
    add_file(logo, svg_bytes(width=200, height=100))
    make_current(logo)

    text = client.get("/llms.txt").content.decode()

    assert "not available" not in text
    section = text.split("## Logo Link\n")[1].split("\n## ")[0]
    address = re.search(r"https://logos\.example(/v1/public/img/\{domain\}\?\S+)", section)
    assert address, section
    for option in ("size:", "shape:", "theme:", "format:", "greyscale:", "fallback"):
        assert option in section
    response = api.get(address.group(1).replace("{domain}", "acme.example"))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert "X-Logo-Fallback" not in response  # the logo itself
    assert Image.open(io.BytesIO(response.content)).size == (128, 128)


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
