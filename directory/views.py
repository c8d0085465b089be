import hashlib
import json
from collections import defaultdict
from pathlib import PurePosixPath

from django.core.cache import cache
from django.core.files.storage import storages
from django.http import FileResponse, Http404
from django.utils import timezone
from django.views.decorators.cache import cache_control
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Scope
from config.api.errors import ErrorCode, not_found
from config.api.inputs import parse
from config.api.pagination import envelope, page_window
from config.api.schema import read_responses
from directory import search
from directory.selectors import (
    company_find,
    domain_entries,
    logo_find,
)
from directory.serializers import (
    CompanyDetailOutputSerializer,
    CompanyLookupInputSerializer,
    CompanySearchInputSerializer,
    CompanySearchOutputSerializer,
    DomainListOutputSerializer,
    LogoDetailOutputSerializer,
    LogoLookupInputSerializer,
    LogoSearchInputSerializer,
    LogoSearchOutputSerializer,
)

TAG = "Catalogue"
# Anonymous calls are welcome; a token must carry read:logos.
READ_LOGOS = {"GET": Scope.READ_LOGOS}
DOMAINS_CACHE_KEY = "directory:domains:v1"
DOMAINS_REBUILD_SECONDS = 300


def _path_parameter(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(
        name,
        {"type": "string", "minLength": 1, "maxLength": 255},
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
            # Semantic search is its own piece of work; until then nothing is related.
            body["related"] = []
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
        company = company_find(slug=params["slug"])
        if company is None:
            raise not_found(ErrorCode.COMPANY_NOT_FOUND, f"No company with slug {slug!r}.")
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
        body = cache.get(DOMAINS_CACHE_KEY)
        if body is None:
            entries = domain_entries()
            body = {"data": entries, "generatedAt": timezone.now().isoformat()}
            cache.set(DOMAINS_CACHE_KEY, body, DOMAINS_REBUILD_SECONDS)
        response = Response(DomainListOutputSerializer(body).data)
        # The tag covers the entries only, so a rebuild with the same data still answers 304.
        digest = hashlib.sha256(json.dumps(body["data"], sort_keys=True).encode()).hexdigest()
        response["ETag"] = f'"{digest[:32]}"'
        response["Cache-Control"] = "public, max-age=86400"
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
        logo = logo_find(id_or_slug=params["id"])
        if logo is None:
            raise not_found(ErrorCode.LOGO_NOT_FOUND, f"No logo with id or slug {id!r}.")
        assets_by_variant = defaultdict(list)
        for asset in logo.assets.all():
            assets_by_variant[asset.variant_id].append(asset)
        serializer = LogoDetailOutputSerializer(
            {"data": logo}, context={"assets_by_variant": assets_by_variant}
        )
        return Response(serializer.data)


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
