import pytest

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
    assert allowed == {"authorization", "content-type", "x-service-source"}


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
