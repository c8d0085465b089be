"""What can be checked of the image and the compose file without a Docker engine.

The Dockerfile and docker-compose.yml pass their linters, and the commands the image
runs (collectstatic at build time, gunicorn as CMD, the HEALTHCHECK probe) are read out
of the Dockerfile and run here, against the test database and Redis, in production mode.
"""

import gettext
import json
import os
import re
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path

import boto3
import pytest
import yaml
from django.conf import settings as django_settings

from tests.network import free_port
from tests.project import ROOT, database_url, project_copy

# The served processes use the test database, which exists only when a test asks for it.
pytestmark = pytest.mark.django_db

BIN = Path(sys.executable).parent


def dockerfile_instructions(name: str) -> list[str]:
    """The arguments of every `name` instruction, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [
        line.split(None, 1)[1].strip()
        for line in text.splitlines()
        if line.strip().upper().startswith(name + " ")
    ]


def image_command() -> list[str]:
    (cmd,) = dockerfile_instructions("CMD")
    return json.loads(cmd)


def healthcheck_command() -> list[str]:
    (healthcheck,) = dockerfile_instructions("HEALTHCHECK")
    return json.loads(healthcheck.split(" CMD ", 1)[1])


def build_step(command: str) -> tuple[dict[str, str], list[str]]:
    """The build's step that runs `manage.py command`, split into its environment and
    its command."""
    (run,) = [step for step in dockerfile_instructions("RUN") if f"manage.py {command}" in step]
    words = shlex.split(run)
    env = {}
    while "=" in words[0]:
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    return env, words


def get(url: str, headers: dict[str, str] | None = None):
    request = urllib.request.Request(url, headers=headers or {})  # noqa: S310 - loopback
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def production_env(port: int, **extra: str) -> dict[str, str]:
    return {
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "DEBUG": "0",
        "SECRET_KEY": "s" * 50,
        "SITE_URL": f"http://127.0.0.1:{port}",
        "DATABASE_URL": database_url(),
        "REDIS_URL": django_settings.CACHES["default"]["LOCATION"],
        "PORT": str(port),
        "BIND_HOST": "127.0.0.1",
        "WEB_CONCURRENCY": "1",
        **extra,
    }


@contextmanager
def serve(env: dict[str, str], log_path: Path):
    """Runs the image's CMD until the block ends; yields the base URL."""
    base = f"http://127.0.0.1:{env['PORT']}"
    with log_path.open("w") as log:
        process = subprocess.Popen(image_command(), cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, log_path.read_text()
                try:
                    get(base + "/healthz")
                    break
                except OSError:
                    assert time.monotonic() < deadline, "gunicorn did not start"
                    time.sleep(0.2)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=30)


