"""Request rate limits against the real Redis the test command starts.

60 a minute per account (whatever number of tokens it uses), 20 a minute per client IP
when anonymous, in fixed 60-second windows shared by every process, with X-RateLimit-*
on every response.
"""

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.conf import settings as django_settings
from django.core.cache import cache

from tests.factories import UserFactory, bearer, token_for
from tests.network import free_port

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _real_redis():
    backend = django_settings.CACHES["default"]["BACKEND"]
    assert backend == "common.cache.SharedCache", (
        "rate-limit tests need REDIS_URL (scripts/test.sh starts a Redis)"
    )


@pytest.fixture
def window_start():
    """Frozen at the start of a window, so that no test straddles two windows."""
    now = int(time.time())
    with time_machine.travel(now - now % 60 + 60, tick=False) as traveller:
        yield traveller


def _spend(api, count: int, **headers) -> list:
    return [api.get("/v1/public/me", **headers) for _ in range(count)]


def test_it_counts_anonymous_requests_per_address(api, window_start):
    responses = _spend(api, 20)

    assert [r.status_code for r in responses] == [200] * 20
    assert [r["X-RateLimit-Remaining"] for r in responses] == [str(n) for n in range(19, -1, -1)]
    assert {r["X-RateLimit-Limit"] for r in responses} == {"20"}


def test_it_refuses_the_twenty_first_anonymous_request_in_a_minute(api, window_start):
    _spend(api, 20)

    response = api.get("/v1/public/companies")

    assert response.status_code == 429
    assert response.json() == {
        "error": "RATE_LIMITED",
        "message": f"Too many requests; retry in {response['Retry-After']} s.",
    }
    assert 1 <= int(response["Retry-After"]) <= 60
    assert response["Retry-After"] == response["X-RateLimit-Reset"]
    assert response["X-RateLimit-Remaining"] == "0"
    assert response["X-RateLimit-Limit"] == "20"


def test_it_starts_counting_again_when_the_window_ends(api, window_start):
    refused = _spend(api, 21)[-1]
    assert refused.status_code == 429

    window_start.shift(timedelta(seconds=int(refused["Retry-After"])))
    response = api.get("/v1/public/me")

    assert response.status_code == 200
    assert response["X-RateLimit-Remaining"] == "19"


def test_it_reports_the_seconds_until_the_window_resets(api, window_start):
    first = int(api.get("/v1/public/me")["X-RateLimit-Reset"])
    assert 1 <= first <= 60

    window_start.shift(timedelta(seconds=first - 1))
    last_second = api.get("/v1/public/me")
    window_start.shift(timedelta(seconds=1))
    next_window = api.get("/v1/public/me")

    assert (last_second["X-RateLimit-Reset"], last_second["X-RateLimit-Remaining"]) == ("1", "18")
    assert (next_window["X-RateLimit-Reset"], next_window["X-RateLimit-Remaining"]) == ("60", "19")


def test_it_allows_sixty_requests_a_minute_per_token(api, window_start):
    secret = token_for()

    responses = _spend(api, 61, **bearer(secret))

    assert [r.status_code for r in responses] == [200] * 60 + [429]
    assert responses[0]["X-RateLimit-Limit"] == "60"
    assert responses[59]["X-RateLimit-Remaining"] == "0"


def test_it_counts_every_token_of_an_account_against_one_budget(api, window_start):
    user = UserFactory()
    first, second = token_for(user), token_for(user)

    remaining = [
        api.get("/v1/public/me", **bearer(secret))["X-RateLimit-Remaining"]
        for secret in (first, second, first, second)
    ]
    _spend(api, 56, **bearer(first))

    assert remaining == ["59", "58", "57", "56"]
    assert api.get("/v1/public/me", **bearer(second)).status_code == 429
    assert api.get("/v1/public/me", **bearer(token_for(user))).status_code == 429
    assert api.get("/v1/public/me", **bearer(token_for())).status_code == 200  # another account
    assert api.get("/v1/public/me").status_code == 200  # the address's own budget is untouched


