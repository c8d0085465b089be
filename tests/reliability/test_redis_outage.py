"""Redis stopped and started again under a running gunicorn: the API keeps serving.

While Redis is away, catalogue reads answer as usual, tokens authenticate from the
database, a revocation takes effect on the next request and rate limits are counted
by each process on its own (accounts/ratelimit.py); when Redis is back the shared
counts resume without a restart (common/cache.py). The app runs with two workers,
each with its own view of the outage.
"""

import itertools
import json
import time

import anyio
import pytest
from django.conf import settings

from common.cache import RETRY_SECONDS
from tests.factories import (
    CompanyFactory,
    LogoFactory,
    UserFactory,
    add_file,
    make_current,
    png_bytes,
    token_for,
)
from tests.mcp_server.conftest import stdio
from tests.reliability.servers import AppServer, RedisServer, get, send, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fault]


def _app(start_app, redis_server: RedisServer, workers: int) -> AppServer:
    return start_app(
        REDIS_URL=redis_server.url,
        WEB_CONCURRENCY=str(workers),
        # The files the factories write, for the Logo Link to draw.
        MEDIA_ROOT=str(settings.MEDIA_ROOT),
        STORAGE_BACKEND="local",
    )


@pytest.fixture
def app(start_app, redis_server):
    return _app(start_app, redis_server, workers=2)


@pytest.fixture
def one_worker_app(start_app, redis_server):
    return _app(start_app, redis_server, workers=1)


@pytest.fixture
def logos_with_a_file() -> list[str]:
    logos = [LogoFactory() for _ in range(6)]
    for logo in logos:
        add_file(logo, png_bytes())
    return [str(logo.id) for logo in logos]


@pytest.fixture
def catalogue_paths() -> list[str]:
    logo = make_current(LogoFactory(company=CompanyFactory(slug="acme", name="Acme")))
    return [
        "/v1/public/companies?q=acme",
        "/v1/public/companies/acme",
        "/v1/public/companies/acme/colors",
        "/v1/public/logos?q=acme",
        f"/v1/public/logos/{logo.id}",
        "/v1/public/domains",
    ]


def _bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def _me(app: AppServer, secret: str) -> tuple[int, dict]:
    status, _, body = get(f"{app.url}/v1/public/me", headers=_bearer(secret))
    return status, json.loads(body)


def _remaining(app: AppServer, secret: str, count: int) -> list[int]:
    return [
        int(get(f"{app.url}/v1/public/me", headers=_bearer(secret))[1]["X-RateLimit-Remaining"])
        for _ in range(count)
    ]


def _ready(app: AppServer) -> dict:
    return json.loads(get(f"{app.url}/readyz")[2])


def test_it_keeps_serving_while_redis_is_stopped_and_shares_counts_again_when_it_is_back(
    app, redis_server, catalogue_paths, logos_with_a_file
):
    reader, revoked, counted, downloader = (token_for(UserFactory()) for _ in range(4))
    assert [get(app.url + path, headers=_bearer(reader))[0] for path in catalogue_paths] == [
        200
    ] * len(catalogue_paths)

    redis_server.stop()
    # Enough requests that both workers serve some; a token allows 60 a minute per process.
    reads = [
        get(app.url + path, headers=_bearer(reader))[0]
        for _ in range(5)
        for path in catalogue_paths
    ]
    anonymous = [get(app.url + path)[0] for path in catalogue_paths]
    me_during = [_me(app, reader) for _ in range(4)]
    ready_during = _ready(app)
    revocation = send("DELETE", f"{app.url}/v1/public/me/token", headers=_bearer(revoked))[0]
    after_revocation = [_me(app, revoked) for _ in range(4)]
    # A FREE account's quota lives in PostgreSQL: still exactly 5, whichever worker answers.
    downloads = [
        send(
            "POST",
            f"{app.url}/v1/public/logos/{logo}/download",
            headers={**_bearer(downloader), "Content-Type": "application/json"},
            body=b'{"format": "PNG"}',
        )[0]
        for logo in logos_with_a_file
    ]

    redis_server.start()
    time.sleep(RETRY_SECONDS)  # each worker asks Redis again once its interval has passed
    wait_until(lambda: _ready(app)["status"] == "ok", what="readiness with Redis")
    shared = _remaining(app, counted, 6)
    revoked_after = _me(app, revoked)
    log = app.stop()

    assert reads == [200] * len(reads)
    assert anonymous == [200] * len(anonymous)
    assert {(status, body["authenticated"]) for status, body in me_during} == {(200, True)}
    assert ready_during == {
        "status": "degraded",
        "checks": {"database": "ok", "redis": "unreachable"},
    }
    assert downloads == [200] * 5 + [429]
    assert revocation == 204
    assert {(status, body["error"]) for status, body in after_revocation} == {
        (401, "TOKEN_REVOKED")
    }
    # One count for both workers again: no number repeats, whichever worker answered.
    assert shared == list(range(59, 53, -1))
    assert revoked_after[0] == 401
    # Once a minute per process at most, not once per request.
    assert 1 <= log.count("Redis is unreachable") <= 2
    assert "Redis answers again after" in log
    assert "Traceback" not in log


