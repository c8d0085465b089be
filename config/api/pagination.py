from math import ceil
from typing import Any

from django.db.models import QuerySet
from rest_framework import serializers

from config.api.inputs import QueryIntegerField

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


def paginate(queryset: QuerySet | list, *, page: int, page_size: int, total: int | None = None):
    """One page of `queryset` and its envelope; `total` is always exact.

    A page past the last is empty with correct totals, and costs no row query.
    """
    if total is None:
        total = queryset.count() if isinstance(queryset, QuerySet) else len(queryset)
    offset = (page - 1) * page_size
    items: list[Any] = list(queryset[offset : offset + page_size]) if offset < total else []
    envelope = {
        "page": page,
        "pageSize": page_size,
        "total": total,
        "totalPages": ceil(total / page_size),
    }
    return items, envelope
