"""/healthz says the process is up, /readyz that it can reach the database, and whether
it serves without Redis."""

import pytest

from tests.openapi import served_document


def test_it_says_the_process_is_up(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_it_is_ready_when_the_database_and_redis_answer(client):
    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "redis": "ok"}}
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_it_stays_ready_but_says_degraded_when_redis_is_unreachable(client, redis_unreachable):
    response = client.get("/readyz")

    # Every instance shares the one Redis: a load balancer must not take them all out.
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "checks": {"database": "ok", "redis": "unreachable"},
    }


def test_it_answers_probes_addressed_by_ip_not_by_the_site_name(client):
    # Container runtimes and load balancers probe http://<container ip>:<port>/healthz.
    assert client.get("/healthz", HTTP_HOST="10.0.0.7:8000").status_code == 200
    assert client.get("/", HTTP_HOST="10.0.0.7:8000").status_code == 400


@pytest.mark.django_db
def test_it_answers_head_for_probes_that_send_it(client):
    assert client.head("/readyz").status_code == 200


@pytest.mark.django_db
def test_it_keeps_the_probes_out_of_the_public_api_document():
    paths = served_document().document["paths"]

    assert not [path for path in paths if path.endswith(("healthz", "readyz"))]