def test_it_does_not_count_a_revoked_tokens_requests_against_its_account(api, window_start):
    user = UserFactory()
    live, revoked = token_for(user), token_for(user)
    api.get("/v1/public/me", **bearer(revoked))  # known to this process before it is revoked
    api.delete("/v1/public/me/token", **bearer(revoked))

    for _ in range(5):
        assert api.get("/v1/public/me", **bearer(revoked)).status_code == 401

    assert api.get("/v1/public/me", **bearer(live))["X-RateLimit-Remaining"] == "57"
    assert api.get("/v1/public/me")["X-RateLimit-Remaining"] == "14"


def test_it_counts_refused_tokens_against_the_address(api, window_start):
    for _ in range(20):
        assert api.get("/v1/public/me", HTTP_AUTHORIZATION="Bearer nope").status_code == 401

    assert api.get("/v1/public/me").status_code == 429


def test_it_counts_every_address_on_its_own(api, window_start):
    _spend(api, 20, REMOTE_ADDR="10.0.0.1")

    assert api.get("/v1/public/me", REMOTE_ADDR="10.0.0.1").status_code == 429
    assert api.get("/v1/public/me", REMOTE_ADDR="10.0.0.2").status_code == 200


def test_it_counts_every_spelling_of_an_address_and_its_64_network_once(api, window_start):
    spellings = ["2001:db8:7::1", "2001:db8:7:0:0:0:0:1", "2001:DB8:7::1", "2001:db8:7::2"]

    remaining = [
        api.get("/v1/public/me", REMOTE_ADDR=spelling)["X-RateLimit-Remaining"]
        for spelling in spellings
    ]

    assert remaining == ["19", "18", "17", "16"]
    assert api.get("/v1/public/me", REMOTE_ADDR="2001:db8:8::1")["X-RateLimit-Remaining"] == "19"
    mapped = api.get("/v1/public/me", REMOTE_ADDR="::ffff:10.0.0.3")["X-RateLimit-Remaining"]
    assert mapped == "19"
    assert api.get("/v1/public/me", REMOTE_ADDR="10.0.0.3")["X-RateLimit-Remaining"] == "18"


def test_it_counts_a_forwarded_value_that_is_not_an_address_against_the_proxy(
    api, settings, window_start
):
    settings.TRUSTED_PROXY_COUNT = 1
    for n in range(20):
        api.get("/v1/public/me", HTTP_X_FORWARDED_FOR=f"not-an-address-{n}", REMOTE_ADDR="10.0.0.1")

    response = api.get("/v1/public/me", HTTP_X_FORWARDED_FOR="junk", REMOTE_ADDR="10.0.0.1")

    assert response.status_code == 429


def test_it_takes_the_address_from_the_trusted_proxy(api, settings, window_start):
    settings.TRUSTED_PROXY_COUNT = 1
    _spend(api, 20, HTTP_X_FORWARDED_FOR="203.0.113.7", REMOTE_ADDR="10.0.0.1")

    limited = api.get("/v1/public/me", HTTP_X_FORWARDED_FOR="203.0.113.7", REMOTE_ADDR="10.0.0.9")
    other = api.get("/v1/public/me", HTTP_X_FORWARDED_FOR="203.0.113.8", REMOTE_ADDR="10.0.0.1")

    assert (limited.status_code, other.status_code) == (429, 200)


