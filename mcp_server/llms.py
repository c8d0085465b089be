"""GET /llms.txt: a plain-text guide for agents to the API, the Logo Link and the MCP
server.

It lives beside the MCP server because it is written for the same readers; it is the
one part of this package the Django site serves, and it needs nothing but the site's
address.
"""

from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

GUIDE = """\
# Logo directory

> Logos, brand colours and logo files of the companies of Spain, for designers, plugins
> and AI agents. A public JSON API under {site}/v1/public, and an MCP server for agents.

Everything an agent can do goes through the public API: the MCP server is a client of
it, with the same tokens, scopes, rate limits and download quotas.

## API

- OpenAPI 3.0.3 document: {site}/v1/public/openapi.json
- Interactive reference: {site}/v1/public/docs
- Search companies: GET {site}/v1/public/companies?q=telefonica (also sector, province,
  related=true for companies related by meaning, page, pageSize up to 50)
- A company and its logos: GET {site}/v1/public/companies/{{slug}}
- Brand colours (#RRGGBB, most used first): GET {site}/v1/public/companies/{{slug}}/colors
- Search logos: GET {site}/v1/public/logos?q=...; one logo: GET {site}/v1/public/logos/{{id}}
- A file: POST {site}/v1/public/logos/{{id}}/download with {{"format": "SVG"}}: a signed
  link valid for one hour. It spends download quota: 3 a day anonymous (per address),
  5 a day on a free account, unlimited on paid plans; the same logo again within 12 hours
  is free.
- Which company a website belongs to: GET {site}/v1/public/domains/{{domain}} (a domain
  in any case, with www., in Unicode or punycode, or a pasted address percent-encoded; a
  subdomain falls back to its parents). 404 COMPANY_NOT_FOUND when none. The whole list:
  GET {site}/v1/public/domains (keep it for 24 hours, revalidate with its ETag).
- Palettes and gradients of an account: {site}/v1/public/palettes (token needed).
- Tokens: made by a person at {site}/account/tokens; send Authorization: Bearer <token>.
  Scopes: read:logos, read:palettes, write:palettes, write:proposals.
- Errors are JSON {{"error": CODE, "message": ...}}. 429 answers carry Retry-After
  (seconds). Anonymous clients: 20 requests a minute per address; a token: 60.

## Logo Link

An address that is the logo itself, as an image, for <img> tags, design plugins and
e-mails. No token needed; never put one in a page.

  {site}/v1/public/img/{{domain}}?size=128&theme=light&format=png

- The identifier: a domain (as the domain lookup reads it, without slashes), else a
  company slug, else a logo id or slug. A domain or a company slug draws the company's
  current logo; a logo id or slug, that logo.
- size: 16 to 512 pixels, the longer side (default 128). shape: square (default, on
  transparency) or original.
- theme: light (default) or dark (for a dark page: a version of the logo that reads on
  it, else the logo in white). format: png (default) or webp (lossless). greyscale:
  true or false.
- fallback when there is no logo: monogram (default, initials on a brand colour),
  transparent, or 404 (the JSON error). A fallback says so in X-Logo-Fallback.
- Cache-Control public, max-age=86400, with an ETag. 600 requests a minute per address
  without a token; never counts against the download quota.

## MCP server

Tools: search_companies, get_company, get_brand_colors, lookup_domain, search_logos,
get_logo, download_logo (spends quota), list_palettes, create_palette, update_palette,
delete_palette, whoami.

- Streamable HTTP: {site}/mcp. Send your own token as Authorization: Bearer <token>, or
  nothing to call anonymously.
- stdio, on your own machine: install this project's package and run
  `logo-directory-mcp` with LOGO_DIRECTORY_URL={site} and, optionally,
  LOGO_DIRECTORY_TOKEN=<token>.

## Optional

- Rate limits and quotas apply to every client alike; read `unlimited` in a quota
  object before `remaining`.
"""


@cache
def _guide(site: str) -> str:
    return GUIDE.format(site=site)


@require_GET
@cache_control(public=True, max_age=3600)
def llms_txt(request: HttpRequest) -> HttpResponse:
    return HttpResponse(_guide(settings.SITE_URL), content_type="text/plain; charset=utf-8")
