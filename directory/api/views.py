import hashlib
import json
from datetime import timedelta
from pathlib import PurePosixPath

from django.conf import settings
from django.core.files.storage import default_storage, storages
from django.http import (
    FileResponse,
    Http404,
    HttpResponse,
    HttpResponseForbidden,
    HttpResponseNotModified,
    HttpResponseRedirect,
)
from django.utils.http import parse_etags
from django.views.decorators.cache import cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import source_of
from accounts.models import Scope
from api.client_ip import client_ip
from api.errors import ApiError, invalid_request, not_found
from api.inputs import parse
from api.pagination import envelope, page_window
from api.schema import error_responses, read_responses
from directory.api.serializers import (
    DOMAIN_INPUT_MAX_LENGTH,
    CompanyColorsOutputSerializer,
    CompanyDetailOutputSerializer,
    CompanyLookupInputSerializer,
    CompanySearchInputSerializer,
    CompanySearchOutputSerializer,
    DomainListOutputSerializer,
    DomainLookupInputSerializer,
    DomainLookupOutputSerializer,
    DownloadLimitErrorSerializer,
    DownloadQuotaSerializer,
    LogoDetailOutputSerializer,
    LogoDownloadInputSerializer,
    LogoDownloadOutputSerializer,
    LogoImageInputSerializer,
    LogoLookupInputSerializer,
    LogoSearchInputSerializer,
    LogoSearchOutputSerializer,
    download_body,
)
from directory.catalogue.models import is_domain, normalise_domain
from directory.catalogue.selectors import (
    company_colors,
    company_detail_row,
    company_summary_row,
    domain_company_slug,
    domain_list,
    download_asset,
    logo_detail_row,
    logo_for_download,
    logo_main_file,
)
from directory.downloads.models import DownloadChannel
from directory.downloads.services import (
    DownloadLimitReached,
    download_filename,
    download_grant,
    download_link,
    download_subject,
    signed_file,
)
from directory.errors import DirectoryErrorCode
from directory.files.formats import CONTENT_TYPES
from directory.images import logolink
from directory.images.logolink import NothingToDraw, Picture, picture_for, serve
from directory.search import related
from directory.search import selectors as search

TAG = "Catalogue"
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
# Anonymous calls are welcome; a token must carry read:logos.
READ_LOGOS = {"GET": Scope.READ_LOGOS}
# Clients keep the domain list and the answers of the lookup for a day.
DOMAINS_CACHE_CONTROL = "public, max-age=86400"


# No name the API knows holds a NUL (PostgreSQL keeps none in text): a path with one is
# refused with 400, as its pattern says.
_NO_NUL = r"^[^\x00]*$"


def _path_parameter(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(
        name,
        {"type": "string", "minLength": 1, "maxLength": 255, "pattern": _NO_NUL},
        OpenApiParameter.PATH,
        description=description,
    )


class CompanyListApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="searchCompanies",
        summary="Search companies by name and alternative names, ignoring accents",
        tags=[TAG],
        parameters=[CompanySearchInputSerializer],
        responses=read_responses(CompanySearchOutputSerializer, 400, 403),
    )
    def get(self, request):
        params = parse(CompanySearchInputSerializer, request.query_params)
        offset, limit = page_window(params["page"], params["pageSize"])
        rows, total = search.company_page(
            term=params.get("q"),
            sector=params.get("sector"),
            province=params.get("province"),
            offset=offset,
            limit=limit,
        )
        body = envelope(rows, page=params["page"], page_size=params["pageSize"], total=total)
        if params.get("related"):
            body["related"] = related.company_related(
                term=params.get("q"),
                sector=params.get("sector"),
                province=params.get("province"),
                page=params["page"],
                shown=rows,
            )
        return Response(CompanySearchOutputSerializer(body).data)


class CompanyDetailApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="getCompany",
        summary="One company with its logos, the current logo first",
        tags=[TAG],
        parameters=[_path_parameter("slug", "The company's slug.")],
        responses=read_responses(
            CompanyDetailOutputSerializer,
            400,
            403,
            404,
            descriptions={404: "COMPANY_NOT_FOUND."},
        ),
    )
    def get(self, request, slug: str):
        params = parse(CompanyLookupInputSerializer, {"slug": slug})
        company = company_detail_row(slug=params["slug"])
        if company is None:
            raise not_found(DirectoryErrorCode.COMPANY_NOT_FOUND, f"No company with slug {slug!r}.")
        return Response(CompanyDetailOutputSerializer({"data": company}).data)


class DomainListApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="listDomains",
        summary="Every known domain with its company, for matching on the client",
        description="Clients should cache the list for 24 hours (see Cache-Control and ETag).",
        tags=[TAG],
        responses=read_responses(DomainListOutputSerializer, 403),
    )
    def get(self, request):
        body = domain_list()
        response = Response(DomainListOutputSerializer(body).data)
        # The tag covers the entries only, so a rebuild with the same data still answers 304.
        digest = hashlib.sha256(json.dumps(body["data"], sort_keys=True).encode()).hexdigest()
        response["ETag"] = f'"{digest[:32]}"'
        response["Cache-Control"] = DOMAINS_CACHE_CONTROL
        return response


class DomainLookupApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="getDomainCompany",
        summary="The company a domain belongs to",
        description=(
            "Accepts the domain in any case, with a leading www. or a trailing dot, an "
            "internationalised domain in Unicode or punycode, and a pasted web address "
            "(percent-encoded: https%3A%2F%2Fwww.acme.es%2Fcontacto finds acme.es). A "
            "subdomain falls back to its parent domains, down to the domain its owner "
            "registered (by the Public Suffix List), when only one of those is known. "
            "Answers from the same list as GET /domains, cached the same way."
        ),
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "domain",
                {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": DOMAIN_INPUT_MAX_LENGTH,
                    "pattern": _NO_NUL,
                },
                OpenApiParameter.PATH,
                description="A domain (acme.es) or a web address on it.",
            )
        ],
        responses=read_responses(
            DomainLookupOutputSerializer,
            400,
            403,
            404,
            descriptions={
                400: "INVALID_REQUEST: longer than 2,048 characters, or holding a NUL.",
                404: "COMPANY_NOT_FOUND: no company is known by that domain (or the text is "
                "no domain name).",
            },
        ),
    )
    def get(self, request, domain: str):
        params = parse(DomainLookupInputSerializer, {"domain": domain})
        name = normalise_domain(params["domain"])
        if not is_domain(name):
            message = f"{params['domain']!r} is not a domain name: no company is known by it."
            raise not_found(DirectoryErrorCode.COMPANY_NOT_FOUND, message)
        slug = domain_company_slug(name)
        row = company_summary_row(slug=slug) if slug is not None else None
        if row is None:
            message = f"No company is known by the domain {name}."
            raise not_found(DirectoryErrorCode.COMPANY_NOT_FOUND, message)
        response = Response(DomainLookupOutputSerializer({"data": row}).data)
        response["Cache-Control"] = DOMAINS_CACHE_CONTROL
        return response


class LogoListApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="searchLogos",
        summary="Search logo titles and company names, ignoring accents; current logos first",
        tags=[TAG],
        parameters=[LogoSearchInputSerializer],
        responses=read_responses(LogoSearchOutputSerializer, 400, 403),
    )
    def get(self, request):
        params = parse(LogoSearchInputSerializer, request.query_params)
        offset, limit = page_window(params["page"], params["pageSize"])
        rows, total = search.logo_page(term=params.get("q"), offset=offset, limit=limit)
        body = envelope(rows, page=params["page"], page_size=params["pageSize"], total=total)
        return Response(LogoSearchOutputSerializer(body).data)


class LogoDetailApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="getLogo",
        summary="One logo with its variants and files (metadata only, no links)",
        tags=[TAG],
        parameters=[_path_parameter("id", "The logo's id (UUID) or slug.")],
        responses=read_responses(
            LogoDetailOutputSerializer,
            400,
            403,
            404,
            descriptions={404: "LOGO_NOT_FOUND."},
        ),
    )
    def get(self, request, id: str):
        params = parse(LogoLookupInputSerializer, {"id": id})
        logo = logo_detail_row(id_or_slug=params["id"])
        if logo is None:
            raise not_found(DirectoryErrorCode.LOGO_NOT_FOUND, f"No logo with id or slug {id!r}.")
        return Response(LogoDetailOutputSerializer({"data": logo}).data)


class LogoImageApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="getLogoImage",
        summary="A company's logo as an image to embed: the Logo Link",
        description=LOGO_IMAGE_DESCRIPTION,
        tags=[TAG],
        parameters=[
            _path_parameter(
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


class CompanyColorsApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="getCompanyColors",
        summary="The brand colours of a company's current logo",
        description=(
            "Answers from what is stored and never computes while the client waits: "
            "cached false (with a message) means not computed yet."
        ),
        tags=[TAG],
        parameters=[_path_parameter("slug", "The company's slug.")],
        responses=read_responses(
            CompanyColorsOutputSerializer, 400, 403, 404, descriptions={404: "COMPANY_NOT_FOUND."}
        ),
    )
    def get(self, request, slug: str):
        params = parse(CompanyLookupInputSerializer, {"slug": slug})
        company = company_colors(slug=params["slug"])
        if company is None:
            raise not_found(DirectoryErrorCode.COMPANY_NOT_FOUND, f"No company with slug {slug!r}.")
        logo = company.current_logo
        body = {
            "company": company,
            "logo": logo,
            "colors": logo.color_palette if logo and logo.colors_computed_at else [],
            "cached": bool(logo and logo.colors_computed_at),
            "message": None,
        }
        if logo is None:
            body["message"] = "The company has no current logo, so no brand colours."
        elif logo.colors_computed_at is None:
            body["message"] = "The colours of this logo are being computed; ask again shortly."
        elif not logo.color_palette:
            body["message"] = "No colours could be read from this logo's files."
        return Response(CompanyColorsOutputSerializer({"data": body}).data)


class LogoDownloadApi(APIView):
    required_scopes = {"POST": Scope.READ_LOGOS}

    @extend_schema(
        operation_id="downloadLogo",
        summary="A temporary link to one file of a logo (counts against the download quota)",
        description=(
            "The file is chosen by format (and variant) or by assetId. A second link to "
            "the same logo within 12 hours does not count again. FORMAT_NOT_AVAILABLE "
            "consumes nothing."
        ),
        tags=[TAG],
        parameters=[_path_parameter("id", "The logo's id (UUID) or slug.")],
        request=LogoDownloadInputSerializer,
        responses={
            200: LogoDownloadOutputSerializer,
            **error_responses(
                400,
                403,
                404,
                descriptions={404: "LOGO_NOT_FOUND or FORMAT_NOT_AVAILABLE."},
            ),
            429: OpenApiResponse(
                DownloadLimitErrorSerializer,
                description="DOWNLOAD_LIMIT_REACHED (with quota) or RATE_LIMITED; Retry-After.",
            ),
        },
    )
    def post(self, request, id: str):
        params = parse(LogoDownloadInputSerializer, request.data)
        lookup = parse(LogoLookupInputSerializer, {"id": id})
        if params.keys() == {"format"}:  # the common choice: a format of the main variant
            logo, asset = logo_main_file(id_or_slug=lookup["id"], file_format=params["format"])
        else:
            logo = logo_for_download(id_or_slug=lookup["id"])
            asset = None
            if logo is not None:
                asset = download_asset(
                    logo=logo,
                    file_format=params.get("format"),
                    variant=params.get("variant"),
                    asset_id=params.get("assetId"),
                )
        if logo is None:
            raise not_found(DirectoryErrorCode.LOGO_NOT_FOUND, f"No logo with id or slug {id!r}.")
        if asset is None:
            raise not_found(
                DirectoryErrorCode.FORMAT_NOT_AVAILABLE, "The logo has no file for that choice."
            )
        subject = download_subject(user=request.user, ip=client_ip(request))
        try:
            grant, quota = download_grant(
                subject=subject,
                logo=logo,
                asset=asset,
                channel=DownloadChannel.API,
                source=source_of(request),
            )
        except DownloadLimitReached as refusal:
            raise ApiError(
                DirectoryErrorCode.DOWNLOAD_LIMIT_REACHED,
                f"The download quota is used up; retry in {refusal.retry_after} s.",
                status_code=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(refusal.retry_after)},
                extra={"quota": DownloadQuotaSerializer(refusal.quota).data},
            ) from None
        expires_at = grant.created_at + timedelta(seconds=settings.DOWNLOAD_LINK_SECONDS)
        filename = download_filename(asset)
        body = download_body(
            url=download_link(asset=asset, filename=filename, expires_at=expires_at),
            expires_in=settings.DOWNLOAD_LINK_SECONDS,
            expires_at=expires_at,
            filename=filename,
            asset=asset,
            quota=quota,
        )
        return Response(body, headers={"Cache-Control": "no-store"})


# Downloaded files leave the app only here, as attachments that no browser renders.
FILE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cache-Control": "private, no-store",
}


def serve_download(request, token: str):
    """The file of a signed, unexpired local download link; 403 and no bytes otherwise."""
    granted = signed_file(token)
    if granted is None:
        return HttpResponseForbidden("This download link is not valid or has expired.")
    asset = granted.asset
    response = FileResponse(
        default_storage.open(asset.file.name, "rb"),
        as_attachment=True,
        filename=granted.filename,
        content_type=CONTENT_TYPES[asset.format],
    )
    for name, value in FILE_HEADERS.items():
        response[name] = value
    return response
