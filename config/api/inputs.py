from rest_framework import serializers


def parse(serializer_class: type[serializers.Serializer], data) -> dict:
    """Validated input, or INVALID_REQUEST with per-field details (via the handler)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
