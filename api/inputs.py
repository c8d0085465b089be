import contextlib

from rest_framework import serializers

from api.rows import shared_serializer


def parse(serializer_class: type[serializers.Serializer], data, **context) -> dict:
    """Validated input, or INVALID_REQUEST with per-field details (via the handler).

    Without context, one instance of each input serializer validates every request:
    `run_validation` keeps nothing on the instance, and making an instance deep-copies
    its fields, which cost a search several times what validating its query does
    (docs/performance.md, Query validation).
    """
    if not context:
        with contextlib.suppress(serializers.ValidationError):
            return shared_serializer(serializer_class).run_validation(data)
    # Input in a context, or invalid: a serializer of its own, whose is_valid words the
    # errors (an absent body's "No data provided" among them).
    serializer = serializer_class(data=data, context=context)
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


# JSON bodies: a value of the wrong JSON type is refused, not coerced ("12" is not a
# number, 1 is not true, 12 is not a name), so a client's mistake never becomes data.


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictNumberField(serializers.FloatField):
    default_error_messages = {"invalid": "A number is required."}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        value = super().to_internal_value(data)
        # Keep 90 as 90, not 90.0: the value is returned as it was sent.
        return int(value) if isinstance(data, int) else value


class StrictCharField(serializers.CharField):
    default_error_messages = {"invalid": "A string is required."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictUUIDField(serializers.UUIDField):
    """A UUID in a JSON body is a string: DRF would also read 0 as a UUID (by its int)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)
