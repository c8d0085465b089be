"""PostgreSQL restarted under a running app: 503 in the envelope while it is down, and
the same worker answers again once it is back, without a restart of its own.

The app runs under gunicorn against a throwaway cluster of its own, so the database
can be stopped and started without touching anyone else's.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.network import free_port
from tests.reliability.servers import ROOT, AppServer, PostgresCluster, get

pytestmark = pytest.mark.fault


@pytest.fixture(scope="module")
def cluster():
    directory = Path(tempfile.mkdtemp(prefix="pg-restart-"))
    directory.chmod(0o755)
    cluster = PostgresCluster(directory, free_port())
    try:
        cluster.create()
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input"],
            cwd=ROOT,
            env={"PATH": "/usr/bin:/bin", "DEBUG": "1", "SITE_URL": "http://127.0.0.1"}
            | {"DATABASE_URL": cluster.url},
            check=True,
            capture_output=True,
            # A net for a hung migrate, not a measure: a fresh database's migrate
            # (the lexicon learns the thesaurus) took up to 2 minutes on a loaded machine.
            timeout=600,
        )
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture
def app(cluster):
    server = AppServer(
        free_port(),
        # No REDIS_URL: the per-process memory cache, so that only the database can fail here.
        {"DEBUG": "1", "SITE_URL": "http://127.0.0.1", "DATABASE_URL": cluster.url}
        | {"REDIS_URL": ""},
    )
    server.start()
    yield server
    server.stop()


def _companies(app) -> tuple[int, dict[str, str], dict]:
    status, headers, body = get(f"{app.url}/v1/public/companies")
    return status, headers, json.loads(body)


def test_it_answers_503_while_the_database_is_down_and_recovers_in_the_same_process(app, cluster):
    workers = app.workers
    before, _, _ = _companies(app)

    cluster.stop()
    try:
        during = [_companies(app) for _ in range(3)]
    finally:
        cluster.start()
    after, _, _ = _companies(app)
    workers_after = app.workers
    log = app.stop()

    assert before == 200
    for status, headers, body in during:
        assert status == 503
        assert body == {
            "error": "SERVICE_UNAVAILABLE",
            "message": "A backing service is unavailable; retry shortly.",
        }
        assert headers["Retry-After"] == "5"
    assert after == 200
    assert workers_after == workers  # the same worker answered: none was restarted
    assert "backing service unavailable" in log
    assert "Traceback" not in log


def test_it_answers_the_first_request_after_a_quick_restart(app, cluster):
    assert _companies(app)[0] == 200  # a persistent connection is open now

    cluster.restart()

    # The connection health check notices the dead connection and opens a new one.
    assert _companies(app)[0] == 200
