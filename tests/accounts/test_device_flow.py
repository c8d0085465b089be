"""The device-link flow (RFC 8628) as a plugin sees it: code, polls, token once."""

import threading
from datetime import UTC, timedelta

import pytest
import time_machine
from django.db import close_old_connections
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken, DeviceCode, DeviceCodeStatus, Source
from accounts.services import device_code_decide
from tests.factories import UserFactory, bearer

pytestmark = pytest.mark.django_db

START = timezone.now().replace(microsecond=0)


@pytest.fixture
def clock():
    """A clock the test moves by hand: polling rules are about seconds, never sleeps."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def _start(api, **body) -> dict:
    response = api.post("/v1/public/device/code", {"source": "FIGMA", **body}, format="json")
    assert response.status_code == 200
    return response.json()["data"]


def _poll(api, device_code: str):
    return api.post("/v1/public/device/token", {"deviceCode": device_code}, format="json")


def _decide(user_code: str, *, approve: bool, user=None):
    device_code = DeviceCode.objects.get(user_code=user_code.replace("-", ""))
    return device_code_decide(device_code=device_code, user=user or UserFactory(), approve=approve)


def _error(response) -> str:
    assert response.status_code == 400
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert set(body) == {"error", "message"}
    return body["error"]


def test_it_starts_a_flow_with_the_documented_codes(api, clock):
    data = _start(api, clientName="Figma de Lucía")

    assert set(data) == {
        "deviceCode",
        "userCode",
        "verificationUri",
        "verificationUriComplete",
        "expiresIn",
        "interval",
    }
    assert len(data["deviceCode"]) == 43
    assert data["deviceCode"].replace("-", "").replace("_", "").isalnum()
    assert len(data["userCode"]) == 9 and data["userCode"][4] == "-"
    assert set(data["userCode"].replace("-", "")) <= set("BCDFGHJKLMNPQRSTVWXZ")
    assert data["verificationUri"] == "http://testserver/device"
    assert data["verificationUriComplete"] == f"http://testserver/device?code={data['userCode']}"
    assert data["expiresIn"] == 900
    assert data["interval"] == 5
    stored = DeviceCode.objects.get()
    assert stored.client_name == "Figma de Lucía"
    assert stored.source == Source.FIGMA
    assert stored.expires_at == START + timedelta(seconds=900)
    assert data["deviceCode"] not in {stored.digest, stored.user_code}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "source"),
        ({"source": "API"}, "source"),
        ({"source": "figma"}, "source"),
        ({"source": "CHROME", "clientName": "x" * 61}, "clientName"),
    ],
)
def test_it_refuses_a_bad_start_and_stores_nothing(api, body, field):
    response = api.post("/v1/public/device/code", body, format="json")

    assert response.status_code == 400
    assert response.json()["error"] == "INVALID_REQUEST"
    assert set(response.json()["details"]) == {field}
    assert not DeviceCode.objects.exists()


def test_it_answers_pending_until_the_person_decides(api, clock):
    data = _start(api)

    assert _error(_poll(api, data["deviceCode"])) == "authorization_pending"


def test_it_issues_the_token_once_after_approval(api, clock):
    data = _start(api, source="CHROME")
    user = UserFactory(first_name="Lucía")
    _decide(data["userCode"], approve=True, user=user)

    response = _poll(api, data["deviceCode"])

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    body = response.json()["data"]
    assert body == {
        "token": body["token"],
        "user": {"firstName": "Lucía", "plan": "FREE"},
        "scopes": ["read:logos", "read:palettes", "write:palettes", "write:proposals"],
        "expiresAt": f"{(START + timedelta(days=365)).astimezone(UTC):%Y-%m-%dT%H:%M:%S}.000Z",
    }
    token = ApiToken.objects.get()
    assert (token.user, token.source, token.name) == (user, "CHROME", "CHROME extension")
    me = api.get("/v1/public/me", **bearer(body["token"])).json()
    assert me["token"]["source"] == "CHROME"

    clock.shift(timedelta(seconds=5))
    assert _error(_poll(api, data["deviceCode"])) == "invalid_grant"
    assert ApiToken.objects.count() == 1


def test_it_names_the_token_after_the_client(api, clock):
    data = _start(api, clientName="Figma de Lucía")
    _decide(data["userCode"], approve=True)

    _poll(api, data["deviceCode"])

    assert ApiToken.objects.get().name == "Figma de Lucía"


def test_it_names_a_figma_token_without_a_client_name(api, clock):
    data = _start(api)
    _decide(data["userCode"], approve=True)

    _poll(api, data["deviceCode"])

    assert ApiToken.objects.get().name == "FIGMA plugin"


def test_it_answers_access_denied_when_the_person_refuses(api, clock):
    data = _start(api)
    _decide(data["userCode"], approve=False)

    assert _error(_poll(api, data["deviceCode"])) == "access_denied"
    clock.shift(timedelta(seconds=5))
    assert _error(_poll(api, data["deviceCode"])) == "access_denied"
    assert not ApiToken.objects.exists()


def test_it_slows_down_a_client_that_polls_too_fast(api, clock):
    data = _start(api)
    assert _error(_poll(api, data["deviceCode"])) == "authorization_pending"

    clock.shift(timedelta(seconds=4))
    assert _error(_poll(api, data["deviceCode"])) == "slow_down"
    assert DeviceCode.objects.get().interval == 10

    # The interval is now 10 s, counted from the last poll.
    clock.shift(timedelta(seconds=9))
    assert _error(_poll(api, data["deviceCode"])) == "slow_down"
    assert DeviceCode.objects.get().interval == 15

    clock.shift(timedelta(seconds=15))
    assert _error(_poll(api, data["deviceCode"])) == "authorization_pending"
    clock.shift(timedelta(seconds=15))
    assert _error(_poll(api, data["deviceCode"])) == "authorization_pending"
    assert DeviceCode.objects.get().interval == 15


def test_it_says_how_long_to_wait_when_slowing_down(api, clock):
    data = _start(api)
    _poll(api, data["deviceCode"])

    response = _poll(api, data["deviceCode"])

    assert response.json() == {
        "error": "slow_down",
        "message": "Polling too fast: wait at least 10 s between polls.",
    }


def test_it_answers_expired_token_after_fifteen_minutes(api, clock):
    data = _start(api)
    clock.shift(timedelta(seconds=899))
    assert _error(_poll(api, data["deviceCode"])) == "authorization_pending"

    clock.shift(timedelta(seconds=1))
    assert _error(_poll(api, data["deviceCode"])) == "expired_token"


def test_it_refuses_to_approve_an_expired_code(api, clock):
    data = _start(api)
    clock.shift(timedelta(seconds=900))

    with pytest.raises(Exception, match="expired"):
        _decide(data["userCode"], approve=True)
    assert DeviceCode.objects.get().status == DeviceCodeStatus.PENDING


def test_it_answers_invalid_grant_for_an_unknown_code(api):
    assert _error(_poll(api, "x" * 43)) == "invalid_grant"


@pytest.mark.parametrize("body", [{}, {"deviceCode": ""}, {"deviceCode": "x" * 101}])
def test_it_refuses_a_malformed_poll(api, body):
    response = api.post("/v1/public/device/token", body, format="json")

    assert response.status_code == 400
    assert response.json()["error"] == "INVALID_REQUEST"
    assert set(response.json()["details"]) == {"deviceCode"}


@pytest.mark.django_db(transaction=True)
def test_it_gives_the_token_to_exactly_one_of_two_simultaneous_polls():
    data = _start(APIClient())
    _decide(data["userCode"], approve=True)
    barrier = threading.Barrier(2)
    statuses = []

    def poll():
        try:
            client = APIClient()
            barrier.wait()
            response = _poll(client, data["deviceCode"])
            statuses.append((response.status_code, response.json().get("error")))
        finally:
            close_old_connections()

    threads = [threading.Thread(target=poll) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses, key=str) == [(200, None), (400, "invalid_grant")]
    assert ApiToken.objects.count() == 1
