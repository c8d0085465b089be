"""CORS for the public API: open to every origin, without credentials (docs/api.md).

django-cors-headers, with one difference: since the answer to every origin is the same
`Access-Control-Allow-Origin: *`, it is sent on every response under /v1/public, with
or without an Origin header, and no response says `Vary: Origin`. A response that
varied by Origin would be kept once per site by shared caches and CDNs; an image of the
Logo Link, embedded by thousands of sites, once per site. The library sends the header
only to requests that carry an Origin, and must then add Vary: Origin.
"""

from corsheaders.conf import conf
from corsheaders.middleware import CorsMiddleware
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django.http.response import HttpResponseBase


class PublicApiCorsMiddleware(CorsMiddleware):
    def __init__(self, get_response) -> None:
        if not settings.CORS_ALLOW_ALL_ORIGINS or settings.CORS_ALLOW_CREDENTIALS:
            raise ImproperlyConfigured(
                "PublicApiCorsMiddleware answers every origin alike: it needs "
                "CORS_ALLOW_ALL_ORIGINS and no CORS_ALLOW_CREDENTIALS"
            )
        super().__init__(get_response)

    def add_response_headers(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not self.is_enabled(request):
            return response
        response["Access-Control-Allow-Origin"] = "*"
        if conf.CORS_EXPOSE_HEADERS:
            response["Access-Control-Expose-Headers"] = ", ".join(conf.CORS_EXPOSE_HEADERS)
        if request.method == "OPTIONS":
            response["Access-Control-Allow-Headers"] = ", ".join(conf.CORS_ALLOW_HEADERS)
            response["Access-Control-Allow-Methods"] = ", ".join(conf.CORS_ALLOW_METHODS)
            if conf.CORS_PREFLIGHT_MAX_AGE:
                response["Access-Control-Max-Age"] = str(conf.CORS_PREFLIGHT_MAX_AGE)
        return response
