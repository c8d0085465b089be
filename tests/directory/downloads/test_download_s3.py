"""The S3 storage path, against the S3-compatible server the test command starts (moto)."""

import os
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlsplit

import boto3
import pytest

from directory.downloads.models import Download
from tests.factories import CompanyFactory, LogoFactory, add_file, svg_bytes

pytestmark = pytest.mark.django_db


def test_it_presigns_a_one_hour_attachment_link_to_the_private_object(api, s3_storage):
    logo = LogoFactory(company=CompanyFactory(slug="sol"), slug="sol-2020")
    add_file(logo, svg_bytes())  # uploaded through django-storages

    data = api.post(
        f"/v1/public/logos/{logo.id}/download", {"format": "SVG"}, format="json"
    ).json()["data"]

    url = urlsplit(data["url"])
    query = parse_qs(url.query)
    assert url.path.startswith(f"/{s3_storage}/files/logos/")
    assert query["X-Amz-Expires"] == ["3600"]
    assert query["response-content-disposition"] == ['attachment; filename="sol-sol-2020.svg"']
    assert query["response-content-type"] == ["image/svg+xml"]
    with urllib.request.urlopen(data["url"], timeout=10) as response:  # noqa: S310 - loopback
        assert response.read() == svg_bytes()
        assert response.headers["Content-Disposition"] == 'attachment; filename="sol-sol-2020.svg"'
        assert response.headers["Content-Type"] == "image/svg+xml"


def test_it_keeps_the_objects_private(api, s3_storage):
    logo = LogoFactory()
    asset = add_file(logo, svg_bytes())
    endpoint = os.environ["S3_TEST_ENDPOINT_URL"]

    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{endpoint}/{s3_storage}/files/{asset.file.name}", timeout=10)  # noqa: S310

    assert refused.value.code == 403


def test_it_stores_each_object_with_the_type_judged_from_its_bytes(s3_storage):
    asset = add_file(LogoFactory(), svg_bytes())
    client = boto3.client(
        "s3",
        endpoint_url=os.environ["S3_TEST_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )

    head = client.head_object(Bucket=s3_storage, Key=f"files/{asset.file.name}")

    assert head["ContentType"] == "image/svg+xml"


def test_it_counts_nothing_when_the_object_is_missing_from_the_store(api, s3_storage, caplog):
    logo = LogoFactory()
    asset = add_file(logo, svg_bytes())
    boto3.client(
        "s3",
        endpoint_url=os.environ["S3_TEST_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    ).delete_object(Bucket=s3_storage, Key=f"files/{asset.file.name}")

    response = api.post(f"/v1/public/logos/{logo.id}/download", {"format": "SVG"}, format="json")

    # The catalogue says the file exists and the store says it does not: ours to fix.
    assert response.status_code == 500
    assert response.json()["error"] == "INTERNAL_ERROR"
    assert Download.objects.count() == 0
    assert "unhandled error in the public API" in caplog.text
