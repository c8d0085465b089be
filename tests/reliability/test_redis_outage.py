"""Redis stopped mid-run: the API refuses with 503 rather than serve unlimited, and
comes back by itself when Redis does.

Rate limits and the per-token counts live only in Redis; without it no process can
tell how many requests a caller made, so the API fails closed (decisions: rate
limits are "counted in a cache shared by every process"). The website does not
count its pages and keeps answering.
"""

import logging

import pytest

from tests.factories import UserFactory, bearer, token_for
from tests.network import free_port
from tests.reliability.servers import RedisServer

pytestmark = [pytest.mark.django_db, pytest.mark.fault]


@pytest.fixture
def own_redis(settings):
    server = RedisServer(free_port())
    server.start()
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": server.url,
            # As in config/settings.py: a stopped Redis is noticed within a second.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    yield server
    server.stop()


def test_it_answers_503_while_redis_is_down_and_recovers_when_it_is_back(api, own_redis, caplog):
    before = api.get("/v1/public/companies")
    own_redis.stop()
    with caplog.at_level(logging.WARNING, logger="config.api.errors"):
        during = api.get("/v1/public/companies")
    own_redis.start()
    after = api.get("/v1/public/companies")

    assert before.status_code == 200
    assert before["X-RateLimit-Remaining"] == "19"
    assert during.status_code == 503
    assert during.json() == {
        "error": "SERVICE_UNAVAILABLE",
        "message": "A backing service is unavailable; retry shortly.",
    }
    assert during["Retry-After"] == "5"
    assert "X-RateLimit-Limit" not in during  # nothing was counted
    warnings = [r for r in caplog.records if r.name == "config.api.errors"]
    assert [r.levelname for r in warnings] == ["WARNING"]
    assert "backing service unavailable" in warnings[0].getMessage()
    assert after.status_code == 200
    # A fresh Redis has no counts: the window starts again.
    assert after["X-RateLimit-Remaining"] == "19"


def test_it_refuses_requests_with_a_token_too(api, own_redis):
    secret = token_for(UserFactory())
    own_redis.stop()

    response = api.get("/v1/public/me", **bearer(secret))

    assert response.status_code == 503
    assert response.json()["error"] == "SERVICE_UNAVAILABLE"


def test_it_refuses_the_openapi_document_too_as_every_request_there_counts(api, own_redis):
    own_redis.stop()

    response = api.get("/v1/public/openapi.json")

    assert response.status_code == 503
    assert response.json()["error"] == "SERVICE_UNAVAILABLE"


def test_it_keeps_the_website_pages_up(client, own_redis):
    own_redis.stop()

    response = client.get("/")

    assert response.status_code == 200
