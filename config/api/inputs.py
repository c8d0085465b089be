from rest_framework import serializers


def parse(serializer_class: type[serializers.Serializer], data) -> dict:
    """Validated input, or INVALID_REQUEST with per-field details (via the handler)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class _PresentMeansGiven:
    """A query parameter that is present is validated, even when empty.

    DRF reads `page=` as if the parameter were absent; for this API an empty
    value is a value, and "" is neither an integer nor one of an enum's values.
    """

    def get_value(self, dictionary):
        if self.field_name in dictionary:
            return dictionary[self.field_name]
        return serializers.empty


class QueryIntegerField(_PresentMeansGiven, serializers.IntegerField):
    pass


class QueryChoiceField(_PresentMeansGiven, serializers.ChoiceField):
    pass
