"""lookup_domain: which company a web address belongs to.

The API has no single-domain endpoint yet, so the whole list (GET /v1/public/domains)
is fetched, kept for its Cache-Control max-age (24 hours) and revalidated with its ETag,
and the address is matched here. Once GET /v1/public/domains/{domain} exists, the
lookup becomes that one request and this cache goes.
"""

import re
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import anyio

from mcp_server.api import Api, Caller

DEFAULT_MAX_AGE = 86400


def normalise(text: str) -> str | None:
    """The host of a domain or a pasted address: lower case, without a leading `www.`,
    a trailing dot, a port, credentials or a path. None when there is no host."""
    text = text.strip()
    if not text:
        return None
    # Without a scheme urlsplit reads "acme.es/contact" as a path: give it one.
    if not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", text):
        text = "//" + text
    try:
        host = urlsplit(text).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host.rstrip(".").lower()
    if host.startswith("www."):
        host = host[4:]
    return host or None


def candidates(host: str) -> list[str]:
    """The host, then each parent domain down to two labels: a shop on a subdomain
    (tienda.acme.es) belongs to the company of acme.es; a bare suffix (es) to nobody."""
    labels = host.split(".")
    return [".".join(labels[index:]) for index in range(max(len(labels) - 1, 1))]


def _max_age(cache_control: str) -> int:
    match = re.search(r"max-age=(\d+)", cache_control)
    return int(match.group(1)) if match else DEFAULT_MAX_AGE


@dataclass
class DomainList:
    """The domain list as last fetched, shared by every call of the process: it is the
    same public list for every caller (Cache-Control: public)."""

    api: Api
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    generated_at: str | None = None
    etag: str | None = None
    fresh_until: float = 0.0
    _lock: anyio.Lock = field(default_factory=anyio.Lock)

    async def current(self, caller: Caller) -> tuple[dict[str, dict[str, Any]], str | None]:
        """The entries by domain and when the list was generated, fetched when stale."""
        async with self._lock:
            if time.monotonic() >= self.fresh_until:
                await self._refresh(caller)
        return self.entries, self.generated_at

    async def _refresh(self, caller: Caller) -> None:
        conditional = {"If-None-Match": self.etag} if self.etag else None
        response = await self.api.send("GET", "/domains", caller, extra_headers=conditional)
        if response.status_code != 304:
            body = response.json()
            self.entries = {entry["domain"]: entry for entry in body["data"]}
            self.generated_at = body.get("generatedAt")
            self.etag = response.headers.get("ETag")
        self.fresh_until = time.monotonic() + _max_age(response.headers.get("Cache-Control", ""))
