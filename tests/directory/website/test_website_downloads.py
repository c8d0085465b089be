"""Downloads from the logo page: the API's grant on the WEB channel, one quota shared
with the API, the 12-hour repeat, the limit said on the page. A download whose CSRF
token is refused: test_website_csrf.py."""

import threading

import pytest
from django.db import close_old_connections
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import Plan
from directory.catalogue.models import Logo
from directory.downloads.models import Download, DownloadChannel
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    UserFactory,
    add_file,
    bearer,
    png_bytes,
    svg_bytes,
    token_for,
)

pytestmark = pytest.mark.django_db

SVG = svg_bytes(fill="#1D4ED8")


def _logos(count: int, prefix: str = "empresa") -> list[Logo]:
    logos = []
    for n in range(count):
        company = CompanyFactory(slug=f"{prefix}-{n}", name=f"Empresa {n}")
        logo = LogoFactory(company=company, slug=f"{prefix}-{n}-logo", title=f"Empresa {n}")
        add_file(logo, SVG)
        logos.append(logo)
    return logos


@pytest.fixture
def logo():
    logo = _logos(1)[0]
    add_file(logo, png_bytes())
    return logo


def _download(client, logo, file_format: str = "SVG", **extra):
    asset = logo.assets.get(format=file_format)
    extra.setdefault("HTTP_ACCEPT_LANGUAGE", "en")
    return client.post(f"/logos/{logo.slug}/download", {"asset": str(asset.pk)}, **extra)


def _page(client, logo, language: str = "en") -> str:
    response = client.get(f"/logos/{logo.slug}", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_it_downloads_a_file_through_the_signed_link_of_the_api(client, logo):
    response = _download(client, logo)

    assert response.status_code == 302
    assert response["Location"] == f"/logos/{logo.slug}"
    page = _page(client, logo)
    link = page.split("data-start-download", 1)[0].rsplit('href="', 1)[1].split('"', 1)[0]
    assert link.startswith("http://testserver/files/")
    served = client.get(link.removeprefix("http://testserver"))
    assert b"".join(served.streaming_content) == SVG
    assert "attachment" in served["Content-Disposition"]
    grant = Download.objects.get()
    assert (grant.channel, grant.counted, grant.ip) == (DownloadChannel.WEB, True, "127.0.0.1")


def test_it_shows_the_quota_and_that_a_repeat_does_not_count(client, logo):
    assert "3 of 3 downloads left" in _page(client, logo)

    _download(client, logo)
    page = _page(client, logo)
    assert "2 of 3 downloads left" in page
    assert "The oldest one stops counting on" in page
    assert "downloading it again until" in page

    _download(client, logo, "PNG")
    assert "2 of 3 downloads left" in _page(client, logo)
    assert list(Download.objects.order_by("id").values_list("counted", flat=True)) == [True, False]


def test_it_counts_a_double_click_once(client, logo):
    first, second = _download(client, logo), _download(client, logo)

    assert (first.status_code, second.status_code) == (302, 302)
    assert Download.objects.filter(counted=True).count() == 1
    assert Logo.objects.get(pk=logo.pk).download_count == 1


def test_it_says_the_limit_on_the_buttons_and_refuses_past_it(client):
    logos = _logos(4)
    for logo in logos[:3]:
        _download(client, logo)

    page = _page(client, logos[3])
    assert "0 of 3 downloads left" in page
    assert "SVG: limit reached" in page
    assert "You have used all your downloads for now" in page
    response = _download(client, logos[3])
    assert response.status_code == 429
    assert "You have no downloads left for now" in response.content.decode()
    assert Download.objects.count() == 3
    # A logo already downloaded stays free to download again.
    assert "Download SVG" in _page(client, logos[0])


def test_it_speaks_the_visitors_language(client, logo):
    _download(client, logo)

    page = _page(client, logo, "es")

    assert "Te quedan 2 de 3 descargas en las últimas 24 horas." in page
    assert "Descargar SVG" in page


def test_it_shares_a_free_accounts_quota_with_its_api_tokens(client, api):
    user = UserFactory(plan=Plan.FREE)
    logos = _logos(3)
    client.force_login(user)
    for logo in logos[:2]:
        _download(client, logo)

    quota = api.post(
        f"/v1/public/logos/{logos[2].id}/download",
        {"format": "SVG"},
        format="json",
        **bearer(token_for(user)),
    ).json()["quota"]

    assert (quota["used"], quota["remaining"]) == (3, 2)
    assert "2 of 5 downloads left" in _page(client, logos[0])
    assert set(Download.objects.values_list("channel", flat=True)) == {"WEB", "API"}


def test_it_refuses_a_file_of_another_logo_and_counts_nothing(client, logo):
    asset = _logos(1, "otra")[0].assets.get()

    response = client.post(
        f"/logos/{logo.slug}/download", {"asset": str(asset.pk)}, HTTP_ACCEPT_LANGUAGE="en"
    )

    assert response.status_code == 400
    assert "This logo has no such file" in response.content.decode()
    assert not Download.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_it_gives_exactly_five_to_a_free_account_downloading_from_the_site_and_the_api():
    user = UserFactory(plan=Plan.FREE)
    auth = bearer(token_for(user))
    logos = _logos(10)
    barrier = threading.Barrier(10)
    outcomes = []

    def on_the_site(logo):
        try:
            browser = Client()
            browser.force_login(user)
            barrier.wait()
            outcomes.append(("WEB", _download(browser, logo).status_code))
        finally:
            close_old_connections()

    def with_the_api(logo):
        try:
            client = APIClient()
            barrier.wait()
            response = client.post(
                f"/v1/public/logos/{logo.id}/download", {"format": "SVG"}, format="json", **auth
            )
            outcomes.append(("API", response.status_code))
        finally:
            close_old_connections()

    threads = [
        threading.Thread(target=on_the_site if n % 2 else with_the_api, args=(logo,))
        for n, logo in enumerate(logos)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    granted = [outcome for outcome in outcomes if outcome[1] in (200, 302)]
    assert len(outcomes) == 10
    assert len(granted) == 5
    assert sorted(status for _, status in outcomes if (_, status) not in granted) == [429] * 5
    assert Download.objects.filter(user=user, counted=True).count() == 5
    assert sum(Logo.objects.values_list("download_count", flat=True)) == 5
