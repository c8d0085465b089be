"""Every failure under /v1/public reaches the client as {"error", "message"}."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path", ["/v1/public/nope", "/v1/public/nope/", "/v1/public/", "/v1/public/logos/x/y"]
)
def test_it_answers_unknown_paths_with_not_found_in_the_envelope(api, path):
    response = api.get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": "NOT_FOUND", "message": "No such endpoint."}


@pytest.mark.parametrize(
    ("path", "endpoint"),
    [
        ("/v1/public/companies/", "/v1/public/companies"),
        ("/v1/public/companies/acme/", "/v1/public/companies/acme"),
        ("/v1/public/logos/x/download//", "/v1/public/logos/x/download"),
        ("/v1/public/me/", "/v1/public/me"),
    ],
)
def test_it_names_the_path_without_its_trailing_slash(api, path, endpoint):
    for method in (api.get, api.post, api.delete):
        response = method(path)

        assert response.status_code == 404
        assert response.json() == {
            "error": "NOT_FOUND",
            "message": f"No such endpoint; paths take no trailing slash: {endpoint}",
        }


def test_it_answers_a_wrong_method_with_405_and_allow(api):
    response = api.delete("/v1/public/companies")

    assert response.status_code == 405
    assert response.json() == {
        "error": "METHOD_NOT_ALLOWED",
        "message": 'Method "DELETE" not allowed.',
    }
    assert response["Allow"] == "GET, HEAD, OPTIONS"


def test_it_answers_json_whatever_the_client_accepts(api):
    response = api.get("/v1/public/companies", HTTP_ACCEPT="text/html")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"


@pytest.fixture
def failing_urls(settings):
    settings.ROOT_URLCONF = "tests.config.urls_with_failures"


def test_it_hides_internals_behind_internal_error(api, failing_urls, caplog):
    response = api.get("/v1/public/_test/broken")

    assert response.status_code == 500
    assert response.json() == {
        "error": "INTERNAL_ERROR",
        "message": "Something went wrong on our side; it has been logged.",
    }
    assert "secret internals" in caplog.text  # logged for us, never sent to the client


def test_it_answers_an_unreachable_database_with_503_and_retry_after(api, failing_urls):
    response = api.get("/v1/public/_test/database-down")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {
        "error": "SERVICE_UNAVAILABLE",
        "message": "A backing service is unavailable; retry shortly.",
    }


def test_it_keeps_html_error_pages_off_the_api_but_on_the_site(client):
    assert client.get("/no-such-page")["Content-Type"].startswith("text/html")
    assert client.get("/v1/public/no-such-page")["Content-Type"] == "application/json"


def test_it_sets_no_cookie_under_the_public_api(api, admin_client):
    # Even a logged-in browser session gets no cookie back from the API.
    response = admin_client.get("/v1/public/companies")

    assert response.status_code == 200
    assert not response.cookies
    assert "Set-Cookie" not in response


def test_it_answers_if_none_match_with_304(api):
    first = api.get("/v1/public/companies")
    again = api.get("/v1/public/companies", HTTP_IF_NONE_MATCH=first["ETag"])

    assert first["ETag"]
    assert again.status_code == 304
    assert again.content == b""


def test_it_changes_the_etag_when_the_answer_changes(api):
    from tests.factories import CompanyFactory

    before = api.get("/v1/public/companies")["ETag"]
    CompanyFactory()

    assert api.get("/v1/public/companies", HTTP_IF_NONE_MATCH=before).status_code == 200
