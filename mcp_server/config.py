"""The server's settings, from the environment (docs/mcp.md, "Configuration")."""

import os
from dataclasses import dataclass

DEFAULT_API_URL = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class Settings:
    api_url: str  # the service's origin, without a trailing slash
    token: str | None  # stdio only: the token every call of this process sends
    host: str
    port: int
    allowed_hosts: list[str]  # HTTP only: Host header values accepted, empty for any


def _port(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip() or str(default)
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise SystemExit(f"{name} must be a port number, not {raw!r}")
    return int(raw)


def from_environment() -> Settings:
    api_url = os.environ.get("LOGO_DIRECTORY_URL", "").strip() or DEFAULT_API_URL
    if not api_url.startswith(("http://", "https://")):
        raise SystemExit(f"LOGO_DIRECTORY_URL must start with http:// or https://: {api_url!r}")
    allowed = os.environ.get("MCP_ALLOWED_HOSTS", "")
    return Settings(
        api_url=api_url.rstrip("/"),
        token=os.environ.get("LOGO_DIRECTORY_TOKEN", "").strip() or None,
        host=os.environ.get("MCP_HOST", "").strip() or "127.0.0.1",
        port=_port("MCP_PORT", 8001),
        allowed_hosts=[host.strip() for host in allowed.split(",") if host.strip()],
    )