def test_it_keeps_a_revocation_made_during_the_outage_when_redis_comes_back_with_its_data(
    one_worker_app, redis_server
):
    app, secret = one_worker_app, token_for(UserFactory())
    assert [_me(app, secret)[0] for _ in range(3)] == [200] * 3  # cached in Redis by now

    with redis_server.paused():
        revocation = send("DELETE", f"{app.url}/v1/public/me/token", headers=_bearer(secret))[0]
        during = _me(app, secret)
    time.sleep(RETRY_SECONDS)
    after = [_me(app, secret) for _ in range(3)]
    ready = _ready(app)

    assert revocation == 204
    assert (during[0], during[1]["error"]) == (401, "TOKEN_REVOKED")
    # The row cached before the outage still sits in Redis; the new epoch passes it by.
    assert {(status, body["error"]) for status, body in after} == {(401, "TOKEN_REVOKED")}
    assert ready["status"] == "ok"


@pytest.fixture
def acme_with_a_domain() -> str:
    company = CompanyFactory(slug="acme", name="Acme", website="https://www.acme.es")
    add_file(make_current(LogoFactory(company=company)), png_bytes())
    return company.slug


def test_it_keeps_the_logo_link_its_own_limit_and_the_mcp_server_working_while_redis_is_stopped(
    one_worker_app, redis_server, acme_with_a_domain
):
    app = one_worker_app
    redis_server.stop()
    # More images than the 20 a minute of the other endpoints: the Logo Link counts apart,
    # in the process's memory now.
    images = [get(f"{app.url}/v1/public/img/acme.es?size=64") for _ in range(25)]
    listing = get(f"{app.url}/v1/public/companies?q=acme")
    lookup = get(f"{app.url}/v1/public/domains/www.acme.es")

    async def agent():
        async with stdio(app.url) as client:
            return (
                await client.call_tool("lookup_domain", {"domain": "https://acme.es/contact"}),
                await client.call_tool("search_companies", {"q": "acme"}),
            )

    domain_tool, search_tool = anyio.run(agent)
    ready = _ready(app)
    log = app.stop()

    assert [(status, headers["Content-Type"]) for status, headers, _ in images] == [
        (200, "image/png")
    ] * 25
    assert {headers["X-RateLimit-Limit"] for _, headers, _ in images} == {"600"}
    remaining = [int(headers["X-RateLimit-Remaining"]) for _, headers, _ in images]
    # One count in the one worker's memory (a new window starts again at 599).
    assert remaining[0] == 599
    assert all(after in (before - 1, 599) for before, after in itertools.pairwise(remaining))
    assert (listing[0], listing[1]["X-RateLimit-Limit"], listing[1]["X-RateLimit-Remaining"]) == (
        200,
        "20",
        "19",
    )
    assert (lookup[0], json.loads(lookup[2])["data"]["slug"]) == (200, acme_with_a_domain)
    assert not domain_tool.is_error, domain_tool.content
    assert domain_tool.structured_content["data"]["slug"] == acme_with_a_domain
    assert not search_tool.is_error, search_tool.content
    assert [company["slug"] for company in search_tool.structured_content["data"]] == [
        acme_with_a_domain
    ]
    assert ready["status"] == "degraded"
    assert "Traceback" not in log
