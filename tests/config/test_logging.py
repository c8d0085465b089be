"""Every response names its request, and every log line written while serving it says which."""

import io
import json
import logging
import os
import re
import subprocess
import sys

import pytest
from django.conf import settings as django_settings

from config.logging import JsonFormatter, RequestIdFilter
from tests.network import free_port
from tests.project import ROOT, database_url
from tests.reliability.servers import accepts_connections, get, wait_until

NEW_ID = re.compile(r"[0-9a-f]{32}")

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path", ["/v1/public/companies", "/v1/public/nope", "/", "/no-such-page", "/healthz"]
)
def test_it_gives_every_response_a_new_request_id(client, path):
    first = client.get(path)
    second = client.get(path)

    assert NEW_ID.fullmatch(first["X-Request-ID"])
    assert NEW_ID.fullmatch(second["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_it_keeps_the_id_a_load_balancer_gave_the_request(api):
    response = api.get("/v1/public/companies", HTTP_X_REQUEST_ID="edge-01.Ab_9")

    assert response["X-Request-ID"] == "edge-01.Ab_9"


@pytest.mark.parametrize("sent", ["a" * 129, "two words", "line\nbreak", 'quote"d', "ünïcode", ""])
def test_it_replaces_an_id_unfit_for_a_log_line_or_a_header(api, sent):
    response = api.get("/v1/public/companies", HTTP_X_REQUEST_ID=sent)

    assert NEW_ID.fullmatch(response["X-Request-ID"])


def test_it_lets_browsers_read_the_request_id(api):
    response = api.get("/v1/public/companies", HTTP_ORIGIN="https://www.figma.com")

    exposed = {h.strip() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert "X-Request-ID" in exposed


@pytest.fixture
def json_log():
    """The root logger's lines as the production handler writes them."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)


def test_it_puts_the_request_id_on_every_line_logged_while_serving(client, json_log, settings):
    settings.ROOT_URLCONF = "tests.config.urls_with_failures"

    response = client.get("/v1/public/_test/broken")

    lines = json_log()
    # The failure with its traceback, the app's request line, Django's error line.
    assert [line["logger"] for line in lines] == [
        "api.errors",
        "config.request",
        "django.request",
    ]
    assert {line["request_id"] for line in lines} == {response["X-Request-ID"]}
    assert "secret internals" in lines[0]["exception"]
    assert (lines[1]["method"], lines[1]["path"], lines[1]["status"]) == (
        "GET",
        "/v1/public/_test/broken",
        500,
    )


def test_it_writes_one_line_for_a_client_error(client, json_log):
    response = client.get("/v1/public/nope")

    (line,) = json_log()
    assert (line["logger"], line["message"]) == ("config.request", "GET /v1/public/nope 404")
    assert (line["method"], line["path"], line["status"], line["request_id"]) == (
        "GET",
        "/v1/public/nope",
        404,
        response["X-Request-ID"],
    )


def test_it_logs_outside_a_request_without_an_id(json_log):
    logging.getLogger("directory.import").warning("entry %d failed", 3)

    (line,) = json_log()
    assert set(line) == {"timestamp", "level", "logger", "message", "request_id"}
    assert (line["level"], line["logger"], line["message"], line["request_id"]) == (
        "WARNING",
        "directory.import",
        "entry 3 failed",
        None,
    )
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", line["timestamp"])


def test_it_writes_an_exception_into_the_same_line():
    try:
        raise ValueError("bad value")
    except ValueError:
        record = logging.LogRecord(
            "config", logging.ERROR, __file__, 1, "failed: %s", ("x",), sys.exc_info()
        )

    line = JsonFormatter().format(record)

    assert "\n" not in line
    entry = json.loads(line)
    assert entry["message"] == "failed: x"
    assert entry["exception"].startswith("Traceback (most recent call last):")
    assert entry["exception"].endswith("ValueError: bad value")


@pytest.mark.parametrize(("setting", "logged"), [("1", "True"), ("0", "False")])
def test_it_leaves_the_line_per_request_to_the_load_balancer_when_told(setting, logged):
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import logging, django; django.setup(); "
            "print(logging.getLogger('config.request').isEnabledFor(logging.INFO))",
        ],
        cwd=ROOT,
        env={
            "PATH": os.environ["PATH"],
            "DEBUG": "1",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LOG_REQUESTS": setting,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.stdout.strip() == logged, result.stderr


def test_it_writes_one_line_per_request_under_the_development_server(tmp_path):
    """As scripts/run.sh serves: runserver, DEBUG=1, text lines."""
    port = free_port()
    log = tmp_path / "runserver.log"
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONUNBUFFERED": "1",
        "DEBUG": "1",
        "DATABASE_URL": database_url(),
        "REDIS_URL": django_settings.CACHES["default"]["LOCATION"],
        "SITE_URL": f"http://127.0.0.1:{port}",
    }
    paths = {
        "/v1/public/me": 200,
        "/v1/public/companies?page=0": 400,
        "/v1/public/no-such-endpoint": 404,
        "/no-such-page": 404,
    }
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until(lambda: accepts_connections(port), timeout=60, what="runserver")
            for path, status in paths.items():
                assert get(f"http://127.0.0.1:{port}{path}")[0] == status
        finally:
            server.terminate()
            server.wait(timeout=15)

    logged = log.read_text().splitlines()
    for path, status in paths.items():
        lines = [line for line in logged if path.split("?")[0] in line]
        assert len(lines) == 1, lines
        assert "INFO config.request [" in lines[0]
        assert lines[0].endswith(f"GET {path.split('?')[0]} {status}")
