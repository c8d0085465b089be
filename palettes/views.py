"""The palette endpoints: a person's own palettes and gradients, and public ones to read."""

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Scope
from api.errors import ApiError, not_found
from api.inputs import parse
from api.pagination import envelope, page_window
from api.schema import error_responses, read_responses
from directory.catalogue.models import Company
from directory.errors import DirectoryErrorCode
from palettes.errors import PaletteErrorCode
from palettes.models import MAX_PALETTES_PER_ACCOUNT
from palettes.selectors import palette_count, palette_of, palette_readable_by, palettes_of
from palettes.serializers import (
    GradientShapeInputSerializer,
    PaletteCreateInputSerializer,
    PaletteListInputSerializer,
    PaletteListOutputSerializer,
    PaletteOutputSerializer,
    PaletteShapeInputSerializer,
    PaletteUpdateInputSerializer,
)
from palettes.services import (
    PaletteLimitReached,
    palette_create_from_input,
    palette_delete,
    palette_update,
)

TAG = "Palettes"
SCOPES = {
    "GET": Scope.READ_PALETTES,
    "POST": Scope.WRITE_PALETTES,
    "PATCH": Scope.WRITE_PALETTES,
    "DELETE": Scope.WRITE_PALETTES,
}
PRIVATE = {"Cache-Control": "private, no-cache"}
ID_PARAMETER = OpenApiParameter(
    "id",
    {"type": "string", "maxLength": 100},
    OpenApiParameter.PATH,
    description="The palette's id (a UUID; anything else is PALETTE_NOT_FOUND).",
)
NOT_FOUND = {404: "PALETTE_NOT_FOUND (or COMPANY_NOT_FOUND for companyId)."}


def _palette_not_found() -> ApiError:
    return not_found(PaletteErrorCode.PALETTE_NOT_FOUND, "No such palette.")


def _company(company_id) -> Company | None:
    if company_id is None:
        return None
    company = Company.objects.filter(pk=company_id).first()
    if company is None:
        raise not_found(DirectoryErrorCode.COMPANY_NOT_FOUND, f"No company with id {company_id}.")
    return company


def _one(palette, request, *, status_code: int = status.HTTP_200_OK) -> Response:
    body = PaletteOutputSerializer({"data": palette}, context={"user": request.user}).data
    return Response(body, status=status_code, headers=PRIVATE)


class PaletteListApi(APIView):
    token_required = True
    required_scopes = SCOPES

    @extend_schema(
        operation_id="listPalettes",
        summary="The caller's palettes and gradients, newest first, with the quota",
        tags=[TAG],
        parameters=[PaletteListInputSerializer],
        responses=read_responses(PaletteListOutputSerializer, 400, 403),
    )
    def get(self, request):
        params = parse(PaletteListInputSerializer, request.query_params)
        offset, limit = page_window(params["page"], params["pageSize"])
        palettes = palettes_of(request.user, type=params.get("type"))
        total = palettes.count()
        page = list(palettes[offset : offset + limit]) if offset < total else []
        body = envelope(page, page=params["page"], page_size=params["pageSize"], total=total)
        used = total if params.get("type") is None else palette_count(request.user)
        body["quota"] = {"used": used, "max": MAX_PALETTES_PER_ACCOUNT}
        data = PaletteListOutputSerializer(body, context={"user": request.user}).data
        return Response(data, headers=PRIVATE)

    @extend_schema(
        operation_id="createPalette",
        summary="Save a palette (a list of colours) or a gradient",
        tags=[TAG],
        request=PolymorphicProxySerializer(
            component_name="PaletteCreateInput",
            serializers=[PaletteShapeInputSerializer, GradientShapeInputSerializer],
            resource_type_field_name=None,
        ),
        responses={
            201: PaletteOutputSerializer,
            **error_responses(
                400,
                403,
                404,
                409,
                descriptions={
                    404: "COMPANY_NOT_FOUND: companyId names no company.",
                    409: f"PALETTE_LIMIT: the account has {MAX_PALETTES_PER_ACCOUNT} palettes.",
                },
            ),
        },
    )
    def post(self, request):
        params = parse(PaletteCreateInputSerializer, request.data)
        company = _company(params["companyId"])
        try:
            palette = palette_create_from_input(owner=request.user, params=params, company=company)
        except PaletteLimitReached as refusal:
            raise ApiError(
                PaletteErrorCode.PALETTE_LIMIT,
                refusal.message(),
                status_code=status.HTTP_409_CONFLICT,
            ) from None
        return _one(palette, request, status_code=status.HTTP_201_CREATED)


class PaletteDetailApi(APIView):
    token_required = True
    required_scopes = SCOPES

    @extend_schema(
        operation_id="getPalette",
        summary="One palette: the caller's own, or a public one of another person",
        tags=[TAG],
        parameters=[ID_PARAMETER],
        responses=read_responses(PaletteOutputSerializer, 403, 404, descriptions=NOT_FOUND),
    )
    def get(self, request, id: str):
        palette = palette_readable_by(request.user, id)
        if palette is None:
            raise _palette_not_found()
        return _one(palette, request)

    @extend_schema(
        operation_id="updatePalette",
        summary="Change one of the caller's palettes",
        description=(
            "colors must keep the palette's shape: a list for a PALETTE, a gradient "
            "object for a GRADIENT (the type never changes)."
        ),
        tags=[TAG],
        parameters=[ID_PARAMETER],
        request=PaletteUpdateInputSerializer,
        responses={
            200: PaletteOutputSerializer,
            **error_responses(400, 403, 404, descriptions=NOT_FOUND),
        },
    )
    def patch(self, request, id: str):
        palette = palette_of(request.user, id)
        if palette is None:
            raise _palette_not_found()
        params = parse(PaletteUpdateInputSerializer, request.data, type=palette.type)
        changes = {}
        if "name" in params:
            changes["name"] = params["name"]
        if "colors" in params:
            changes["colors"] = params["colors"]
        if "isPublic" in params:
            changes["is_public"] = params["isPublic"]
        if "companyId" in params:
            changes["company"] = _company(params["companyId"])
        palette = palette_update(palette=palette, changes=changes)
        return _one(palette, request)

    @extend_schema(
        operation_id="deletePalette",
        summary="Delete one of the caller's palettes",
        tags=[TAG],
        parameters=[ID_PARAMETER],
        request=None,
        responses={
            204: OpenApiResponse(description="Deleted."),
            **error_responses(403, 404, descriptions=NOT_FOUND),
        },
    )
    def delete(self, request, id: str):
        palette = palette_of(request.user, id)
        if palette is None:
            raise _palette_not_found()
        palette_delete(palette=palette)
        return Response(status=status.HTTP_204_NO_CONTENT)
