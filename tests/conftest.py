import json

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.openapi import served_document


@pytest.fixture(autouse=True)
def _isolated_media(settings, tmp_path):
    """Each test writes files into its own folder, never into the project's media."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": tmp_path / "media" / "files", "base_url": None},
        },
        "previews": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {
                "location": tmp_path / "media" / "previews",
                "base_url": settings.SITE_URL + settings.PREVIEW_URL_PATH,
            },
        },
    }


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Real hashing takes ~0.3 s per user; what is under test here is not the hasher.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


class ContractClient(APIClient):
    """A test client that checks every /v1/public response against the served document."""

    def request(self, **request):
        response = super().request(**request)
        path = request["PATH_INFO"]
        if path.startswith("/v1/public/") and not path.endswith("openapi.json"):
            body = json.loads(response.content) if response.content else None
            served_document().validate(
                request["REQUEST_METHOD"], path, response.status_code, body, response.headers
            )
        return response


@pytest.fixture
def api():
    return ContractClient()
