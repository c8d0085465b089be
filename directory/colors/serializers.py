"""Output serializer of a company's brand colours (GET /companies/{slug}/colors)."""

from rest_framework import serializers


class ColorsLogoSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    slug = serializers.CharField(allow_null=True)


class ColorsCompanySerializer(serializers.Serializer):
    slug = serializers.CharField(allow_null=True)
    name = serializers.CharField()


class CompanyColorsSerializer(serializers.Serializer):
    company = ColorsCompanySerializer()
    logo = ColorsLogoSerializer(allow_null=True)
    colors = serializers.ListField(child=serializers.CharField())
    cached = serializers.BooleanField(help_text="false: not computed yet for this logo.")
    message = serializers.CharField(allow_null=True)


class CompanyColorsOutputSerializer(serializers.Serializer):
    data = CompanyColorsSerializer()
