"""The public API as the tools see it: one HTTP request, its caller, and its errors."""

import base64
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx2

USER_AGENT = "logo-directory-mcp/1.0.0"
PREFIX = "/v1/public"
# A tool call waits at most this long for the API; the agent is waiting too.
TIMEOUT_SECONDS = 30.0
# Previews are PNGs of at most 512 px; anything bigger, or slower, is not shown.
PREVIEW_MAX_BYTES = 1024 * 1024
PREVIEW_TIMEOUT_SECONDS = 3.0


@dataclass(frozen=True)
class Caller:
    """Who a tool call is made for: their Authorization header as they sent it (HTTP) or
    as configured (stdio), and the X-Forwarded-For chain that reached this server."""

    authorization: str | None = None
    forwarded_for: str | None = None


def segment(text: str) -> str:
    """Text as one path segment: every character but the unreserved ones percent-encoded,
    and "." and ".." too, which HTTP clients would otherwise read as "this folder" and
    "the folder above" (GET /domains/. would be the whole list)."""
    encoded = quote(text, safe="")
    return encoded.replace(".", "%2E") if encoded in {".", ".."} else encoded


def scope_for(method: str, path: str) -> str | None:
    """The token scope the API asks of a request (docs/api.md, "Authentication and
    scopes")."""
    if path.startswith("/palettes"):
        return "read:palettes" if method == "GET" else "write:palettes"
    if path.startswith("/proposals"):
        return "write:proposals"
    if path.startswith(("/companies", "/logos", "/domains")):
        return "read:logos"
    return None


class ApiError(Exception):
    """An answer of the API other than a success, or no answer at all.

    `code` and `message` are the API's own (`{"error", "message"}`); a failure to reach
    it, or a body of another shape (a proxy's error page), gets a code made here:
    API_UNREACHABLE or HTTP_<status>.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int | None = None,
        retry_after: int | None = None,
        scope: str | None = None,
        body: dict[str, Any] | None = None,
        token_page: str | None = None,
        anonymous: bool = False,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.scope = scope
        self.body = body or {}
        self.token_page = token_page
        self.anonymous = anonymous

    def describe(self) -> str:
        """The text an agent reads: the code and message first, then what to do next."""
        status = f" (HTTP {self.status})" if self.status else ""
        lines = [f"{self.code}{status}: {self.message}"]
        if self.retry_after is not None:
            lines.append(f"Retry after {self.retry_after} seconds.")
        quota = self.body.get("quota")
        if isinstance(quota, dict) and quota.get("resetAt"):
            lines.append(
                f"Download quota: {quota.get('used')} of {quota.get('limit')} used; "
                f"the next unit frees up at {quota['resetAt']}."
            )
        if self.code == "INSUFFICIENT_SCOPE" and self.scope:
            lines.append(
                f"The token lacks the scope {self.scope}: make a token with {self.scope} "
                f"at {self.token_page} and use it instead."
            )
        if self.code == "INVALID_TOKEN" and self.anonymous:
            lines.append(
                "This tool needs a token: set LOGO_DIRECTORY_TOKEN (stdio) or send "
                f"Authorization: Bearer <token> (HTTP). Tokens are made at {self.token_page}."
            )
        return "\n".join(lines)


def _retry_after(response: httpx2.Response) -> int | None:
    value = response.headers.get("Retry-After", "")
    return int(value) if value.isdigit() else None


class Api:
    """An HTTP client of one service, shared by every tool call of the process."""

    def __init__(self, base_url: str, *, transport: httpx2.AsyncBaseTransport | None = None):
        self.base_url = base_url
        self.token_page = f"{base_url}/account/tokens"
        self._transport = transport
        self._client: httpx2.AsyncClient | None = None

    @property
    def client(self) -> httpx2.AsyncClient:
        # Made on first use, inside the event loop that serves the calls.
        if self._client is None:
            self._client = httpx2.AsyncClient(
                base_url=self.base_url + PREFIX,
                timeout=TIMEOUT_SECONDS,
                headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
                transport=self._transport,
                follow_redirects=False,
            )
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def headers(self, caller: Caller) -> dict[str, str]:
        # The API reads X-Service-Source only when no token is sent; with a token, the
        # token's own source is recorded. Sending it always is therefore harmless.
        headers = {"X-Service-Source": "MCP"}
        if caller.authorization:
            headers["Authorization"] = caller.authorization
        if caller.forwarded_for:
            headers["X-Forwarded-For"] = caller.forwarded_for
        return headers

    async def send(
        self,
        method: str,
        path: str,
        caller: Caller,
        *,
        params: dict[str, Any] | None = None,
        json: dict[str, Any] | None = None,
        extra_headers: dict[str, str] | None = None,
    ) -> httpx2.Response:
        """The API's response to one request; any answer but 2xx or 304 raises ApiError."""
        query = {key: value for key, value in (params or {}).items() if value is not None}
        try:
            response = await self.client.request(
                method,
                path,
                params=query,
                json=json,
                headers={**self.headers(caller), **(extra_headers or {})},
            )
        except httpx2.HTTPError as error:
            raise ApiError(
                "API_UNREACHABLE",
                f"The logo directory at {self.base_url} did not answer: {error!r}",
            ) from error
        if response.is_success or response.status_code == 304:
            return response
        raise self._error(method, path, caller, response)

    async def call(self, method: str, path: str, caller: Caller, **kwargs: Any) -> dict[str, Any]:
        """The JSON body of the API's answer; {} for 204 No Content."""
        response = await self.send(method, path, caller, **kwargs)
        return response.json() if response.content else {}

    def _error(self, method: str, path: str, caller: Caller, response: httpx2.Response) -> ApiError:
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict) and isinstance(body.get("error"), str):
            code, message = body["error"], str(body.get("message", ""))
        else:
            body = None
            code = f"HTTP_{response.status_code}"
            message = f"{method} {PREFIX}{path} answered {response.status_code}, not an API error"
        return ApiError(
            code,
            message,
            status=response.status_code,
            retry_after=_retry_after(response),
            scope=scope_for(method, path),
            body=body,
            token_page=self.token_page,
            anonymous=caller.authorization is None,
        )

    async def preview(self, url: str | None) -> tuple[str, str] | None:
        """A preview image as (base64 data, media type), or None when it cannot be had
        quickly: previews are a courtesy to agents that show images, never a failure."""
        if not url or not re.match(r"https?://", url):
            return None
        try:
            async with self.client.stream(
                "GET", url, timeout=PREVIEW_TIMEOUT_SECONDS, headers={"Accept": "image/*"}
            ) as response:
                media_type = response.headers.get("Content-Type", "").split(";")[0].strip()
                if response.status_code != 200 or not media_type.startswith("image/"):
                    return None
                data = bytearray()
                async for chunk in response.aiter_bytes():
                    data += chunk
                    if len(data) > PREVIEW_MAX_BYTES:
                        return None
        except httpx2.HTTPError:
            return None
        return base64.b64encode(bytes(data)).decode(), media_type
