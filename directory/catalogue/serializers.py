"""Input and output serializers of the catalogue's read endpoints: a company, a logo, the
domains. The shapes they hold are in shapes.py; output field names are the contract's.
"""

from rest_framework import serializers

from api.rows import RowSerializer
from api.times import TimestampField
from directory.catalogue.shapes import (
    CompanyDetailSerializer,
    CompanySummarySerializer,
    LogoDetailSerializer,
)


# A path segment is looked up as it is: one of spaces is no company, not an invalid
# request (DRF would trim it to blank).
class CompanyLookupInputSerializer(serializers.Serializer):
    slug = serializers.CharField(min_length=1, max_length=255, trim_whitespace=False)


class CompanyDetailOutputSerializer(RowSerializer):
    data = CompanyDetailSerializer()


class DomainEntrySerializer(serializers.Serializer):
    domain = serializers.CharField()
    slug = serializers.CharField()
    name = serializers.CharField()


class DomainListOutputSerializer(serializers.Serializer):
    data = DomainEntrySerializer(many=True)
    generatedAt = TimestampField()


DOMAIN_INPUT_MAX_LENGTH = 2048


class DomainLookupInputSerializer(serializers.Serializer):
    """The domain as typed; the view normalises it. Text that is no domain name is not
    refused here: no company is known by it (404), as no schema could tell a domain or a
    web address on one from other text."""

    domain = serializers.CharField(max_length=DOMAIN_INPUT_MAX_LENGTH, trim_whitespace=False)


class DomainLookupOutputSerializer(RowSerializer):
    data = CompanySummarySerializer()


class LogoLookupInputSerializer(serializers.Serializer):
    id = serializers.CharField(min_length=1, max_length=255, trim_whitespace=False)


class LogoDetailOutputSerializer(RowSerializer):
    data = LogoDetailSerializer()
