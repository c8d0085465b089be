"""A NUL, or another control character, where the API reads text: the document and the
answer agree. Search text reads them as word breaks; path identifiers, which never hold
one, refuse them as their documented pattern says."""

import re

import pytest
from jsonschema import Draft202012Validator

from tests.factories import CompanyFactory, LogoFactory, SectorFactory
from tests.openapi import served_document

pytestmark = pytest.mark.django_db


def names(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [item["name"] for item in response.json()["data"]]


def parameter_schema(path: str, name: str) -> dict:
    operation = served_document().document["paths"][path]["get"]
    return next(p["schema"] for p in operation["parameters"] if p["name"] == name)


def accepts(schema: dict, value: str) -> bool:
    # OpenAPI's patterns are ECMA-262 regular expressions; these ones read the same in Python.
    return Draft202012Validator(schema, format_checker=None).is_valid(value) and (
        "pattern" not in schema or re.search(schema["pattern"], value) is not None
    )


@pytest.mark.parametrize("control", ["\x00", "\x01", "\t", "\x1f", "\x7f"])
def test_it_reads_control_characters_in_a_company_search_as_word_breaks(api, control):
    telecom = SectorFactory(slug="telecom", name="Telecomunicación")
    CompanyFactory(name="Cien Natural", sector=telecom, province="A Coruña")
    CompanyFactory(name="Movilnet")

    assert names(api.get("/v1/public/companies", {"q": f"cien{control}natural"})) == [
        "Cien Natural"
    ]
    assert names(api.get("/v1/public/companies", {"q": control})) == ["Cien Natural", "Movilnet"]
    assert names(api.get("/v1/public/companies", {"sector": f"telecom{control}"})) == [
        "Cien Natural"
    ]
    assert names(api.get("/v1/public/companies", {"province": f"A{control}Coruña"})) == [
        "Cien Natural"
    ]


def test_it_reads_a_nul_in_a_logo_search_as_a_word_break(api):
    LogoFactory(title="Cien Natural", company=CompanyFactory(name="Zeta"))

    response = api.get("/v1/public/logos", {"q": "cien\x00natural"})

    assert response.status_code == 200
    assert [item["title"] for item in response.json()["data"]] == ["Cien Natural"]


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/v1/public/companies", "q"),
        ("/v1/public/companies", "sector"),
        ("/v1/public/companies", "province"),
        ("/v1/public/logos", "q"),
    ],
)
def test_it_documents_search_text_with_a_nul_as_valid(path, name):
    assert accepts(parameter_schema(path, name), "a\x00b")


@pytest.mark.parametrize(
    ("template", "name"),
    [
        ("/v1/public/companies/{slug}", "slug"),
        ("/v1/public/companies/{slug}/colors", "slug"),
        ("/v1/public/logos/{id}", "id"),
        ("/v1/public/domains/{domain}", "domain"),
        ("/v1/public/img/{identifier}", "identifier"),
    ],
)
def test_it_refuses_a_path_identifier_with_a_nul_as_documented(api, template, name):
    schema = parameter_schema(template, name)

    response = api.get(template.replace(f"{{{name}}}", "acme%00.es"))

    assert accepts(schema, "acme.es")
    assert not accepts(schema, "acme\x00.es")
    assert response.status_code == 400
    assert response.json()["details"] == {name: ["Null characters are not allowed."]}
