from django.urls import Resolver404, resolve
from drf_spectacular.renderers import OpenApiJsonRenderer2
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerSplitView
from rest_framework.views import APIView

from api.errors import ErrorCode, not_found


@extend_schema(exclude=True)
class UnknownPathApi(APIView):
    """Every path under /v1/public that no endpoint claims: 404 in the envelope."""

    def _unknown(self, request, *args, **kwargs):
        bare = request.path.rstrip("/")
        if bare != request.path and _is_endpoint(bare):
            # The usual slip: an endpoint with a trailing slash. Paths take none.
            raise not_found(
                ErrorCode.NOT_FOUND, f"No such endpoint; paths take no trailing slash: {bare}"
            )
        raise not_found(ErrorCode.NOT_FOUND, "No such endpoint.")

    get = post = put = patch = delete = _unknown


class OpenApiDocumentApi(SpectacularJSONAPIView):
    """The OpenAPI document, always as application/json whatever the client accepts."""

    renderer_classes = [OpenApiJsonRenderer2]


def _is_endpoint(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return getattr(match.func, "view_class", None) is not UnknownPathApi


class ApiDocsPage(SpectacularSwaggerSplitView):
    """Swagger UI for the document, its start-up script served apart (?script) and its
    page styles in a static file: nothing inline, so it works under the site's
    Content-Security-Policy (website/csp.py)."""

    template_name = "api_docs.html"
