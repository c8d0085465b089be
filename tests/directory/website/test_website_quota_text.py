"""What the logo page says about the download quota, with the times it names: when the
oldest counted download stops counting, until when a repeat is free, when the next
download is possible at the limit, and that a repeat did not count; in both languages,
in the site's time zone (Europe/Madrid)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from directory.downloads.models import Download
from tests.factories import CompanyFactory, LogoFactory, add_file, png_bytes, svg_bytes

pytestmark = pytest.mark.django_db

# 09:15 in Madrid (UTC+1 in winter).
START = datetime(2026, 1, 12, 8, 15, tzinfo=UTC)


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def logos():
    made = []
    for number in range(4):
        company = CompanyFactory(slug=f"empresa-{number}", name=f"Empresa {number}")
        logo = LogoFactory(company=company, slug=f"empresa-{number}-logo")
        add_file(logo, svg_bytes())
        add_file(logo, png_bytes())
        made.append(logo)
    return made


def _download(client, logo, file_format: str = "SVG", language: str = "en"):
    asset = logo.assets.get(format=file_format)
    path, data = f"/logos/{logo.slug}/download", {"asset": str(asset.pk)}
    return client.post(path, data, follow=True, HTTP_ACCEPT_LANGUAGE=language)


def _page(client, logo, language: str) -> str:
    return client.get(f"/logos/{logo.slug}", HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.mark.parametrize(
    ("language", "resets", "repeat"),
    [
        (
            "en",
            "The oldest one stops counting on 13 Jan, 09:15.",
            "downloading it again until 12 Jan, 21:15 does not count.",
        ),
        (
            "es",
            "La más antigua deja de contar el 13 Ene, 09:15.",
            "volver a descargarlo hasta el 12 Ene, 21:15",
        ),
    ],
)
def test_it_says_when_the_count_resets_and_until_when_a_repeat_is_free(
    client, clock, logos, language, resets, repeat
):
    _download(client, logos[0])
    clock.shift(timedelta(hours=1))

    page = _page(client, logos[0], language)

    assert resets in page
    assert repeat in page
    # Another logo is not a repeat.
    assert repeat not in _page(client, logos[1], language)


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "You had downloaded this logo already: it did not count."),
        ("es", "Ya habías descargado este logo: no ha contado."),
    ],
)
def test_it_says_a_repeat_within_12_hours_did_not_count(client, clock, logos, language, message):
    _download(client, logos[0])
    clock.shift(timedelta(hours=11, minutes=59))

    page = _download(client, logos[0], "PNG", language).content.decode()

    assert message in page
    assert list(Download.objects.order_by("id").values_list("counted", flat=True)) == [True, False]


def test_it_counts_the_same_logo_again_after_12_hours(client, clock, logos):
    _download(client, logos[0])
    clock.shift(timedelta(hours=12, minutes=1))

    page = _download(client, logos[0]).content.decode()

    assert "it did not count" not in page
    assert "1 of 3 downloads left" in page


@pytest.mark.parametrize(
    ("language", "used_up", "button"),
    [
        (
            "en",
            "You have used all your downloads for now. The next one is possible on 13 Jan, 09:15.",
            "SVG: limit reached",
        ),
        (
            "es",
            "Has usado todas tus descargas por ahora. La siguiente será posible el 13 Ene, 09:15.",
            "SVG: límite alcanzado",
        ),
    ],
)
def test_it_says_at_the_limit_when_the_next_download_is_possible(
    client, clock, logos, language, used_up, button
):
    for logo in logos[:3]:
        _download(client, logo)
        clock.shift(timedelta(minutes=20))

    page = _page(client, logos[3], language)

    assert used_up in " ".join(page.split())
    assert button in page
    assert page.count(" disabled>") == 2  # both buttons, SVG and PNG
