"""The proposal endpoints: propose a logo (multipart upload) and follow one's proposals."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import source_of
from accounts.models import Scope
from api.errors import ApiError, invalid_request, not_found
from api.inputs import parse
from api.pagination import envelope, page_window
from api.schema import error_responses, read_responses
from directory.errors import DirectoryErrorCode
from proposals.errors import ProposalErrorCode
from proposals.files import UnsupportedFile, proposal_file_format
from proposals.models import MAX_FILE_BYTES, MAX_PROPOSALS_PER_DAY, ProposalChannel
from proposals.selectors import ProposalTargetError, proposal_targets, proposals_of
from proposals.serializers import (
    ProposalCreateInputSerializer,
    ProposalListInputSerializer,
    ProposalListOutputSerializer,
    ProposalOutputSerializer,
)
from proposals.services import (
    ProposalLimitReached,
    proposal_draft,
    proposal_limit_check,
    proposal_submit,
)
from proposals.uploads import FileTooLarge, limit_upload

TAG = "Proposals"
PRIVATE = {"Cache-Control": "private, no-cache"}


def _file_too_large() -> ApiError:
    return ApiError(
        ProposalErrorCode.FILE_TOO_LARGE,
        f"The file is over {MAX_FILE_BYTES} bytes (5 MiB).",
        status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    )


def _limit_reached(refusal: ProposalLimitReached) -> ApiError:
    return ApiError(
        ProposalErrorCode.PROPOSAL_LIMIT_REACHED,
        f"{MAX_PROPOSALS_PER_DAY} proposals in the last 24 hours already; "
        f"retry in {refusal.retry_after} s.",
        status_code=status.HTTP_429_TOO_MANY_REQUESTS,
        headers={"Retry-After": str(refusal.retry_after)},
    )


class ProposalListApi(APIView):
    token_required = True
    required_scopes = {"GET": Scope.WRITE_PROPOSALS, "POST": Scope.WRITE_PROPOSALS}
    parser_classes = [MultiPartParser]

    @extend_schema(
        operation_id="listProposals",
        summary="The caller's proposals with their status, newest first",
        tags=[TAG],
        parameters=[ProposalListInputSerializer],
        responses=read_responses(ProposalListOutputSerializer, 400, 403),
    )
    def get(self, request):
        params = parse(ProposalListInputSerializer, request.query_params)
        offset, limit = page_window(params["page"], params["pageSize"])
        proposals = proposals_of(request.user)
        total = proposals.count()
        page = list(proposals[offset : offset + limit]) if offset < total else []
        body = envelope(page, page=params["page"], page_size=params["pageSize"], total=total)
        return Response(ProposalListOutputSerializer(body).data, headers=PRIVATE)

    @extend_schema(
        operation_id="createProposal",
        summary="Propose a new logo, or a new file of an existing logo",
        tags=[TAG],
        request={"multipart/form-data": ProposalCreateInputSerializer},
        responses={
            201: ProposalOutputSerializer,
            **error_responses(
                400,
                403,
                404,
                413,
                415,
                descriptions={
                    400: "INVALID_REQUEST, also a logoId of another company than companySlug.",
                    404: "COMPANY_NOT_FOUND (companySlug) or LOGO_NOT_FOUND (logoId).",
                    413: "FILE_TOO_LARGE: over 5 MiB (5,242,880 bytes).",
                    415: "UNSUPPORTED_FILE: not SVG, PNG, JPEG or WEBP by its bytes, or an "
                    "unsafe SVG.",
                    429: f"PROPOSAL_LIMIT_REACHED ({MAX_PROPOSALS_PER_DAY} in 24 h) or "
                    "RATE_LIMITED, with Retry-After.",
                },
            ),
        },
    )
    def post(self, request):
        # The cheap refusals first: an account at its daily limit is told so before a
        # byte of its upload is read or decoded.
        try:
            proposal_limit_check(submitter=request.user)
        except ProposalLimitReached as refusal:
            raise _limit_reached(refusal) from None
        try:
            guard = limit_upload(request)
        except FileTooLarge:
            raise _file_too_large() from None
        form = request.data  # the multipart parse, under the limit
        if guard.exceeded:
            raise _file_too_large()
        params = parse(ProposalCreateInputSerializer, form)
        draft_company, draft_logo = self._named(params)
        upload = params["file"]
        data = upload.read()
        try:
            file_format = proposal_file_format(data)
        except UnsupportedFile as refusal:
            raise ApiError(
                ProposalErrorCode.UNSUPPORTED_FILE,
                f"Refused: {refusal}.",
                status_code=status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
            ) from None
        draft = proposal_draft(
            params=params,
            company=draft_company,
            logo=draft_logo,
            file_name=upload.name,
            file_format=file_format,
            source=source_of(request),
            channel=ProposalChannel.API,
        )
        try:
            proposal = proposal_submit(submitter=request.user, draft=draft, data=data)
        except ProposalLimitReached as refusal:
            raise _limit_reached(refusal) from None
        body = ProposalOutputSerializer({"data": proposal}).data
        return Response(body, status=status.HTTP_201_CREATED)

    @staticmethod
    def _named(params):
        """The company and logo the proposal names, which must exist and agree."""
        try:
            return proposal_targets(
                company_slug=params.get("companySlug"), logo_id=params.get("logoId")
            )
        except ProposalTargetError as missing:
            if missing.kind == "company":
                message = f"No company with slug {missing.value!r}."
                raise not_found(DirectoryErrorCode.COMPANY_NOT_FOUND, message) from None
            if missing.kind == "logo":
                raise not_found(
                    DirectoryErrorCode.LOGO_NOT_FOUND, f"No logo {missing.value!r}."
                ) from None
            raise invalid_request(
                {"logoId": [f"This logo belongs to another company than {missing.value!r}."]}
            ) from None
