"""POST /logos/{id}/download: a temporary link, the quota, de-duplication, the file view."""

import io
import threading
from datetime import UTC, timedelta

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.db import close_old_connections, connection
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Plan, Scope
from directory.catalogue.models import Logo
from directory.downloads.models import Download, DownloadChannel
from directory.downloads.services import download_grant, download_subject
from tests.factories import (
    PDF_BYTES,
    CompanyFactory,
    LogoFactory,
    UserFactory,
    VariantFactory,
    add_file,
    bearer,
    png_bytes,
    svg_bytes,
    token_for,
)

pytestmark = pytest.mark.django_db

START = timezone.now().replace(microsecond=0)


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def logo():
    company = CompanyFactory(slug="cafes-sol", name="Cafés Sol")
    logo = LogoFactory(company=company, slug="sol-2020", title="Sol")
    add_file(logo, svg_bytes())
    add_file(logo, png_bytes())
    return logo


def _download(api, logo_id, body=None, **headers):
    return api.post(
        f"/v1/public/logos/{logo_id}/download",
        {"format": "svg"} if body is None else body,
        format="json",
        **headers,
    )


def _iso(moment) -> str:
    """A whole second as the API writes it: UTC, milliseconds, Z."""
    return f"{moment.astimezone(UTC):%Y-%m-%dT%H:%M:%S}.000Z"


# The link


def test_it_gives_an_anonymous_caller_a_link_and_the_quota(api, logo, clock):
    response = _download(api, logo.slug, HTTP_X_SERVICE_SOURCE="FIGMA")

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    asset = logo.assets.get(format="SVG")
    body = response.json()
    assert body == {
        "data": {
            "url": body["data"]["url"],
            "expiresIn": 3600,
            "expiresAt": _iso(START + timedelta(hours=1)),
            "filename": "cafes-sol-sol-2020.svg",
            "asset": {
                "id": str(asset.id),
                "format": "SVG",
                "variantId": None,
                "size": asset.size,
                "contentType": "image/svg+xml",
            },
        },
        "quota": {
            "unlimited": False,
            "used": 1,
            "limit": 3,
            "remaining": 2,
            "resetAt": _iso(START + timedelta(hours=24)),
        },
    }
    assert body["data"]["url"].startswith("http://testserver/files/")
    grant = Download.objects.get()
    assert (grant.user, grant.ip, grant.channel, grant.source, grant.counted) == (
        None,
        "127.0.0.1",
        "API",
        "FIGMA",
        True,
    )
    assert Logo.objects.get(pk=logo.pk).download_count == 1


def test_it_serves_the_file_behind_the_link(api, client, logo):
    url = _download(api, logo.id, {"format": "PNG"}).json()["data"]["url"]

    response = client.get(url.removeprefix("http://testserver"))

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == png_bytes()
    assert response["Content-Type"] == "image/png"
    assert response["Content-Disposition"] == 'attachment; filename="cafes-sol-sol-2020.png"'
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"] == "default-src 'none'; sandbox"


def test_it_refuses_an_expired_link_without_a_byte(api, client, logo, clock):
    url = _download(api, logo.id).json()["data"]["url"].removeprefix("http://testserver")

    clock.shift(timedelta(seconds=3599))
    assert client.get(url).status_code == 200
    clock.shift(timedelta(seconds=2))
    response = client.get(url)

    assert response.status_code == 403
    assert b"<svg" not in response.content


def test_it_refuses_a_tampered_link(api, client, logo):
    url = _download(api, logo.id).json()["data"]["url"].removeprefix("http://testserver")
    token = url.removeprefix("/files/")
    tampered = token[:-3] + ("AAA" if token[-3:] != "AAA" else "BBB")

    assert client.get(f"/files/{tampered}").status_code == 403
    assert client.get("/files/not-a-token").status_code == 403


# Choosing the file


def test_it_takes_the_format_in_any_case_and_a_variant_by_name_or_id(api, logo):
    variant = VariantFactory(logo=logo, key="negativo", name="Negativo")
    add_file(logo, svg_bytes("#000000"), variant=variant)

    by_name = _download(api, logo.id, {"format": "Svg", "variant": "NEGATIVO"}).json()["data"]
    by_id = _download(api, logo.id, {"format": "svg", "variant": str(variant.id)}).json()["data"]

    assert by_name["asset"]["variantId"] == by_id["asset"]["variantId"] == str(variant.id)
    assert by_name["filename"] == "cafes-sol-sol-2020-negativo.svg"