@pytest.fixture(scope="module")
def static_root(tmp_path_factory):
    """STATIC_ROOT filled by the Dockerfile's own collectstatic step.

    With brotli installed (the API's compression needs it) WhiteNoise also writes a
    Brotli copy of every static file, at its highest level: minutes of the image's
    build. Hidden here, collectstatic writes the gzip copies only, in seconds; what is
    under test is that the step runs with the build's settings.
    """
    root = tmp_path_factory.mktemp("staticfiles")
    shadow = tmp_path_factory.mktemp("image-packages")
    (shadow / "brotli.py").write_text("raise ImportError('not in the image')\n")
    env, command = build_step("collectstatic")
    result = subprocess.run(
        command,
        cwd=ROOT,
        env={
            "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(shadow),
            **env,
            "STATIC_ROOT": str(root),
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return root


def test_it_compiles_the_translations_as_the_build_does(tmp_path):
    project = project_copy(tmp_path)
    compiled = project / "locale" / "es" / "LC_MESSAGES" / "django.mo"
    compiled.unlink(missing_ok=True)
    env, command = build_step("compilemessages")

    result = subprocess.run(
        command,
        cwd=project,
        env={"PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr
    with compiled.open("rb") as catalogue:
        assert gettext.GNUTranslations(catalogue).gettext("Log in") == "Iniciar sesión"


@pytest.fixture(scope="module")
def app(django_db_setup, static_root, tmp_path_factory):
    log = tmp_path_factory.mktemp("gunicorn") / "app.log"
    with serve(production_env(free_port(), STATIC_ROOT=str(static_root)), log) as base:
        yield base, log


def test_it_lints_the_dockerfile_clean():
    result = subprocess.run(
        [BIN / "hadolint", "--no-color", "Dockerfile"], cwd=ROOT, capture_output=True, text=True
    )

    assert result.returncode == 0, result.stdout + result.stderr


def test_it_validates_the_compose_file_against_the_compose_specification():
    result = subprocess.run(
        [BIN / "check-jsonschema", "--builtin-schema", "vendor.compose-spec", "docker-compose.yml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stdout + result.stderr


def test_it_would_notice_a_compose_file_off_the_specification(tmp_path):
    broken = tmp_path / "docker-compose.yml"
    broken.write_text("services:\n  app:\n    image: x\n    enviroment: {DEBUG: '0'}\n")

    result = subprocess.run(
        [BIN / "check-jsonschema", "--builtin-schema", "vendor.compose-spec", broken],
        capture_output=True,
        text=True,
    )

    assert result.returncode != 0


def _variables_the_service_reads() -> set[str]:
    sources = (ROOT / "config" / "settings.py").read_text() + (
        ROOT / "config" / "gunicorn.py"
    ).read_text()
    return set(re.findall(r"env_\w+\(\s*\"([A-Z0-9_]+)\"", sources))


def test_it_sets_only_variables_the_service_reads_in_the_compose_file():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())

    for name in ("app", "migrate", "bucket"):
        environment = set(compose["services"][name]["environment"])
        assert environment <= _variables_the_service_reads(), name
        assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "SITE_URL"} <= environment


def test_it_runs_gunicorn_with_the_settings_file_and_probes_its_liveness():
    assert image_command() == ["gunicorn", "--config", "config/gunicorn.py", "config.wsgi"]
    assert "/healthz" in " ".join(healthcheck_command())


def test_it_serves_the_image_command_in_production_mode(app):
    base, _ = app

    status, headers, body = get(base + "/readyz")

    assert status == 200, body
    assert json.loads(body) == {"status": "ok", "checks": {"database": "ok", "redis": "ok"}}
    assert re.fullmatch(r"[0-9a-f]{32}", headers["X-Request-ID"])


def test_it_passes_the_image_healthcheck(app):
    base, _ = app
    port = base.rsplit(":", 1)[1]

    result = subprocess.run(
        healthcheck_command(),
        env={"PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "PORT": port},
        capture_output=True,
        timeout=30,
    )

    assert result.returncode == 0, result.stderr


def test_it_fails_the_image_healthcheck_when_nothing_listens():
    result = subprocess.run(
        healthcheck_command(),
        env={"PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "PORT": str(free_port())},
        capture_output=True,
        timeout=30,
    )

    assert result.returncode != 0


def test_it_serves_the_static_files_collected_at_build_time(app, static_root):
    base, _ = app
    manifest = json.loads((static_root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["site.css"]

    status, headers, body = get(f"{base}/static/{hashed}")

    assert status == 200
    assert body == (ROOT / "static" / "site.css").read_bytes()
    # Hashed names never change content: WhiteNoise lets them be cached for good.
    assert "immutable" in headers["Cache-Control"]


def test_it_logs_json_lines_that_carry_the_request_id(app):
    base, log = app

    status, headers, _ = get(base + "/v1/public/nope", {"X-Request-ID": "probe-7"})

    assert (status, headers["X-Request-ID"]) == (404, "probe-7")
    # Written before the response is sent; one line, Django's warning about a 404 would
    # only repeat it.
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    served = [line for line in lines if line.get("request_id") == "probe-7"]
    assert [line["logger"] for line in served] == ["config.request"]
    assert {"timestamp", "level", "logger", "message", "request_id"} <= set(lines[0])


def test_it_is_not_ready_without_its_database(django_db_setup, static_root, tmp_path):
    port = free_port()
    env = production_env(
        port,
        STATIC_ROOT=str(static_root),
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{free_port()}/nothing",
    )

    with serve(env, tmp_path / "app.log") as base:
        status, _, body = get(base + "/readyz")
        live, _, _ = get(base + "/healthz")

    assert status == 503
    assert json.loads(body) == {
        "status": "unavailable",
        "checks": {"database": "unreachable", "redis": "ok"},
    }
    assert live == 200


def test_it_creates_the_bucket_once_with_public_previews(tmp_path):
    """The compose file's one-shot bucket step, run against the test S3 server."""
    endpoint = os.environ.get("S3_TEST_ENDPOINT_URL")
    assert endpoint, "S3_TEST_ENDPOINT_URL is not set: scripts/test.sh starts an S3 server"
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    command = compose["services"]["bucket"]["command"]
    bucket = f"compose-{uuid.uuid4().hex[:12]}"
    env = {
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "S3_ENDPOINT_URL": endpoint,
        "S3_BUCKET": bucket,
        "S3_ACCESS_KEY_ID": "test",
        "S3_SECRET_ACCESS_KEY": "test",
    }

    # Twice: the service runs on every `docker compose up`.
    for _ in range(2):
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr

    s3 = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )
    policy = json.loads(s3.get_bucket_policy(Bucket=bucket)["Policy"])
    assert policy["Statement"] == [
        {
            "Effect": "Allow",
            "Principal": {"AWS": ["*"]},
            "Action": "s3:GetObject",
            "Resource": f"arn:aws:s3:::{bucket}/previews/*",
        }
    ]
