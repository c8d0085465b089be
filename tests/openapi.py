"""Checks responses against the OpenAPI document the service itself serves.

The document is OpenAPI 3.0 (`nullable`), so it is turned into JSON Schema
first. Objects are closed (no properties beyond the documented ones) so that a
field served but not described fails as loudly as one described but not served.
"""

import re
from functools import cache

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012


def _to_json_schema(node):
    if isinstance(node, list):
        return [_to_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _to_json_schema(value) for key, value in node.items()}
    if node.get("type") == "object" and "properties" in node:
        node.setdefault("additionalProperties", False)
    if node.pop("nullable", False):
        return {"anyOf": [{"type": "null"}, node]}
    return node


class OpenApiDocument:
    def __init__(self, document: dict) -> None:
        self.document = document
        root = {"components": _rebase(_to_json_schema(document.get("components", {})))}
        self.registry = Registry().with_resource("urn:openapi", Resource(root, DRAFT202012))
        self.routes = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), path)
            for path in document["paths"]
        ]

    def operation(self, path: str, method: str) -> dict | None:
        for pattern, template in self.routes:
            if pattern.match(path):
                return self.document["paths"][template].get(method.lower())
        return None

    def validate(self, method: str, path: str, status: int, body, headers=None) -> None:
        """Raises AssertionError when a documented operation answers off its document."""
        operation = self.operation(path, method)
        if operation is None:
            return
        responses = operation["responses"]
        assert str(status) in responses, f"{method} {path}: status {status} is not documented"
        for name, header in responses[str(status)].get("headers", {}).items():
            if headers is not None and header.get("required"):
                assert name in headers, f"{method} {path} {status}: no {name} header"
        content = responses[str(status)].get("content")
        if content is None:
            assert body in (None, b"", ""), f"{method} {path} {status}: undocumented body"
            return
        media_type = "application/json"
        if headers is not None and "Content-Type" in headers:
            media_type = headers["Content-Type"].split(";")[0].strip()
        assert media_type in content, f"{method} {path} {status}: {media_type} is not documented"
        if media_type != "application/json":
            # Binary (an image): documented as a string of bytes, sent as some.
            assert content[media_type]["schema"] == {"type": "string", "format": "binary"}
            assert isinstance(body, bytes) and body, f"{method} {path} {status}: no bytes"
            return
        schema = _to_json_schema(content["application/json"]["schema"])
        schema = _rebase(schema)
        validator = Draft202012Validator(schema, registry=self.registry)
        errors = sorted(validator.iter_errors(body), key=lambda error: list(error.path))
        assert not errors, f"{method} {path} {status}: " + "; ".join(
            f"{list(error.path)}: {error.message}" for error in errors[:5]
        )


def _rebase(node):
    """Points local refs (#/components/...) at the registered document."""
    if isinstance(node, list):
        return [_rebase(item) for item in node]
    if isinstance(node, dict):
        return {
            key: ("urn:openapi" + value if key == "$ref" else _rebase(value))
            for key, value in node.items()
        }
    return node


@cache
def served_document() -> OpenApiDocument:
    from django.test import Client

    # From an address of its own (RFC 5737), so it spends nothing of a test's rate limit.
    response = Client(REMOTE_ADDR="192.0.2.1").get("/v1/public/openapi.json")
    assert response.status_code == 200
    return OpenApiDocument(response.json())
