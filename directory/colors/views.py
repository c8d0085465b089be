"""A company's brand colours (GET /companies/{slug}/colors)."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import not_found
from api.inputs import parse
from api.schema import read_responses
from directory.catalogue.selectors import (
    company_colors,
)
from directory.catalogue.serializers import CompanyLookupInputSerializer
from directory.catalogue.views import READ_LOGOS, TAG, path_parameter
from directory.colors.serializers import CompanyColorsOutputSerializer
from directory.errors import DirectoryErrorCode


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
        parameters=[path_parameter("slug", "The company's slug.")],
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
