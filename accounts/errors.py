"""The error codes of the accounts' own endpoints.

The bearer token's codes (INVALID_TOKEN, TOKEN_REVOKED, INSUFFICIENT_SCOPE) are the
API's generic ones (api/errors.py): every endpoint answers with them. POST /device/token
answers as OAuth does instead (its body's codes are accounts.serializers.DEVICE_TOKEN_ERRORS).
"""

from enum import StrEnum


class DeviceFlowErrorCode(StrEnum):
    """RFC 8628 §3.5 answers of POST /device/token, lower case as OAuth spells them."""

    AUTHORIZATION_PENDING = "authorization_pending"
    SLOW_DOWN = "slow_down"
    ACCESS_DENIED = "access_denied"
    EXPIRED_TOKEN = "expired_token"  # noqa: S105
    INVALID_GRANT = "invalid_grant"
