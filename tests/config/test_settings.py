"""Settings come from the environment and production refuses to start without its secrets."""

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import database_from_url, env_bool, env_int, env_origin
from tests.project import ROOT


def start(**env) -> subprocess.CompletedProcess:
    """Imports the settings in a fresh process with exactly this environment."""
    clean = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "config.settings", **env}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "s" * 50,
    "DATABASE_URL": "postgres://app:pw@db:5432/logos",
    "SITE_URL": "https://logos.example",
    "REDIS_URL": "redis://cache:6379/0",
}


def test_it_starts_in_production_with_its_secrets():
    assert start(**PRODUCTION).returncode == 0


@pytest.mark.parametrize("missing", ["SECRET_KEY", "DATABASE_URL", "SITE_URL", "REDIS_URL"])
def test_it_refuses_to_start_in_production_without(missing):
    env = {key: value for key, value in PRODUCTION.items() if key != missing}

    result = start(**env)

    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEBUG", "maybe"),
        ("TRUSTED_PROXY_COUNT", "-1"),
        ("TRUSTED_PROXY_COUNT", "two"),
        ("SITE_URL", "logos.example"),
    ],
)
def test_it_refuses_to_start_with_a_bad_value(name, value):
    result = start(**{**PRODUCTION, name: value})

    assert result.returncode != 0
    assert f"Unexpected value {name}=" in result.stderr


def test_env_helpers_read_values_and_fail_loudly(monkeypatch):
    monkeypatch.setenv("FLAG", "yes")
    monkeypatch.setenv("COUNT", "3")
    monkeypatch.setenv("ORIGIN", "https://logos.example/")
    assert env_bool("FLAG", False) is True
    assert env_int("COUNT", 0, minimum=0) == 3
    assert env_origin("ORIGIN", None) == "https://logos.example"
    monkeypatch.setenv("COUNT", "x")
    with pytest.raises(ImproperlyConfigured, match="COUNT"):
        env_int("COUNT", 0)


def test_it_reads_a_database_url():
    assert database_from_url("DATABASE_URL", "postgresql://u:p%40ss@h:5433/db?sslmode=require") == {
        "ENGINE": "config.postgres",
        "NAME": "db",
        "USER": "u",
        "PASSWORD": "p@ss",
        "HOST": "h",
        "PORT": "5433",
        "OPTIONS": {"sslmode": "require"},
    }
    with pytest.raises(ImproperlyConfigured):
        database_from_url("DATABASE_URL", "mysql://h/db")
