"""Settings from the environment, read by small helpers that fail loudly.

A wrong value stops the process at start-up with the variable's name in the
message, instead of running with a silent default.
"""

import os
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from dotenv import dotenv_values

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def read_env_file(path: Path) -> None:
    """Adds development's .env, which scripts/run.sh writes, to the environment: a command
    typed in another terminal then reaches the database and Redis that run.sh started.

    Variables the environment sets, even to "", keep their value. The file counts only
    when it says DEBUG=1, and never in a process whose environment says DEBUG=0: a stray
    .env can neither turn development on nor fill in production's secrets.
    """
    if not path.is_file() or not env_bool("DEBUG", True):
        return
    values = {name: value for name, value in dotenv_values(path).items() if value is not None}
    if values.get("DEBUG", "").lower() not in _TRUE:
        return
    for name, value in values.items():
        os.environ.setdefault(name, value)


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


def env_required(name: str, why: str) -> str:
    value = env_str(name)
    if value is None:
        raise ImproperlyConfigured(f"{name} must be set: {why}")
    return value


def env_bool(name: str, default: bool) -> bool:
    value = env_str(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"Unexpected value {name}={value!r}: use 1/0, true/false, yes/no")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = env_str(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"Unexpected value {name}={value!r}: not an integer") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"Unexpected value {name}={value!r}: must be >= {minimum}")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = env_str(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env_str(name, default)
    if value not in choices:
        raise ImproperlyConfigured(
            f"Unexpected value {name}={value!r}: one of {', '.join(choices)}"
        )
    return value


def env_origin(name: str, default: str | None) -> str | None:
    """An http(s) origin such as https://logos.example, without a trailing slash."""
    value = env_str(name, default)
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        raise ImproperlyConfigured(f"Unexpected value {name}={value!r}: want http(s)://host[:port]")
    return f"{parts.scheme}://{parts.netloc}"


def database_from_url(name: str, url: str) -> dict:
    """A Django DATABASES entry from postgres://user:password@host:port/dbname?options."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql") or not parts.path.strip("/"):
        raise ImproperlyConfigured(
            f"Unexpected value {name}: want postgres://user:password@host:port/dbname"
        )
    options = dict(parse_qsl(parts.query))
    return {
        "ENGINE": "config.postgres",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "OPTIONS": options,
    }