def test_it_takes_an_asset_by_id_alone(api, logo):
    asset = logo.assets.get(format="PNG")

    data = _download(api, logo.id, {"assetId": str(asset.id)}).json()["data"]

    assert data["asset"]["id"] == str(asset.id)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "format"),
        ({"format": "GIF"}, "format"),
        ({"format": "SVG", "variant": ""}, "variant"),
        ({"format": "SVG", "variant": "x" * 121}, "variant"),
        ({"assetId": "not-a-uuid"}, "assetId"),
    ],
)
def test_it_refuses_a_bad_body_and_counts_nothing(api, logo, body, field):
    response = _download(api, logo.id, body)

    assert response.status_code == 400
    assert set(response.json()["details"]) == {field}
    assert not Download.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"format": "PDF"},
        {"format": "SVG", "variant": "Monocromo"},
        {"assetId": "00000000-0000-0000-0000-000000000000"},
    ],
)
def test_it_answers_format_not_available_and_consumes_nothing(api, logo, body):
    other = LogoFactory()
    add_file(other, PDF_BYTES)
    if "assetId" in body:
        body = {"assetId": str(other.assets.get().id)}  # a file of another logo

    response = _download(api, logo.id, body)

    assert response.status_code == 404
    assert response.json()["error"] == "FORMAT_NOT_AVAILABLE"
    assert not Download.objects.exists()
    assert Logo.objects.get(pk=logo.pk).download_count == 0


def test_it_answers_logo_not_found(api):
    response = _download(api, "no-such-logo")

    assert (response.status_code, response.json()["error"]) == (404, "LOGO_NOT_FOUND")


@pytest.mark.parametrize("identifier", ["%09", "%20sol-2020"])
def test_it_looks_a_path_identifier_up_as_it_is_not_trimmed(api, logo, identifier):
    download = _download(api, identifier, {"format": "svg", "variant": "main"})
    detail = api.get(f"/v1/public/logos/{identifier}")

    assert (download.status_code, download.json()["error"]) == (404, "LOGO_NOT_FOUND")
    assert (detail.status_code, detail.json()["error"]) == (404, "LOGO_NOT_FOUND")


def test_it_needs_read_logos_when_a_token_is_sent(api, logo):
    secret = token_for(scopes=[Scope.READ_PALETTES])

    response = _download(api, logo.id, **bearer(secret))

    assert (response.status_code, response.json()["error"]) == (403, "INSUFFICIENT_SCOPE")


# The quota


def _logos(count: int) -> list[Logo]:
    logos = []
    for _ in range(count):
        logo = LogoFactory()
        add_file(logo, svg_bytes())
        logos.append(logo)
    return logos


def test_it_allows_three_anonymous_downloads_a_day(api, clock):
    logos = _logos(4)
    for logo in logos[:3]:
        assert _download(api, logo.id).status_code == 200
        clock.shift(timedelta(hours=1))

    response = _download(api, logos[3].id)

    assert response.status_code == 429
    assert response["Retry-After"] == str(21 * 3600)
    assert response.json() == {
        "error": "DOWNLOAD_LIMIT_REACHED",
        "message": f"The download quota is used up; retry in {21 * 3600} s.",
        "quota": {
            "unlimited": False,
            "used": 3,
            "limit": 3,
            "remaining": 0,
            "resetAt": _iso(START + timedelta(hours=24)),
        },
    }
    assert Download.objects.count() == 3
    assert Logo.objects.get(pk=logos[3].pk).download_count == 0


def test_it_lets_the_oldest_download_leave_the_window_after_24_hours(api, clock):
    logos = _logos(4)
    for logo in logos[:3]:
        _download(api, logo.id)

    clock.shift(timedelta(hours=23, minutes=59, seconds=59))
    assert _download(api, logos[3].id).status_code == 429
    clock.shift(timedelta(seconds=1))
    response = _download(api, logos[3].id)

    assert response.status_code == 200
    assert response.json()["quota"]["used"] == 1


def test_it_allows_five_a_day_to_a_free_account_shared_with_the_website(api, clock):
    user = UserFactory(plan=Plan.FREE)
    auth = bearer(token_for(user))
    logos = _logos(6)
    download_grant(
        subject=download_subject(user=user, ip="10.0.0.1"),
        logo=logos[0],
        asset=logos[0].assets.get(),
        channel=DownloadChannel.WEB,
        source="API",
    )

    statuses = [_download(api, logo.id, **auth).status_code for logo in logos[1:]]

    assert statuses == [200, 200, 200, 200, 429]
    assert Download.objects.filter(user=user).count() == 5


@pytest.mark.parametrize("plan", [Plan.PRO, Plan.ENTERPRISE])
def test_it_never_limits_paid_plans_but_still_counts(api, plan):
    auth = bearer(token_for(UserFactory(plan=plan)))

    responses = [_download(api, logo.id, **auth) for logo in _logos(7)]

    assert {response.status_code for response in responses} == {200}
    assert responses[-1].json()["quota"] == {
        "unlimited": True,
        "used": 7,
        "limit": 0,
        "remaining": 0,
        "resetAt": None,
    }


