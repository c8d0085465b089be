"""The tools: each one is one or more requests to the public API, made for the caller.

Every tool returns the API's response body as structured content (and as JSON text,
for clients that read text only), or, when the API refuses, a tool error carrying the
API's code and message and what to do about it. Image tools add the preview image.
"""

import functools
import inspect
import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, ContentBlock, ImageContent, TextContent, ToolAnnotations
from pydantic import BeforeValidator, Field

from mcp_server import models
from mcp_server.api import Api, ApiError, Caller, segment

# Search pages carry up to 50 items: only the first few previews are shown, so that an
# answer stays small enough for an agent's context.
PREVIEWS_PER_PAGE = 5

READ = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

# In any case, as the API takes it: "svg" is SVG.
Format = Annotated[
    Literal["SVG", "PNG", "PDF", "AI", "EPS", "ZIP"],
    BeforeValidator(lambda value: value.upper() if isinstance(value, str) else value),
]
PageNumber = Annotated[int, Field(ge=1, le=500, description="Page number, 1 to 500.")]
PageSize = Annotated[int, Field(ge=1, le=50, description="Items per page, 1 to 50.")]
Slug = Annotated[str, Field(min_length=1, max_length=255, description="The company's slug.")]
LogoId = Annotated[
    str, Field(min_length=1, max_length=255, description="The logo's id (UUID) or slug.")
]
PaletteId = Annotated[str, Field(description="The palette's id (UUID).")]
Hex = Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$", description="#RRGGBB")]
Colors = Annotated[
    list[Hex] | models.Gradient,
    Field(
        description=(
            "PALETTE: 2 to 10 #RRGGBB codes. GRADIENT: {kind: linear|radial, angle: 0-360, "
            "stops: 2 to 10 of {hex: #RRGGBB, position: 0-100}}."
        )
    ),
]


def text_and_data(body: dict[str, Any], extra: list[ContentBlock] | None = None) -> CallToolResult:
    text = TextContent(type="text", text=json.dumps(body, ensure_ascii=False))
    return CallToolResult(content=[text, *(extra or [])], structured_content=body)


def refused(error: ApiError) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=error.describe())], is_error=True)


def api_errors_as_tool_errors(tool: Callable[..., Awaitable[CallToolResult]]):
    """The API's refusals reach the agent as tool errors, not as protocol errors: the
    agent reads them and can act (wait, ask for a scope, fix an argument)."""

    @functools.wraps(tool)
    async def wrapper(*args: Any, **kwargs: Any) -> CallToolResult:
        try:
            return await tool(*args, **kwargs)
        except ApiError as error:
            return refused(error)

    return wrapper


