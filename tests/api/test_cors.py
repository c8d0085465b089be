import pytest

from tests.openapi import served_document

pytestmark = pytest.mark.django_db

ORIGIN = "https://www.figma.com"


def test_it_answers_a_preflight_from_any_origin_without_credentials(api):
    response = api.options(
        "/v1/public/companies",
        HTTP_ORIGIN=ORIGIN,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, x-service-source",
    )

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    allowed = {h.strip() for h in response["Access-Control-Allow-Headers"].split(",")}
    assert allowed == {
        "authorization",
        "content-type",
        "if-none-match",
        "x-request-id",
        "x-service-source",
    }


def _preflight(api, method: str, headers: str = ""):
    return api.options(
        "/v1/public/domains",
        HTTP_ORIGIN=ORIGIN,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS=headers,
    )


def _listed(value: str) -> set[str]:
    return {item.strip() for item in value.split(",")}


def test_it_lets_a_browser_client_revalidate_with_if_none_match(api):
    response = _preflight(api, "GET", "if-none-match")

    assert "if-none-match" in _listed(response["Access-Control-Allow-Headers"])


def test_it_allows_exactly_the_methods_the_api_serves(api):
    served = {
        method.upper()
        for operations in served_document().document["paths"].values()
        for method in operations
    }

    allowed = _listed(_preflight(api, "DELETE")["Access-Control-Allow-Methods"])

    assert allowed == served == {"GET", "POST", "PATCH", "DELETE"}


def test_it_answers_every_origin_alike_so_nothing_varies_by_origin(api):
    with_origin = api.get("/v1/public/domains", HTTP_ORIGIN=ORIGIN)
    without = api.get("/v1/public/domains")

    for response in (with_origin, without):
        assert response["Access-Control-Allow-Origin"] == "*"
        assert "Origin" not in response.get("Vary", "")


def test_it_exposes_the_headers_clients_need(api):
    response = api.get("/v1/public/companies", HTTP_ORIGIN=ORIGIN)

    assert response["Access-Control-Allow-Origin"] == "*"
    exposed = {h.strip() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert {
        "Retry-After",
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
    } <= exposed


def test_it_sends_cors_headers_on_errors_too(api):
    response = api.get("/v1/public/nope", HTTP_ORIGIN=ORIGIN)

    assert response.status_code == 404
    assert response["Access-Control-Allow-Origin"] == "*"


def test_it_keeps_cors_off_the_website_and_admin(client):
    response = client.get("/admin/login/", HTTP_ORIGIN=ORIGIN)

    assert "Access-Control-Allow-Origin" not in response
