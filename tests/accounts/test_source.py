"""Where a request comes from: the token's origin, or X-Service-Source when anonymous."""

import pytest
from django.test import RequestFactory

from accounts.authentication import source_of
from tests.factories import bearer, token_for

pytestmark = pytest.mark.django_db


def _request(**headers):
    return RequestFactory().get("/v1/public/me", **headers)


@pytest.mark.parametrize(
    ("header", "source"),
    [("FIGMA", "FIGMA"), ("chrome", "CHROME"), (" MCP ", "MCP"), ("API", "API"), ("", "API")],
)
def test_it_takes_the_header_of_an_anonymous_request(header, source):
    assert source_of(_request(HTTP_X_SERVICE_SOURCE=header)) == source


def test_it_counts_an_unknown_or_missing_header_as_api():
    assert source_of(_request(HTTP_X_SERVICE_SOURCE="SLACK")) == "API"
    assert source_of(_request()) == "API"


def test_it_takes_the_tokens_origin_over_the_header():
    secret = token_for(source="CHROME")

    assert source_of(_request(HTTP_X_SERVICE_SOURCE="FIGMA", **bearer(secret))) == "CHROME"
