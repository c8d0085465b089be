"""A download (POST /logos/{id}/download) and the signed link it gives (serve_download)."""

from datetime import timedelta

from django.conf import settings
from django.core.files.storage import default_storage
from django.http import (
    FileResponse,
    HttpResponseForbidden,
)
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import source_of
from accounts.models import Scope
from api.client_ip import client_ip
from api.errors import ApiError, not_found
from api.inputs import parse
from api.schema import error_responses
from directory.catalogue.selectors import (
    download_asset,
    logo_for_download,
    logo_main_file,
)
from directory.catalogue.serializers import LogoLookupInputSerializer
from directory.catalogue.views import TAG, path_parameter
from directory.downloads.models import DownloadChannel
from directory.downloads.serializers import (
    DownloadLimitErrorSerializer,
    DownloadQuotaSerializer,
    LogoDownloadInputSerializer,
    LogoDownloadOutputSerializer,
    download_body,
)
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
        parameters=[path_parameter("id", "The logo's id (UUID) or slug.")],
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
