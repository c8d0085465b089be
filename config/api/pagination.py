from collections.abc import Callable, Iterable
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


def paginate(
    queryset: QuerySet,
    *,
    page: int,
    page_size: int,
    load: Callable[[list], Iterable[Any]] | None = None,
):
    """One page of `queryset` and its envelope; `total` is always exact.

    With `load`, the page is chosen by primary key first and `load(ids)` fetches
    those rows with whatever they join: otherwise the database joins every
    match before it sorts and cuts the page. A page past the last is empty with
    correct totals, and costs no row query.
    """
    total = queryset.count()
    offset = (page - 1) * page_size
    items: list[Any] = []
    if offset < total and load is None:
        items = list(queryset[offset : offset + page_size])
    elif offset < total:
        ids = list(queryset.values_list("pk", flat=True)[offset : offset + page_size])
        rows = {row.pk: row for row in load(ids)}
        items = [rows[pk] for pk in ids if pk in rows]
    envelope = {
        "page": page,
        "pageSize": page_size,
        "total": total,
        "totalPages": ceil(total / page_size),
    }
    return items, envelope
