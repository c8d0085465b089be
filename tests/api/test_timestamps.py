"""Every timestamp the API writes is UTC in one form, and the OpenAPI document says so;
the server's time zone (Europe/Madrid) is the website's alone."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings

from accounts.models import Plan
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    UserFactory,
    add_file,
    bearer,
    svg_bytes,
    token_for,
)

pytestmark = pytest.mark.django_db

# A summer evening in UTC is already the next day in Madrid (+02:00).
NOW = datetime(2026, 7, 1, 22, 30, 15, 123456, tzinfo=UTC)
FORM = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")


def _date_times(node, path=""):
    """(path, schema) of every date-time in a part of the document."""
    if isinstance(node, dict):
        if node.get("format") == "date-time":
            yield path, node
        for key, value in node.items():
            yield from _date_times(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _date_times(value, f"{path}/{index}")


def test_it_documents_every_timestamp_as_utc_to_the_millisecond(api):
    document = api.get("/v1/public/openapi.json").json()

    documented = dict(_date_times(document))

    assert {path.rsplit("/", 1)[1] for path in documented} == {
        "createdAt",
        "updatedAt",
        "reviewedAt",
        "expiresAt",
        "resetAt",
        "generatedAt",
    }
    for path, schema in documented.items():
        assert schema["pattern"] == r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$", path
        assert "UTC" in schema["description"], path
        assert FORM.fullmatch(schema["example"]), path
    assert "UTC" in document["info"]["description"]


def test_it_writes_timestamps_in_utc_whatever_the_server_time_zone(api):
    assert settings.TIME_ZONE == "Europe/Madrid"
    CompanyFactory(slug="acme", website="https://acme.es")
    logo = LogoFactory(company=CompanyFactory(slug="sol"), slug="sol-2020")
    add_file(logo, svg_bytes())
    secret = token_for(UserFactory(plan=Plan.FREE), expires_at=NOW + timedelta(days=30))

    with time_machine.travel(NOW, tick=False):
        domains = api.get("/v1/public/domains").json()
        me = api.get("/v1/public/me", **bearer(secret)).json()
        download = api.post(
            "/v1/public/logos/sol-2020/download", {"format": "svg"}, format="json", **bearer(secret)
        ).json()

    assert domains["generatedAt"] == "2026-07-01T22:30:15.123Z"
    assert me["token"]["expiresAt"] == "2026-07-31T22:30:15.123Z"
    assert download["data"]["expiresAt"] == "2026-07-01T23:30:15.123Z"
    assert download["quota"]["resetAt"] == "2026-07-02T22:30:15.123Z"