def test_it_ignores_x_forwarded_for_without_a_trusted_proxy(api, window_start):
    for n in range(20):
        api.get("/v1/public/me", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")

    assert api.get("/v1/public/me", HTTP_X_FORWARDED_FOR="198.51.100.99").status_code == 429


def test_it_counts_unknown_paths_and_refused_methods(api, window_start):
    for _ in range(10):
        assert api.get("/v1/public/nothing-here").status_code == 404
        assert api.post("/v1/public/me").status_code == 405

    response = api.get("/v1/public/me")

    assert response.status_code == 429


def test_it_does_not_count_cors_preflights(api, window_start):
    for _ in range(30):
        preflight = api.options(
            "/v1/public/companies",
            HTTP_ORIGIN="https://www.figma.com",
            HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        )
        assert preflight.status_code == 200

    assert api.get("/v1/public/me")["X-RateLimit-Remaining"] == "19"


def test_it_counts_options_requests_that_are_not_preflights(api, window_start):
    for _ in range(5):
        api.options("/v1/public/companies")

    assert api.get("/v1/public/me")["X-RateLimit-Remaining"] == "14"


def test_it_refuses_options_with_an_unknown_token_from_a_limited_address(api, window_start):
    _spend(api, 20)

    response = api.options("/v1/public/me", HTTP_AUTHORIZATION=f"Bearer {token_for()}x")
    unknown = api.options("/v1/public/me", HTTP_AUTHORIZATION="Bearer lgd_" + "A" * 42)

    assert (response.status_code, unknown.status_code) == (429, 429)
    assert unknown.json()["error"] == "RATE_LIMITED"


def test_it_answers_a_preflight_before_looking_at_its_token(
    api, window_start, django_assert_num_queries
):
    secret = token_for()
    with django_assert_num_queries(0):
        preflight = api.options(
            "/v1/public/me",
            HTTP_ORIGIN="https://www.figma.com",
            HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
            HTTP_AUTHORIZATION=f"Bearer {secret}",
        )

    assert preflight.status_code == 200
    assert "X-RateLimit-Limit" not in preflight


def test_it_writes_the_429_with_the_same_renderer_as_every_other_body(api, window_start):
    _spend(api, 20)

    limited = api.get("/v1/public/me")
    not_found = api.get("/v1/public/companies/no-such-company", REMOTE_ADDR="10.9.9.9")

    assert limited.content == (
        b'{"error":"RATE_LIMITED","message":"Too many requests; retry in '
        + limited["Retry-After"].encode()
        + b' s."}'
    )
    assert not_found.content.startswith(b'{"error":"COMPANY_NOT_FOUND","message":')


def test_it_lets_browsers_read_the_limit_headers(api, window_start):
    _spend(api, 20)

    response = api.get("/v1/public/me", HTTP_ORIGIN="https://www.figma.com")

    assert response.status_code == 429
    assert response["Access-Control-Allow-Origin"] == "*"
    exposed = {h.strip() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert {"Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining"} <= exposed


def test_it_leaves_the_website_alone(client, window_start):
    for _ in range(25):
        response = client.get("/")
        assert "X-RateLimit-Limit" not in response

    assert response.status_code == 200


def test_it_counts_in_process_memory_while_redis_is_unreachable(
    api, redis_unreachable, window_start
):
    responses = _spend(api, 20)
    over = api.get("/v1/public/companies")

    assert [r.status_code for r in responses] == [200] * 20
    assert [r["X-RateLimit-Remaining"] for r in responses] == [str(n) for n in range(19, -1, -1)]
    assert over.status_code == 429
    assert over.json()["error"] == "RATE_LIMITED"


def test_it_authenticates_tokens_from_the_database_while_redis_is_unreachable(
    api, redis_unreachable, window_start
):
    secret = token_for(UserFactory())

    responses = _spend(api, 2, **bearer(secret))

    assert [r.json()["authenticated"] for r in responses] == [True, True]
    assert {r["X-RateLimit-Limit"] for r in responses} == {"60"}


# Two app processes share one count.


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - loopback
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture
def two_app_processes():
    env = {
        **os.environ,
        "DEBUG": "1",
        "SITE_URL": "http://127.0.0.1",
        "REDIS_URL": django_settings.CACHES["default"]["LOCATION"],
    }
    ports = [free_port(), free_port()]
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        urls = [f"http://127.0.0.1:{port}/v1/public/openapi.json" for port in ports]
        deadline = time.monotonic() + 30
        while not all(_ready(url) for url in urls):
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        yield [f"http://127.0.0.1:{port}/v1/public/me" for port in ports]
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)


def _ready(url: str) -> bool:
    try:
        return _get(url) == 200
    except OSError:
        return False


def test_it_shares_the_count_between_app_processes(two_app_processes):
    first, second = two_app_processes
    # These processes run on the real clock: start at the beginning of a window.
    with urllib.request.urlopen(first, timeout=10) as response:  # noqa: S310 - loopback
        left = int(response.headers["X-RateLimit-Reset"])
    if left < 10:
        time.sleep(left)
    cache.clear()

    statuses = [_get(first if n % 2 else second) for n in range(20)]

    assert statuses == [200] * 20
    assert (_get(first), _get(second)) == (429, 429)
