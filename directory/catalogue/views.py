"""The catalogue's read endpoints: a company, a logo, the domains and a domain's company.
What every endpoint of the directory shares (its OpenAPI tag, the scope a token needs, the
path parameters' schema) is defined here, at the bottom, for the rooms above.
"""

import hashlib
import json

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Scope
from api.errors import not_found
from api.inputs import parse
from api.schema import read_responses
from directory.catalogue.models import is_domain, normalise_domain
from directory.catalogue.selectors import (
    company_detail_row,
    company_summary_row,
    domain_company_slug,
    domain_list,
    logo_detail_row,
)
from directory.catalogue.serializers import (
    DOMAIN_INPUT_MAX_LENGTH,
    CompanyDetailOutputSerializer,
    CompanyLookupInputSerializer,
    DomainListOutputSerializer,
    DomainLookupInputSerializer,
    DomainLookupOutputSerializer,
    LogoDetailOutputSerializer,
    LogoLookupInputSerializer,
)
from directory.errors import DirectoryErrorCode

TAG = "Catalogue"


# Anonymous calls are welcome; a token must carry read:logos.
READ_LOGOS = {"GET": Scope.READ_LOGOS}


# Clients keep the domain list and the answers of the lookup for a day.
DOMAINS_CACHE_CONTROL = "public, max-age=86400"


# No name the API knows holds a NUL (PostgreSQL keeps none in text): a path with one is
# refused with 400, as its pattern says.
NO_NUL = r"^[^\x00]*$"


def path_parameter(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(
        name,
        {"type": "string", "minLength": 1, "maxLength": 255, "pattern": NO_NUL},
        OpenApiParameter.PATH,
        description=description,
    )


class CompanyDetailApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="getCompany",
        summary="One company with its logos, the current logo first",
        tags=[TAG],
        parameters=[path_parameter("slug", "The company's slug.")],
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
                    "pattern": NO_NUL,
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


class LogoDetailApi(APIView):
    required_scopes = READ_LOGOS

    @extend_schema(
        operation_id="getLogo",
        summary="One logo with its variants and files (metadata only, no links)",
        tags=[TAG],
        parameters=[path_parameter("id", "The logo's id (UUID) or slug.")],
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
