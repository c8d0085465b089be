"""Uploads the OWASP tests send: an SVG file, and a proposal made with it."""

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import bearer

SVG_NS = "http://www.w3.org/2000/svg"


def svg_file(data: bytes, name: str = "logo.svg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/svg+xml")


def propose(api, secret: str, data: bytes, name: str = "logo.svg"):
    body = {"companyName": "Panadería Sol", "file": svg_file(data, name)}
    return api.post("/v1/public/proposals", body, format="multipart", **bearer(secret))
