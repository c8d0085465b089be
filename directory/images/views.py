"""The Logo Link (GET /img/{identifier}) and the previews' URLs."""

from pathlib import PurePosixPath

from django.core.files.storage import storages
from django.http import (
    FileResponse,
    Http404,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponseRedirect,
)
from django.utils.http import parse_etags
from django.views.decorators.cache import cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.views import APIView

from api.errors import invalid_request, not_found
from api.inputs import parse
from api.schema import error_responses
from directory.catalogue.views import READ_LOGOS, TAG, path_parameter
from directory.images import logolink
from directory.images.logolink import NothingToDraw, Picture, picture_for, serve
from directory.images.serializers import LogoImageInputSerializer

LOGO_IMAGE_DESCRIPTION = """\
The logo of the company behind a domain (or a company slug, or a logo id or slug) as a PNG
or WebP to put in an img tag, at the size and for the background the page needs. The
company's current logo is drawn; an SVG from its sanitised copy only. Original files are
never served here (they stay behind the download quota), and nothing is counted against
it: no quota, no download count.

theme=dark draws the variant that reads best on a dark background (#121212): each
candidate (the main artwork, then its VERSION variants such as a negative, then other
TYPE variants) is scored by the share of its drawn area whose colour reaches 3:1 contrast
against what it sits on; the best wins, an earlier candidate keeping near ties (within
0.05), if at least three quarters of it reads; otherwise the main artwork is drawn in
white.

When there is nothing to draw (unknown identifier, no logo, no drawable file, or a file
that cannot be drawn), fallback=monogram (default) draws the initials on the brand colour
or a colour derived from the name, transparent an empty square, and 404 answers the JSON
error; the image says which in X-Logo-Fallback.

Cached everywhere: Cache-Control public for a day, a strong ETag (If-None-Match answers
304), each rendition drawn once and kept in storage. A new current logo changes the ETag
at once. Rate limit: anonymous callers have a limit of their own per address for this
endpoint, 600 a minute (a page of 100 logos is 100 requests; 304s count), shown in the
X-RateLimit headers; a token keeps its 60 a minute. Details: docs/api.md, Logo Link.
"""


IDENTIFIER_MAX_LENGTH = 255


_IMAGE_OK = "The image, PNG or WebP as format asks. Carries an ETag."


_IMAGE_HEADERS = [
    OpenApiParameter(
        "X-Logo-Fallback",
        {"type": "string", "enum": ["monogram", "transparent"]},
        OpenApiParameter.HEADER,
        response=[200, 302, 304],
        required=False,
        description="Present when the image is a fallback, not the logo: which one.",
    ),
    OpenApiParameter(
        "Cache-Control",
        {"type": "string"},
        OpenApiParameter.HEADER,
        response=[200, 302, 304],
        required=True,
        description="public, max-age=86400.",
    ),
    OpenApiParameter(
        "ETag",
        {"type": "string"},
        OpenApiParameter.HEADER,
        response=[302],
        required=True,
        description="Tag for If-None-Match.",
    ),
    OpenApiParameter(
        "Location",
        {"type": "string", "format": "uri"},
        OpenApiParameter.HEADER,
        response=[302],
        required=True,
        description="Where the image is.",
    ),
]


class LogoImageApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="getLogoImage",
        summary="A company's logo as an image to embed: the Logo Link",
        description=LOGO_IMAGE_DESCRIPTION,
        tags=[TAG],
        parameters=[
            path_parameter(
                "identifier",
                "A domain (acme.es, in any case, www., IDN), a company slug, or a logo's id "
                "or slug; tried in that order.",
            ),
            LogoImageInputSerializer,
            *_IMAGE_HEADERS,
        ],
        responses={
            (200, "image/png"): OpenApiResponse(OpenApiTypes.BINARY, description=_IMAGE_OK),
            (200, "image/webp"): OpenApiResponse(OpenApiTypes.BINARY, description=_IMAGE_OK),
            302: OpenApiResponse(
                description="With object storage: the image is at Location (its bytes never "
                "change). Carries the image's ETag."
            ),
            304: OpenApiResponse(description="Not modified: the If-None-Match tag still matches."),
            **error_responses(
                400,
                403,
                404,
                descriptions={
                    404: "Only with fallback=404: COMPANY_NOT_FOUND (nothing is known by the "
                    "identifier) or LOGO_NOT_FOUND (the company has no logo that can be drawn)."
                },
            ),
        },
    )
    def get(self, request, identifier: str):
        if len(identifier) > IDENTIFIER_MAX_LENGTH:
            raise invalid_request({"identifier": [f"At most {IDENTIFIER_MAX_LENGTH} characters."]})
        if "\x00" in identifier:
            raise invalid_request({"identifier": ["Null characters are not allowed."]})
        options = logolink.ImageOptions(**parse(LogoImageInputSerializer, request.query_params))
        try:
            picture = picture_for(identifier, options)
            if _matches(request, picture.etag):
                return _image_response(HttpResponseNotModified(), picture)
            served = serve(picture)
        except NothingToDraw as nothing:
            raise not_found(nothing.code, nothing.message) from None
        picture = served.picture  # the fallback, when the logo's file cannot be drawn
        if _matches(request, picture.etag):
            response = HttpResponseNotModified()
        elif served.url is not None:
            response = HttpResponseRedirect(served.url)
        else:
            response = HttpResponse(served.content, content_type=picture.content_type)
        return _image_response(response, picture)


def _matches(request, etag: str) -> bool:
    """If-None-Match, compared weakly (RFC 9110 §13.1.2)."""
    header = request.META.get("HTTP_IF_NONE_MATCH")
    if not header:
        return False
    tags = parse_etags(header)
    return "*" in tags or etag in (tag.removeprefix("W/") for tag in tags)


def _image_response(response: HttpResponse, picture: Picture) -> HttpResponse:
    response["ETag"] = picture.etag
    response["Cache-Control"] = logolink.CACHE_CONTROL
    # Embeddable by pages that require it of cross-origin resources (COEP).
    response["Cross-Origin-Resource-Policy"] = "cross-origin"
    if picture.fallback is not None:
        response["X-Logo-Fallback"] = picture.fallback
    return response


@cache_control(public=True, max_age=86400, immutable=True)
def serve_preview(request, name: str):
    """Preview PNGs from the public previews storage (names carry a content hash)."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or path.suffix != ".png":
        raise Http404
    previews = storages["previews"]
    if not previews.exists(name):
        raise Http404
    response = FileResponse(previews.open(name, "rb"), content_type="image/png")
    response["X-Content-Type-Options"] = "nosniff"
    return response
