import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from django.core.cache import cache
from playwright.sync_api import sync_playwright
from rest_framework.test import APIClient

from tests.network import free_port
from tests.openapi import served_document
from tests.reliability.servers import RedisServer

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parent / "artifacts" / "screenshots"
# Only DejaVu, drawn one fixed way: screenshots look the same on every machine.
FONTS = Path(__file__).resolve().parent / "fonts.conf"


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
            body = response.content or None
            if body is not None and response.get("Content-Type", "").startswith("application/json"):
                body = json.loads(body)
            served_document().validate(
                request["REQUEST_METHOD"], path, response.status_code, body, response.headers
            )
        return response


@pytest.fixture
def api():
    return ContractClient()


def use_s3_storage(settings, *, endpoint: str, bucket: str) -> None:
    """Points the default storage at a bucket of an S3-compatible server, as production does."""
    settings.STORAGE_BACKEND = "s3"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": bucket,
                "endpoint_url": endpoint,
                "region_name": "us-east-1",
                "access_key": "test",
                "secret_key": "test",
                "signature_version": "s3v4",
                "addressing_style": "path",
                "default_acl": None,
                "file_overwrite": False,
                "location": "files",
                "querystring_auth": True,
                "querystring_expire": 3600,
            },
        },
    }


@pytest.fixture
def redis_unreachable(settings):
    """The caches, and with them every count in Redis, pointed at a port nothing listens on."""
    unreachable = f"redis://127.0.0.1:{free_port()}/0"
    settings.CACHES = {
        alias: {**cache, "LOCATION": unreachable} for alias, cache in settings.CACHES.items()
    }


@pytest.fixture
def s3_storage(settings):
    """A fresh bucket on the S3 server the test command starts (moto); returns its name."""
    endpoint = os.environ.get("S3_TEST_ENDPOINT_URL")
    assert endpoint, "S3_TEST_ENDPOINT_URL is not set: scripts/test.sh starts an S3 server"
    bucket = f"logos-{uuid.uuid4().hex[:12]}"
    boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    ).create_bucket(Bucket=bucket)
    use_s3_storage(settings, endpoint=endpoint, bucket=bucket)
    return bucket


@pytest.fixture
def chromium(monkeypatch, live_server):
    """Debian's chromium, driven by Playwright (no browser download), beside the live
    server; a missing chromium fails the test, never skips it. Screenshots go to
    SCREENSHOTS."""
    # Playwright's sync API runs an asyncio loop in this thread, so Django takes every
    # ORM call made here (test data, checks) for one made from async code and raises
    # SynchronousOnlyOperation. Nothing here is async: the pages are served by the
    # live server's own thread.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox"],
            env={**os.environ, "FONTCONFIG_FILE": str(FONTS)},
        )
        yield browser
        browser.close()


def browser_page(chromium, live_server, **options):
    """A page of a new browser context on the live server, its default timeout 10 s."""
    context = chromium.new_context(base_url=live_server.url, **options)
    context.set_default_timeout(10_000)
    return context.new_page()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A redis-server of this test's own, which it may stop, pause and start again."""
    server = RedisServer(free_port())
    server.start()
    yield server
    server.stop()


@pytest.fixture
def person():
    """A signed-up person of the website."""
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def browser(person):
    """The website as `person` sees it, signed in, in English (Django's test client)."""
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(person)
    return client
