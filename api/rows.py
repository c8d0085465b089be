"""Output serializers applied to rows that PostgreSQL built as JSON.

The hot read paths have PostgreSQL build each answer's rows as JSON, keyed by the
`source` of the output serializer's fields: the detail endpoints' ORM reads and DRF cost
several times the whole request more (bench/details.py, directory/catalogue/selectors.py), and
DRF's own path for rows (a serializer instance per request, walking every value through
its fields) would cost more than the query.
`row_shaper` reads the declaration once and returns a function that builds the same
answer from such a row, so that the serializer stays the one definition of the shape:
its fields are the OpenAPI schema, the ORM's instances go through DRF as usual, and a
field added there is read from the rows too.

Text, numbers, booleans, ids (strings in JSON) and lists of them are copied as the row
holds them: JSON already gives them as DRF would show them. Any other field (a URL
built from a slug, say) represents its value. A nested serializer reads the object
under its source, or the row itself when its source is "*"; a method field reads the
key of its own name. A field declared required=False may be absent from the row, and
is then left out, as DRF leaves it out of a dictionary that lacks it.
"""

import functools
from collections.abc import Callable
from operator import itemgetter

from rest_framework import serializers

Row = dict
Reader = Callable[[Row], object]
# Fields whose JSON value is what DRF shows.
_AS_JSON_GIVES = (
    serializers.CharField,
    serializers.IntegerField,
    serializers.BooleanField,
    serializers.UUIDField,
    serializers.ChoiceField,
)


@functools.cache
def shared_serializer(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    """One instance of a serializer, without data or context, for every request: making one
    deep-copies its declared fields, and neither its run_validation nor its
    to_representation keeps anything on it."""
    return serializer_class()


@functools.cache
def row_shaper(serializer_class: type[serializers.Serializer]) -> Callable[[Row], dict]:
    """A function that builds what `serializer_class` shows from a row of its sources."""
    return _shaper(shared_serializer(serializer_class).fields)


# An output serializer shown from a row of its sources by row_shaper, not by DRF. (No
# docstring: drf-spectacular would make it the description of every subclass.)
class RowSerializer(serializers.Serializer):
    def to_representation(self, row: Row) -> dict:
        return row_shaper(type(self))(row)


def _shaper(fields) -> Callable[[Row], dict]:
    readers = [(name, _reader(field)) for name, field in fields.items()]
    # Read-only fields are not required in DRF's eyes whatever they declare: only a
    # writable one can say that its key may be missing.
    optional = {
        name: field.source
        for name, field in fields.items()
        if not (field.required or field.read_only)
    }
    if not optional:
        return lambda row: {name: read(row) for name, read in readers}
    keyed = [(name, optional.get(name), read) for name, read in readers]
    return lambda row: {name: read(row) for name, key, read in keyed if key is None or key in row}


def _reader(field: serializers.Field) -> Reader:
    if isinstance(field, serializers.ListSerializer):
        item = _shaper(field.child.fields)
        items = itemgetter(field.source)
        return lambda row: [item(value) for value in items(row)]
    if isinstance(field, serializers.Serializer):
        nested = _shaper(field.fields)
        if field.source == "*":
            return nested
        value = itemgetter(field.source)
        return lambda row: None if (found := value(row)) is None else nested(found)
    if isinstance(field, serializers.SerializerMethodField):
        return itemgetter(field.field_name)
    value = itemgetter(field.source)
    if isinstance(field, _AS_JSON_GIVES) or (
        isinstance(field, serializers.ListField) and isinstance(field.child, _AS_JSON_GIVES)
    ):
        return value
    represent = field.to_representation
    return lambda row: represent(value(row))