class Tools:
    """The tools of one server process, bound to its API client and its caller rule."""

    def __init__(self, api: Api, token: str | None) -> None:
        self.api = api
        self.token = token

    def caller(self, ctx: Context) -> Caller:
        """Over HTTP, the agent's own Authorization header goes through to the API, and
        the X-Forwarded-For chain that reached this server with it (so that, behind the
        same proxy as the app, anonymous limits count the agent's address). Over stdio,
        the token of the process's environment, if any."""
        request = ctx.request_context.request
        if request is None:
            return Caller(authorization=f"Bearer {self.token}" if self.token else None)
        return Caller(
            authorization=request.headers.get("authorization"),
            forwarded_for=request.headers.get("x-forwarded-for"),
        )

    async def previews(self, items: list[tuple[str, str | None]]) -> list[ContentBlock]:
        """Each (label, preview URL) that could be fetched, as a caption and an image,
        in the order given; the ones that could not are left out without a word."""
        fetched: list[tuple[str, str] | None] = [None] * len(items)

        async def fetch(index: int, url: str | None) -> None:
            fetched[index] = await self.api.preview(url)

        async with anyio.create_task_group() as group:
            for index, (_, url) in enumerate(items):
                group.start_soon(fetch, index, url)
        blocks: list[ContentBlock] = []
        for (label, _), image in zip(items, fetched, strict=True):
            if image is not None:
                data, media_type = image
                blocks.append(TextContent(type="text", text=f"Preview: {label}"))
                blocks.append(ImageContent(type="image", data=data, mime_type=media_type))
        return blocks

    def register(self, server: MCPServer) -> None:
        for tool, annotations in (
            (self.search_companies, READ),
            (self.get_company, READ),
            (self.get_brand_colors, READ),
            (self.lookup_domain, READ),
            (self.search_logos, READ),
            (self.get_logo, READ),
            (
                self.download_logo,
                ToolAnnotations(
                    read_only_hint=False,
                    destructive_hint=False,
                    idempotent_hint=False,
                    open_world_hint=False,
                ),
            ),
            (self.list_palettes, READ),
            (
                self.create_palette,
                ToolAnnotations(
                    read_only_hint=False,
                    destructive_hint=False,
                    idempotent_hint=False,
                    open_world_hint=False,
                ),
            ),
            (
                self.update_palette,
                ToolAnnotations(
                    read_only_hint=False,
                    destructive_hint=True,
                    idempotent_hint=True,
                    open_world_hint=False,
                ),
            ),
            (
                self.delete_palette,
                ToolAnnotations(
                    read_only_hint=False,
                    destructive_hint=True,
                    idempotent_hint=True,
                    open_world_hint=False,
                ),
            ),
            (self.whoami, READ),
        ):
            server.add_tool(
                api_errors_as_tool_errors(tool),
                name=tool.__name__,
                title=tool.__name__.replace("_", " ").capitalize(),
                description=inspect.cleandoc(tool.__doc__ or ""),
                annotations=annotations,
                structured_output=True,
            )

    # The catalogue

    async def search_companies(
        self,
        ctx: Context,
        q: Annotated[
            str | None,
            Field(max_length=100, description="Name or alternative name; accents ignored."),
        ] = None,
        sector: Annotated[
            str | None, Field(max_length=100, description="Sector slug or name.")
        ] = None,
        province: Annotated[str | None, Field(max_length=120, description="Province.")] = None,
        related: Annotated[
            bool,
            Field(
                description=(
                    "Also list, on page 1, companies related to q by meaning (semantic "
                    "search), in `related`."
                )
            ),
        ] = False,
        page: PageNumber = 1,
        pageSize: PageSize = 20,
    ) -> Annotated[CallToolResult, models.CompanySearch]:
        """Search the directory's companies by name (and alternative names), optionally by
        sector and province. Each result names its current logo with a preview link; the
        first few previews are also returned as images. Use get_company for a company's
        logos and details, get_brand_colors for its colours."""
        body = await self.api.call(
            "GET",
            "/companies",
            self.caller(ctx),
            params={
                "q": q,
                "sector": sector,
                "province": province,
                "related": "true" if related else None,
                "page": page,
                "pageSize": pageSize,
            },
        )
        items = [
            (f"{company['name']} ({company['slug']})", company["currentLogo"]["previewUrl"])
            for company in body["data"]
            if company.get("currentLogo") and company["currentLogo"].get("previewUrl")
        ]
        return text_and_data(body, await self.previews(items[:PREVIEWS_PER_PAGE]))

    async def get_company(
        self, ctx: Context, slug: Slug
    ) -> Annotated[CallToolResult, models.CompanyResult]:
        """A company's details (about, website, location, founding year) and all its
        logos, the current one first, each with its available file formats, and the
        current logo's preview as an image. Metadata only: no download quota is spent."""
        body = await self.api.call("GET", f"/companies/{segment(slug)}", self.caller(ctx))
        company = body["data"]
        current = [
            (logo["title"], logo["previewUrl"])
            for logo in company["logos"]
            if logo["id"] == company["currentLogoId"]
        ]
        return text_and_data(body, await self.previews(current))

    async def get_brand_colors(
        self, ctx: Context, slug: Slug
    ) -> Annotated[CallToolResult, models.BrandColorsResult]:
        """A company's brand colours: up to 8 #RRGGBB codes from its current logo, most
        used first. `cached: false` with no colours means they are not computed yet."""
        path = f"/companies/{segment(slug)}/colors"
        return text_and_data(await self.api.call("GET", path, self.caller(ctx)))

    async def lookup_domain(
        self,
        ctx: Context,
        domain: Annotated[
            str,
            Field(
                min_length=1,
                max_length=2048,
                description="A domain (acme.es, www.acme.es) or a whole address pasted in.",
            ),
        ],
    ) -> Annotated[CallToolResult, models.DomainLookup]:
        """Which company of the directory a website belongs to, from its domain or a
        pasted address: case, a leading www., a trailing dot and a path are ignored, an
        internationalised name may be in Unicode or punycode, and a subdomain falls back
        to its parent domains down to the registered one. Answers found: true with the
        company as search_companies shows it (and its current logo's preview as an
        image), or found: false with the reason."""
        try:
            body = await self.api.call("GET", f"/domains/{segment(domain)}", self.caller(ctx))
        except ApiError as error:
            if error.code != "COMPANY_NOT_FOUND":
                raise
            return text_and_data(
                {"query": domain, "found": False, "data": None, "message": error.message}
            )
        company = body["data"]
        logo = company["currentLogo"]
        previews = [(f"{company['name']} ({company['slug']})", logo and logo["previewUrl"])]
        return text_and_data(
            {"query": domain, "found": True, **body, "message": None},
            await self.previews(previews),
        )

    async def search_logos(
        self,
        ctx: Context,
        q: Annotated[
            str | None,
            Field(max_length=100, description="Logo title or company name; accents ignored."),
        ] = None,
        page: PageNumber = 1,
        pageSize: PageSize = 20,
    ) -> Annotated[CallToolResult, models.LogoSearch]:
        """Search logos by title and company name, current logos first. Each result has its
        formats and a preview link; the first few previews are also returned as images.
        Use get_logo for variants and files, download_logo for a file."""
        body = await self.api.call(
            "GET", "/logos", self.caller(ctx), params={"q": q, "page": page, "pageSize": pageSize}
        )
        items = [
            (f"{logo['title']} ({logo['id']})", logo["previewUrl"])
            for logo in body["data"]
            if logo.get("previewUrl")
        ]
        return text_and_data(body, await self.previews(items[:PREVIEWS_PER_PAGE]))

    async def get_logo(
        self, ctx: Context, id: LogoId
    ) -> Annotated[CallToolResult, models.LogoResult]:
        """A logo's details: its company, colour palette, variants and files (metadata
        only, no links), with the preview as an image. Spends no download quota."""
        body = await self.api.call("GET", f"/logos/{segment(id)}", self.caller(ctx))
        logo = body["data"]
        return text_and_data(body, await self.previews([(logo["title"], logo["previewUrl"])]))

    async def download_logo(
        self,
        ctx: Context,
        id: LogoId,
        format: Annotated[
            Format | None,
            Field(
                description="File format, in any case (svg or SVG); required unless assetId "
                "is given."
            ),
        ] = None,
        variant: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=120,
                description="Variant id or name (see get_logo); the main variant without it.",
            ),
        ] = None,
        assetId: Annotated[
            str | None, Field(description="An exact file's id, from get_logo's assets.")
        ] = None,
    ) -> Annotated[CallToolResult, models.DownloadResult]:
        """Get a temporary link (valid 1 hour) to a logo file, with its filename and the
        caller's download quota. This SPENDS DOWNLOAD QUOTA: 3 a day anonymous (per
        address), 5 a day on a free account; the same logo again within 12 hours is
        free. Use get_logo first to see which formats and variants exist."""
        request: dict[str, Any] = {"format": format, "variant": variant, "assetId": assetId}
        body = await self.api.call(
            "POST",
            f"/logos/{segment(id)}/download",
            self.caller(ctx),
            json={key: value for key, value in request.items() if value is not None},
        )
        return text_and_data(body)

    # Palettes (a token with read:palettes or write:palettes)

    async def list_palettes(
        self,
        ctx: Context,
        page: PageNumber = 1,
        pageSize: PageSize = 20,
        type: Annotated[
            Literal["PALETTE", "GRADIENT"] | None, Field(description="Only this kind.")
        ] = None,
    ) -> Annotated[CallToolResult, models.PaletteList]:
        """The caller's saved palettes and gradients, with how many of the 100 allowed are
        used. Needs a token with read:palettes."""
        params = {"page": page, "pageSize": pageSize, "type": type}
        return text_and_data(
            await self.api.call("GET", "/palettes", self.caller(ctx), params=params)
        )

    async def create_palette(
        self,
        ctx: Context,
        name: Annotated[str, Field(min_length=1, max_length=60)],
        type: Literal["PALETTE", "GRADIENT"],
        colors: Colors,
        source: Literal["GENERATED", "IMAGE", "LOGO", "MANUAL"] = "MANUAL",
        companyId: Annotated[
            str | None, Field(description="A company's id (UUID) to link the palette to.")
        ] = None,
        isPublic: bool = False,
    ) -> Annotated[CallToolResult, models.PaletteResult]:
        """Save a palette (2 to 10 colours) or a gradient to the caller's account, at most
        100 per account. Needs a token with write:palettes."""
        body = {
            "name": name,
            "type": type,
            "colors": colors if isinstance(colors, list) else colors.model_dump(),
            "source": source,
            "companyId": companyId,
            "isPublic": isPublic,
        }
        return text_and_data(await self.api.call("POST", "/palettes", self.caller(ctx), json=body))

    async def update_palette(
        self,
        ctx: Context,
        id: PaletteId,
        name: Annotated[str | None, Field(min_length=1, max_length=60)] = None,
        colors: Colors | None = None,
        isPublic: bool | None = None,
        companyId: Annotated[
            str | None,
            Field(description="A company's id (UUID); an explicit null unlinks the company."),
        ] = None,
    ) -> Annotated[CallToolResult, models.PaletteResult]:
        """Change one of the caller's palettes: only the fields given change (give
        companyId null to unlink its company). Needs a token with write:palettes."""
        # Only the arguments the agent gave are sent: null and "not given" differ here.
        given = ctx.request_context.params.get("arguments") or {}
        values = {
            "name": name,
            "colors": colors.model_dump() if isinstance(colors, models.Gradient) else colors,
            "isPublic": isPublic,
            "companyId": companyId,
        }
        body = {key: value for key, value in values.items() if key in given}
        path = f"/palettes/{segment(id)}"
        return text_and_data(await self.api.call("PATCH", path, self.caller(ctx), json=body))

    async def delete_palette(
        self, ctx: Context, id: PaletteId
    ) -> Annotated[CallToolResult, models.Deleted]:
        """Delete one of the caller's palettes for good. Needs a token with
        write:palettes."""
        await self.api.call("DELETE", f"/palettes/{segment(id)}", self.caller(ctx))
        return text_and_data({"id": id, "deleted": True})

    # The account

    async def whoami(self, ctx: Context) -> Annotated[CallToolResult, models.Me]:
        """Whether calls are made with a token, and if so for whom: the account's plan and
        the token's name, scopes, source and expiry. Anonymous calls answer
        authenticated: false."""
        return text_and_data(await self.api.call("GET", "/me", self.caller(ctx)))
