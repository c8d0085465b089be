"""Development's .env: what scripts/run.sh writes lets the README's commands, typed in
another terminal, reach the database and Redis of the running server, and nothing else.
"""

import json
import os
import shlex
import subprocess
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from accounts.models import Plan
from tests.factories import UserFactory, bearer, token_for
from tests.project import ROOT, database_url, project_copy

# What a new terminal has: no DEBUG, no DATABASE_URL, nothing the scripts exported.
TERMINAL = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root")}


def _write_env_file(project: Path, **env: str) -> None:
    """The .env that scripts/run.sh writes, by its own shell function."""
    subprocess.run(
        ["bash", "-c", "source scripts/lib.sh && write_env_file"],
        cwd=project,
        env={**TERMINAL, **env},
        check=True,
    )


def _settings(project: Path, *names: str, **env: str) -> subprocess.CompletedProcess:
    """Loads the settings of the copy in a fresh process and prints the named ones."""
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps({{n: str(getattr(s, n)) for n in {list(names)!r}}}))"
    )
    return subprocess.run(
        [".venv/bin/python", "-c", script],
        cwd=project,
        env={**TERMINAL, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def _me(base: str, secret: str) -> dict:
    headers = {"Authorization": bearer(secret)["HTTP_AUTHORIZATION"]}
    request = urllib.request.Request(f"{base}/v1/public/me", headers=headers)  # noqa: S310
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - loopback
        return json.load(response)


@pytest.mark.django_db(transaction=True)
def test_it_runs_a_readme_command_typed_in_another_terminal_against_the_running_server(
    live_server, tmp_path
):
    project = project_copy(tmp_path)
    _write_env_file(
        project,
        DEBUG="1",
        DATABASE_URL=database_url(),
        REDIS_URL=django_settings.CACHES["default"]["LOCATION"],
    )
    user = UserFactory(email="someone@example.com", plan=Plan.FREE)
    older = token_for(user)
    # The running server has the older token's lookup, with the FREE plan, in Redis.
    for _ in range(3):
        assert _me(live_server.url, older)["user"]["plan"] == "FREE"

    typed = subprocess.run(
        shlex.split(
            ".venv/bin/python manage.py issue_token someone@example.com "
            "--scopes read:logos --plan PRO"
        ),
        cwd=project,
        env=TERMINAL,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert typed.returncode == 0, typed.stderr
    assert (project / ".env").stat().st_mode & 0o777 == 0o600
    assert typed.stdout.strip().startswith("lgd_")
    assert _me(live_server.url, older)["user"]["plan"] == "PRO"
    assert _me(live_server.url, typed.stdout.strip())["user"]["plan"] == "PRO"


def test_it_lets_the_environment_win_over_the_env_file(tmp_path):
    project = project_copy(tmp_path)
    _write_env_file(
        project,
        DEBUG="1",
        DATABASE_URL="postgres://postgres@127.0.0.1:54320/from_the_file",
        REDIS_URL="redis://127.0.0.1:56380/0",
    )

    result = _settings(
        project,
        "DEBUG",
        "DATABASES",
        "CACHES",
        DATABASE_URL="postgres://postgres@127.0.0.1:54320/from_the_environment",
        REDIS_URL="",
    )

    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["DEBUG"] == "True"
    assert "from_the_environment" in loaded["DATABASES"]
    # An empty variable is a value too: no Redis, as the environment says.
    assert "LocMemCache" in loaded["CACHES"]


def test_it_never_reads_the_env_file_where_debug_is_off(tmp_path):
    project = project_copy(tmp_path)
    (project / ".env").write_text(
        "DEBUG=1\nSECRET_KEY=from-the-file\nDATABASE_URL=postgres://u@db/x\n"
        "SITE_URL=https://logos.example\nREDIS_URL=redis://cache:6379/0\n"
    )

    result = _settings(project, "DEBUG", DEBUG="0")

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_it_ignores_an_env_file_that_does_not_say_debug(tmp_path):
    project = project_copy(tmp_path)
    (project / ".env").write_text(
        "SECRET_KEY=from-the-file\nDATABASE_URL=postgres://u@db/x\n"
        "SITE_URL=https://logos.example\nREDIS_URL=redis://cache:6379/0\n"
    )

    result = _settings(project, "DEBUG")

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_it_keeps_the_env_file_out_of_git_and_of_the_image():
    ignored = subprocess.run(
        ["git", "check-ignore", "--quiet", ".env"], cwd=ROOT, check=False
    ).returncode
    docker_ignored = (ROOT / ".dockerignore").read_text().splitlines()

    assert ignored == 0
    assert ".env" in docker_ignored
