"""The account endpoints of the public API: who am I, revoke me, and the device-link flow."""

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.serializers import (
    DeviceCodeInputSerializer,
    DeviceCodeOutputSerializer,
    DeviceTokenErrorSerializer,
    DeviceTokenInputSerializer,
    DeviceTokenOutputSerializer,
    MeOutputSerializer,
)
from accounts.services import (
    DEVICE_CODE_LIFETIME,
    DeviceFlowError,
    device_code_exchange,
    device_code_start,
    token_revoke,
)
from api.errors import ApiError
from api.inputs import parse
from api.schema import error_responses, read_responses

TAG = "Account"
# RFC 6749 §5.1: responses that carry a token are never stored by any cache.
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


class MeApi(APIView):
    @extend_schema(
        operation_id="getMe",
        summary="Check the token, or confirm that the request is anonymous",
        tags=[TAG],
        responses=read_responses(MeOutputSerializer),
    )
    def get(self, request):
        return Response(
            MeOutputSerializer({"token": request.auth}).data,
            headers={"Cache-Control": "private, no-cache"},
        )


class MeTokenApi(APIView):
    token_required = True

    @extend_schema(
        operation_id="revokeToken",
        summary="Revoke the token used for this request",
        description="Needs no scope: a leaked token can always revoke itself.",
        tags=[TAG],
        request=None,
        responses={204: OpenApiResponse(description="Revoked."), **error_responses()},
    )
    def delete(self, request):
        token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeviceCodeApi(APIView):
    @extend_schema(
        operation_id="startDeviceLink",
        summary="Start the device-link flow of a plugin (RFC 8628)",
        description=(
            "Show userCode to the person, open verificationUriComplete, then poll "
            "/device/token every `interval` seconds."
        ),
        tags=[TAG],
        request=DeviceCodeInputSerializer,
        responses={200: DeviceCodeOutputSerializer, **error_responses(400)},
    )
    def post(self, request):
        params = parse(DeviceCodeInputSerializer, request.data)
        started = device_code_start(
            source=params["source"], client_name=params.get("clientName", "").strip()
        )
        device_code = started.device_code
        verification_uri = f"{settings.SITE_URL}/device"
        data = {
            "deviceCode": started.secret,
            "userCode": device_code.display_user_code,
            "verificationUri": verification_uri,
            "verificationUriComplete": f"{verification_uri}?code={device_code.display_user_code}",
            "expiresIn": int(DEVICE_CODE_LIFETIME.total_seconds()),
            "interval": device_code.interval,
        }
        return Response(DeviceCodeOutputSerializer({"data": data}).data, headers=NO_STORE)


class DeviceTokenApi(APIView):
    @extend_schema(
        operation_id="exchangeDeviceCode",
        summary="Poll for the token of a device-link flow",
        description=(
            "HTTP 400 with error authorization_pending until the person approves; "
            "slow_down (the interval grew by 5 s), access_denied, expired_token, or "
            "invalid_grant (unknown code, or its token was already handed out)."
        ),
        tags=[TAG],
        request=DeviceTokenInputSerializer,
        responses={
            200: DeviceTokenOutputSerializer,
            **error_responses(),
            400: OpenApiResponse(
                DeviceTokenErrorSerializer,
                description="A device-flow error (RFC 8628 §3.5) or INVALID_REQUEST.",
            ),
        },
    )
    def post(self, request):
        params = parse(DeviceTokenInputSerializer, request.data)
        try:
            issued = device_code_exchange(secret=params["deviceCode"])
        except DeviceFlowError as refusal:
            raise ApiError(
                refusal.error,
                refusal.message,
                status_code=status.HTTP_400_BAD_REQUEST,
                headers=NO_STORE,
            ) from None
        token = issued.token
        data = {
            "token": issued.secret,
            "user": token.user,
            "scopes": token.scopes,
            "expiresAt": token.expires_at,
        }
        return Response(DeviceTokenOutputSerializer({"data": data}).data, headers=NO_STORE)
