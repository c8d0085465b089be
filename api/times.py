"""Every timestamp the API writes: UTC, to the millisecond, in one form.

The server's TIME_ZONE is for the website, which may show local time; the API never
shows it. The form is JavaScript's Date.toISOString(), which RFC 3339 parsers read.
"""

from datetime import UTC, datetime

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

EXAMPLE = "2026-11-22T10:15:30.123Z"
PATTERN = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"


def timestamp(moment: datetime | str) -> str:
    """An aware datetime, or ISO 8601 text with an offset (the domain list keeps its
    time so in the cache), as the API writes it: 2026-11-22T10:15:30.123Z."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").removesuffix("+00:00") + "Z"


@extend_schema_field(
    {
        "type": "string",
        "format": "date-time",
        "pattern": PATTERN,
        "example": EXAMPLE,
        "description": "UTC, to the millisecond: YYYY-MM-DDTHH:MM:SS.sssZ.",
    }
)
class TimestampField(serializers.DateTimeField):
    """An output DateTimeField that writes `timestamp`'s form whatever the time zone."""

    def to_representation(self, value: datetime | str) -> str:
        return timestamp(value)
