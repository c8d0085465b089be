"""The Logo Link with S3 storage, against the S3-compatible server the test command starts:
renditions kept in the bucket beside the previews, answered by redirect."""

import io
import os
from urllib.parse import urlsplit

import boto3
import pytest
from PIL import Image

from tests.factories import CompanyFactory, LogoFactory, add_file, make_current, svg_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def bucket(settings, s3_storage):
    """Previews (and so renditions) in the same bucket, under previews/, as in production."""
    settings.STORAGES = {
        **settings.STORAGES,
        "previews": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                **settings.STORAGES["default"]["OPTIONS"],
                "location": "previews",
                "querystring_auth": False,
                "object_parameters": {"CacheControl": "public, max-age=31536000, immutable"},
            },
        },
    }
    return s3_storage


@pytest.fixture
def s3():
    return boto3.client(
        "s3",
        endpoint_url=os.environ["S3_TEST_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )


@pytest.fixture
def acme(bucket):
    company = CompanyFactory(slug="acme", website="https://acme.es")
    logo = LogoFactory(company=company)
    add_file(logo, svg_bytes("#C8102E", width=200, height=100))
    make_current(logo)
    return company


def _key(response, bucket: str) -> str:
    path = urlsplit(response["Location"]).path
    assert path.startswith(f"/{bucket}/previews/img/")
    return path.removeprefix(f"/{bucket}/")


def test_it_redirects_to_the_rendition_kept_in_the_bucket(api, acme, bucket, s3):
    response = api.get("/v1/public/img/acme.es?size=64&format=webp")

    assert response.status_code == 302
    assert response["Cache-Control"] == "public, max-age=86400"
    assert response["ETag"]
    assert response["Location"].startswith(os.environ["S3_TEST_ENDPOINT_URL"])
    stored = s3.get_object(Bucket=bucket, Key=_key(response, bucket))
    assert stored["ContentType"] == "image/webp"
    assert stored["CacheControl"] == "public, max-age=31536000, immutable"
    picture = Image.open(io.BytesIO(stored["Body"].read()))
    assert (picture.format, picture.size) == ("WEBP", (64, 64))


def test_it_draws_once_and_redirects_without_drawing_again(api, acme, bucket, s3):
    first = api.get("/v1/public/img/acme.es")
    # Without the original in the bucket, only the stored rendition can answer.
    s3.delete_object(Bucket=bucket, Key=f"files/{acme.current_logo.assets.get().file.name}")
    again = api.get("/v1/public/img/acme")

    assert again.status_code == 302
    assert again["Location"] == first["Location"]
    assert again["ETag"] == first["ETag"]


def test_it_answers_304_before_looking_at_the_bucket(api, acme):
    first = api.get("/v1/public/img/acme.es")

    again = api.get("/v1/public/img/acme.es", HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]


def test_it_keeps_one_object_per_rendition(api, acme, bucket, s3):
    for _ in range(2):
        for query in ("", "size=32", "theme=dark", "format=webp"):
            api.get(f"/v1/public/img/acme.es?{query}")
        api.get("/v1/public/img/unknown.es")

    listed = s3.list_objects_v2(Bucket=bucket, Prefix="previews/img/")

    assert listed["KeyCount"] == 5
