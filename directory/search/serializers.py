"""Input and output serializers of company and logo search (GET /companies, GET /logos)."""

from rest_framework import serializers

from api.inputs import (
    QueryChoiceField,
)
from api.pagination import PageEnvelopeSerializer, PageQuerySerializer
from api.rows import RowSerializer
from directory.catalogue.shapes import (
    CompanySummarySerializer,
    LogoSearchItemSerializer,
)
from directory.search.selectors import CONTROL_CHARACTERS

SEARCH_TERM_HELP = (
    "Words to look for, ignoring accents and case. Punctuation and control characters "
    "(NUL among them) separate words."
)


class SearchTextField(serializers.CharField):
    """Text typed into a search: control characters, NUL among them, are word breaks as
    everywhere search reads a term (directory/search/selectors.py), not a reason to refuse it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_blank", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = CONTROL_CHARACTERS.sub(" ", data)
        return super().to_internal_value(data)


class CompanySearchInputSerializer(PageQuerySerializer):
    q = SearchTextField(max_length=100, help_text=SEARCH_TERM_HELP)
    sector = SearchTextField(
        max_length=100,
        help_text="A sector's slug, or its name ignoring accents and case; control "
        "characters count as spaces.",
    )
    province = SearchTextField(
        max_length=120,
        help_text="A province, ignoring accents and case; control characters count as spaces.",
    )
    related = QueryChoiceField(
        choices=["0", "1", "true", "false"],
        required=False,
        help_text="true or 1: add `related`, companies related by meaning (first page only).",
    )

    def validate_related(self, value: str) -> bool:
        return value in ("1", "true")


class CompanySearchOutputSerializer(RowSerializer, PageEnvelopeSerializer):
    data = CompanySummarySerializer(many=True)
    related = CompanySummarySerializer(
        many=True,
        required=False,
        help_text="Present only when related=true: companies related to q by meaning.",
    )


class LogoSearchInputSerializer(PageQuerySerializer):
    q = SearchTextField(max_length=100, help_text=SEARCH_TERM_HELP)


class LogoSearchOutputSerializer(RowSerializer, PageEnvelopeSerializer):
    data = LogoSearchItemSerializer(many=True)
