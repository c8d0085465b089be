"""Company and logo search endpoints (GET /companies, GET /logos), related search included."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from api.inputs import parse
from api.pagination import envelope, page_window
from api.schema import read_responses
from directory.catalogue.views import READ_LOGOS, TAG
from directory.search import related
from directory.search import selectors as search
from directory.search.serializers import (
    CompanySearchInputSerializer,
    CompanySearchOutputSerializer,
    LogoSearchInputSerializer,
    LogoSearchOutputSerializer,
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
        filters = {
            "term": params.get("q"),
            "sector": params.get("sector"),
            "province": params.get("province"),
            "offset": offset,
            "limit": limit,
        }
        if params.get("related"):
            rows, total, close = related.company_page_related(**filters, page=params["page"])
        else:
            rows, total = search.company_page(**filters)
        body = envelope(rows, page=params["page"], page_size=params["pageSize"], total=total)
        if params.get("related"):
            body["related"] = close
        return Response(CompanySearchOutputSerializer(body).data)


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
