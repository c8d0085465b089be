from math import ceil
from typing import Any

from rest_framework import serializers

from api.inputs import QueryIntegerField

MAX_PAGE = 500
MAX_PAGE_SIZE = 50
DEFAULT_PAGE_SIZE = 20


class PageQuerySerializer(serializers.Serializer):
    page = QueryIntegerField(min_value=1, max_value=MAX_PAGE, default=1)
    pageSize = QueryIntegerField(min_value=1, max_value=MAX_PAGE_SIZE, default=DEFAULT_PAGE_SIZE)


class PageEnvelopeSerializer(serializers.Serializer):
    """The pagination envelope; subclasses declare `data`."""

    page = serializers.IntegerField()
    pageSize = serializers.IntegerField()
    total = serializers.IntegerField()
    totalPages = serializers.IntegerField()


def page_window(page: int, page_size: int) -> tuple[int, int]:
    """(offset, limit) of a page."""
    return (page - 1) * page_size, page_size


def envelope(items: list[Any], *, page: int, page_size: int, total: int) -> dict[str, Any]:
    """The pagination envelope; a page past the last is empty with the true totals."""
    return {
        "data": items,
        "page": page,
        "pageSize": page_size,
        "total": total,
        "totalPages": ceil(total / page_size),
    }
