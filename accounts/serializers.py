"""One input and one output serializer per account endpoint."""

from rest_framework import serializers

from accounts.errors import DeviceFlowErrorCode
from accounts.models import PLUGIN_SOURCES, Plan, Scope, Source
from api.errors import ErrorCode
from api.inputs import StrictCharField
from api.times import TimestampField, timestamp

# -- GET /me -------------------------------------------------------------------------


class MeUserSerializer(serializers.Serializer):
    id = serializers.UUIDField(source="public_id")
    firstName = serializers.CharField(source="first_name", allow_null=True)
    plan = serializers.ChoiceField(choices=Plan.values)


class MeTokenSerializer(serializers.Serializer):
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="lgd_ and the token's next 8 characters.")
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=Scope.values))
    source = serializers.ChoiceField(choices=Source.choices)
    expiresAt = TimestampField(source="expires_at", allow_null=True)


class MeOutputSerializer(serializers.Serializer):
    """The fields document the body; it is built directly, since every plugin calls /me
    on start and the nested serializers cost more than the token lookup (bench/auth.py)."""

    authenticated = serializers.BooleanField()
    user = MeUserSerializer(required=False, help_text="Present when a token was sent.")
    token = MeTokenSerializer(required=False, help_text="Present when a token was sent.")

    def to_representation(self, caller: dict) -> dict:
        token = caller["token"]
        if token is None:
            return {"authenticated": False}
        user = token.user
        expires_at = token.expires_at
        return {
            "authenticated": True,
            "user": {"id": str(user.public_id), "firstName": user.first_name, "plan": user.plan},
            "token": {
                "name": token.name,
                "prefix": token.prefix,
                "scopes": list(token.scopes),
                "source": token.source,
                "expiresAt": None if expires_at is None else timestamp(expires_at),
            },
        }


# -- POST /device/code ---------------------------------------------------------------


class DeviceCodeInputSerializer(serializers.Serializer):
    source = serializers.ChoiceField(choices=PLUGIN_SOURCES)
    clientName = StrictCharField(
        max_length=60,
        required=False,
        allow_blank=True,
        help_text="Shown to the person on the confirmation page.",
    )


class DeviceCodeDataSerializer(serializers.Serializer):
    deviceCode = serializers.CharField(
        help_text="Secret: kept by the client, sent to /device/token."
    )
    userCode = serializers.CharField(help_text="XXXX-XXXX, typed by the person on the website.")
    verificationUri = serializers.URLField()
    verificationUriComplete = serializers.URLField()
    expiresIn = serializers.IntegerField(help_text="Seconds.")
    interval = serializers.IntegerField(help_text="Seconds to wait between polls.")


class DeviceCodeOutputSerializer(serializers.Serializer):
    data = DeviceCodeDataSerializer()


# -- POST /device/token --------------------------------------------------------------


class DeviceTokenInputSerializer(serializers.Serializer):
    deviceCode = StrictCharField(min_length=1, max_length=100, trim_whitespace=False)


class DeviceTokenUserSerializer(serializers.Serializer):
    firstName = serializers.CharField(source="first_name", allow_null=True)
    plan = serializers.ChoiceField(choices=Plan.values)


class DeviceTokenDataSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="The API token; shown this once.")
    user = DeviceTokenUserSerializer()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=Scope.values))
    expiresAt = TimestampField(allow_null=True)


class DeviceTokenOutputSerializer(serializers.Serializer):
    data = DeviceTokenDataSerializer()


DEVICE_TOKEN_ERRORS = [
    *(code.value for code in DeviceFlowErrorCode),
    ErrorCode.INVALID_REQUEST.value,
]


class DeviceTokenErrorSerializer(serializers.Serializer):
    error = serializers.ChoiceField(choices=DEVICE_TOKEN_ERRORS)
    message = serializers.CharField()
    details = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="With INVALID_REQUEST only: messages per body key.",
    )