def test_it_does_not_count_the_same_logo_again_within_twelve_hours(api, logo, clock):
    first = _download(api, logo.id).json()["quota"]
    clock.shift(timedelta(hours=11, minutes=59))
    again = _download(api, logo.id, {"format": "PNG"}).json()["quota"]
    clock.shift(timedelta(minutes=2))  # 12 h 01 min after the counted one
    later = _download(api, logo.id).json()["quota"]

    assert (first["used"], again["used"], later["used"]) == (1, 1, 2)
    assert list(Download.objects.order_by("created_at").values_list("counted", flat=True)) == [
        True,
        False,
        True,
    ]
    assert Logo.objects.get(pk=logo.pk).download_count == 2


def test_it_grants_a_repeat_even_when_the_quota_is_used_up(api, clock):
    logos = _logos(3)
    for logo in logos:
        _download(api, logo.id)

    response = _download(api, logos[0].id, {"format": "SVG"})

    assert response.status_code == 200
    assert response.json()["quota"]["remaining"] == 0


def test_it_counts_anonymous_callers_per_address(api, clock):
    logos = _logos(4)
    for logo in logos[:3]:
        _download(api, logo.id, REMOTE_ADDR="10.0.0.1")

    assert _download(api, logos[3].id, REMOTE_ADDR="10.0.0.1").status_code == 429
    assert _download(api, logos[3].id, REMOTE_ADDR="10.0.0.2").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_it_gives_the_last_unit_to_exactly_one_of_ten_simultaneous_requests():
    user = UserFactory(plan=Plan.FREE)
    auth = bearer(token_for(user))
    logos = _logos(14)
    for logo in logos[:4]:
        assert _download(APIClient(), logo.id, **auth).status_code == 200
    barrier = threading.Barrier(10)
    statuses = []

    def download(logo):
        try:
            client = APIClient()
            barrier.wait()
            statuses.append(_download(client, logo.id, **auth).status_code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=download, args=(logo,)) for logo in logos[4:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [200] + [429] * 9
    assert Download.objects.filter(user=user, counted=True).count() == 5
    assert sum(Logo.objects.values_list("download_count", flat=True)) == 5


def test_it_reads_a_format_alone_as_the_serializer_does(api, logo):
    # {"format": ...} alone takes a written-out path; anything else, the serializer's.
    plain = _download(api, logo.slug, {"format": "svg"}).json()["data"]
    padded = _download(api, logo.slug, {"format": " svg ", "other": 1}).json()["data"]

    assert plain["asset"] == padded["asset"]
    assert plain["filename"] == padded["filename"] == "cafes-sol-sol-2020.svg"
    assert _download(api, logo.slug, {"format": None}).status_code == 400
    assert _download(api, f"{logo.id}", {"format": "eps"}).json()["error"] == (
        "FORMAT_NOT_AVAILABLE"
    )
    assert Download.objects.filter(counted=True).count() == 1
    assert Logo.objects.get(pk=logo.pk).download_count == 1


@pytest.mark.django_db(transaction=True)
def test_it_relaxes_the_commit_of_the_grant_alone(api, logo):
    # The test command's throwaway cluster commits asynchronously throughout; a session
    # that waits for the disk shows whether the grant's relaxation outlives it.
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit = on")
    try:
        assert _download(api, logo.id).status_code == 200

        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone() == ("on",)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET synchronous_commit")
    assert Download.objects.filter(counted=True).count() == 1


def _downloaded(logo, *, ago: timedelta) -> Download:
    with time_machine.travel(timezone.now() - ago, tick=False):
        grant, _ = download_grant(
            subject=download_subject(user=UserFactory(plan=Plan.PRO), ip="192.0.2.7"),
            logo=logo,
            asset=logo.assets.first(),
            channel=DownloadChannel.API,
            source="API",
        )
    return grant


def test_it_prunes_old_download_records_and_keeps_the_counts(logo):
    _downloaded(logo, ago=timedelta(days=100))
    recent = _downloaded(logo, ago=timedelta(days=2))
    out = io.StringIO()

    call_command("prune_downloads", stdout=out)

    assert list(Download.objects.values_list("pk", flat=True)) == [recent.pk]
    assert Logo.objects.get(pk=logo.pk).download_count == 2
    assert out.getvalue() == "deleted 1 download records\n"


def test_it_never_prunes_the_day_quotas_read(logo):
    today = _downloaded(logo, ago=timedelta(hours=20))

    call_command("prune_downloads", "--older-than-days", "1", stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command("prune_downloads", "--older-than-days", "0")

    assert list(Download.objects.values_list("pk", flat=True)) == [today.pk]
