"""Output schemas of the tools: the API's response bodies, field for field.

A tool's structured content is the body the API answered, unchanged (but for
lookup_domain, whose model says what it adds, and delete_palette, whose API answer has
no body), so these models follow the contract (docs/api.md, the OpenAPI document at
/v1/public/openapi.json) and use its camelCase names. They allow extra fields: changes
within v1 are additive, and a field the API adds must not make a tool's output invalid.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Open(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class Page(Open):
    page: int
    pageSize: int
    total: int
    totalPages: int


class SectorRef(Open):
    slug: str
    name: str


class CompanyRef(Open):
    slug: str | None
    name: str


class LogoRef(Open):
    id: str
    slug: str | None


class CurrentLogo(LogoRef):
    title: str
    previewUrl: str | None


class CompanySummary(Open):
    id: str
    slug: str | None
    name: str
    entityType: str
    isVerified: bool
    sector: SectorRef | None
    province: str | None
    logoCount: int
    currentLogo: CurrentLogo | None
    url: str | None


class CompanySearch(Page):
    data: list[CompanySummary]
    related: list[CompanySummary] | None = Field(
        default=None, description="Present only when related=true was asked for."
    )


class Era(Open):
    from_: int | None = Field(alias="from")
    to: int | None
    label: str | None


class LogoSummary(Open):
    id: str
    slug: str | None
    title: str
    previewUrl: str | None = Field(description="A preview image, not the downloadable file.")
    isCurrent: bool
    isProduct: bool
    era: Era
    formats: list[str]
    url: str | None


class CompanyDetail(Open):
    id: str
    slug: str | None
    name: str
    entityType: str
    isVerified: bool
    sector: SectorRef | None
    province: str | None
    url: str | None
    about: str | None
    website: str | None
    location: str | None
    foundedYear: str | None
    currentLogoId: str | None
    logos: list[LogoSummary]


class CompanyResult(Open):
    data: CompanyDetail


class BrandColors(Open):
    company: CompanyRef
    logo: LogoRef | None
    colors: list[str] = Field(description="#RRGGBB codes, most used first; [] when not computed.")
    cached: bool
    message: str | None


class BrandColorsResult(Open):
    data: BrandColors


class LogoSearchItem(LogoSummary):
    company: CompanyRef | None


class LogoSearch(Page):
    data: list[LogoSearchItem]


class Variant(Open):
    id: str
    kind: str
    name: str
    parentId: str | None
    previewUrl: str | None
    formats: list[str]


class Asset(Open):
    id: str
    format: str
    variantId: str | None
    size: float
    contentType: str


class LogoCompany(Open):
    id: str
    slug: str | None
    name: str
    url: str | None


class LogoDetail(LogoSummary):
    description: str | None
    company: LogoCompany | None
    colorPalette: list[str]
    downloadCount: int
    variants: list[Variant]
    assets: list[Asset]


class LogoResult(Open):
    data: LogoDetail


class Quota(Open):
    unlimited: bool = Field(description="Read first: when true, limit and remaining mean nothing.")
    used: int
    limit: int
    remaining: int
    resetAt: str | None


class DownloadLink(Open):
    url: str = Field(description="Temporary signed link to the file, valid for expiresIn seconds.")
    expiresIn: int
    expiresAt: str
    filename: str
    asset: Asset


class DownloadResult(Open):
    data: DownloadLink
    quota: Quota


class DomainLookup(Open):
    """GET /domains/{domain}'s answer, {"data": company summary}, with what was asked and
    whether a company was found: a 404 COMPANY_NOT_FOUND is an answer here, not an error."""

    query: str = Field(description="The domain or address, as given.")
    found: bool
    data: CompanySummary | None = Field(
        description="The company the domain belongs to, as search_companies shows it; null "
        "when none."
    )
    message: str | None = Field(
        description="When nothing was found, the API's reason: no company is known by the "
        "domain, or the text is no domain name. Null when found."
    )


class GradientStop(Open):
    hex: str
    position: float


class Gradient(Open):
    kind: Literal["linear", "radial"]
    angle: float
    stops: list[GradientStop]


class Palette(Open):
    id: str
    name: str
    type: Literal["PALETTE", "GRADIENT"]
    colors: list[str] | Gradient
    source: str
    isPublic: bool
    isMine: bool
    company: CompanyRef | None
    createdAt: str
    updatedAt: str


class PaletteResult(Open):
    data: Palette


class PaletteQuota(Open):
    used: int
    max: int


class PaletteList(Page):
    data: list[Palette]
    quota: PaletteQuota


class Deleted(Open):
    id: str
    deleted: bool


class MeUser(Open):
    id: str
    firstName: str | None
    plan: str


class MeToken(Open):
    name: str
    prefix: str
    scopes: list[str]
    source: str
    expiresAt: str | None


class Me(Open):
    authenticated: bool
    user: MeUser | None = Field(default=None, description="Present when a token was sent.")
    token: MeToken | None = Field(default=None, description="Present when a token was sent.")
