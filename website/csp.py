"""A strict Content-Security-Policy on every HTML page.

The website loads nothing from other hosts and runs no inline script or style (they live
in static/), so the policy allows this origin only; images also from data: URLs
(the API docs' icons) and from the previews' storage, which is another origin when
previews are in S3 or behind a CDN. Pages cannot be framed, and forms post here only.
A response that sets its own policy (the staff preview of an upload: nothing at all)
keeps it.
"""

from urllib.parse import urlsplit

from django.core.files.storage import storages
from django.http import HttpRequest, HttpResponse

_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:{images}; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def _previews_origin() -> str:
    parts = urlsplit(storages["previews"].url("preview.png"))
    return f" {parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def content_security_policy() -> str:
    return _POLICY.format(images=_previews_origin())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response.headers.setdefault("Content-Security-Policy", content_security_policy())
        return response
