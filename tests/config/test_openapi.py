import io
import json

import pytest
from django.core.management import call_command
from openapi_spec_validator import validate

from api.errors import ErrorCode
from directory.errors import DirectoryErrorCode
from palettes.errors import PaletteErrorCode
from proposals.errors import ProposalErrorCode

pytestmark = pytest.mark.django_db


def test_it_serves_a_valid_openapi_3_0_3_document_version_1_0_0(api):
    response = api.get("/v1/public/openapi.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    document = response.json()
    assert document["openapi"] == "3.0.3"
    assert document["info"]["version"] == "1.0.0"
    validate(document)


def test_it_describes_the_public_api_only(api):
    paths = set(api.get("/v1/public/openapi.json").json()["paths"])

    assert paths == {
        "/v1/public/companies",
        "/v1/public/companies/{slug}",
        "/v1/public/companies/{slug}/colors",
        "/v1/public/domains",
        "/v1/public/domains/{domain}",
        "/v1/public/img/{identifier}",
        "/v1/public/logos",
        "/v1/public/logos/{id}",
        "/v1/public/logos/{id}/download",
        "/v1/public/me",
        "/v1/public/me/token",
        "/v1/public/device/code",
        "/v1/public/device/token",
        "/v1/public/palettes",
        "/v1/public/palettes/{id}",
        "/v1/public/proposals",
    }


def test_it_generates_the_document_without_a_single_warning():
    out = io.StringIO()
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", stdout=out
    )

    assert json.loads(out.getvalue())["openapi"] == "3.0.3"


def test_it_documents_every_error_with_the_envelope(api):
    document = api.get("/v1/public/openapi.json").json()

    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")) and status != "304":
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    envelopes = {
                        "Error",
                        "ValidationError",
                        "DeviceTokenError",
                        "DownloadLimitError",
                    }
                    assert ref.rsplit("/", 1)[1] in envelopes, (method, path)


def test_it_documents_the_generic_error_codes_and_each_apps_own_once(api):
    enum = api.get("/v1/public/openapi.json").json()["components"]["schemas"]["ErrorCodeEnum"]

    declared = [ErrorCode, DirectoryErrorCode, PaletteErrorCode, ProposalErrorCode]
    assert sorted(enum["enum"]) == sorted(code.value for codes in declared for code in codes)
    assert len(set(enum["enum"])) == len(enum["enum"])


def test_it_documents_parameter_bounds(api):
    document = api.get("/v1/public/openapi.json").json()
    parameters = {
        p["name"]: p["schema"]
        for p in document["paths"]["/v1/public/companies"]["get"]["parameters"]
    }

    assert parameters["page"] == {"type": "integer", "maximum": 500, "minimum": 1, "default": 1}
    assert parameters["pageSize"] == {"type": "integer", "maximum": 50, "minimum": 1, "default": 20}
    assert parameters["q"]["maxLength"] == 100
    assert parameters["related"]["enum"] == ["0", "1", "true", "false"]


def test_it_serves_interactive_docs_with_no_outside_assets(client):
    response = client.get("/v1/public/docs")

    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "https://" not in html and "http://cdn" not in html


def test_it_requires_the_body_of_every_post(api):
    document = api.get("/v1/public/openapi.json").json()

    bodies = {
        path: operations["post"]["requestBody"]["required"]
        for path, operations in document["paths"].items()
        if "post" in operations and path != "/v1/public/me/token"
    }

    assert bodies == {
        "/v1/public/device/code": True,
        "/v1/public/device/token": True,
        "/v1/public/logos/{id}/download": True,
        "/v1/public/palettes": True,
        "/v1/public/proposals": True,
    }


def test_it_documents_a_download_body_by_format_or_by_asset(api):
    schemas = api.get("/v1/public/openapi.json").json()["components"]["schemas"]

    assert schemas["LogoDownloadInputRequest"] == {
        "anyOf": [
            {"$ref": "#/components/schemas/DownloadByFormatInputRequest"},
            {"$ref": "#/components/schemas/DownloadByAssetInputRequest"},
        ]
    }
    assert schemas["DownloadByFormatInputRequest"]["required"] == ["format"]
    assert schemas["DownloadByAssetInputRequest"]["required"] == ["assetId"]


def test_it_documents_one_create_body_per_palette_type(api):
    document = api.get("/v1/public/openapi.json").json()
    schemas = document["components"]["schemas"]
    body = document["paths"]["/v1/public/palettes"]["post"]["requestBody"]

    ref = body["content"]["application/json"]["schema"]["$ref"]
    assert schemas[ref.rsplit("/", 1)[1]]["oneOf"] == [
        {"$ref": "#/components/schemas/PaletteShapeInputRequest"},
        {"$ref": "#/components/schemas/GradientShapeInputRequest"},
    ]
    assert schemas["PaletteShapeInputRequest"]["properties"]["type"]["pattern"] == "^PALETTE$"
    assert schemas["GradientShapeInputRequest"]["properties"]["type"]["pattern"] == "^GRADIENT$"
