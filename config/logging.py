"""One id per request, on every log line written while it is served and in its response.

Behind a load balancer that already names requests, its X-Request-ID is kept, so one
id follows a request from the edge to the database log; otherwise a new one is made.
"""

import json
import logging
import re
import time
import traceback
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime

from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from config.env import env_choice

HEADER = "X-Request-ID"
_SANE = re.compile(r"[A-Za-z0-9._-]{1,128}")

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)

logger = logging.getLogger("config.request")


def request_id_from(value: str | None) -> str:
    """The caller's id when it is safe to print in a log line and a header, else a new one."""
    if value is not None and _SANE.fullmatch(value):
        return value
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """First in MIDDLEWARE, so even responses made by later middleware carry the id."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Not reset on the way out: Django logs a failed request's status after the
        # middleware returns (django.request). request_finished clears it.
        request_id.set(request_id_from(request.headers.get(HEADER)))
        started = time.perf_counter()
        response = self.get_response(request)
        response[HEADER] = request_id.get()
        # The process's access log: gunicorn's own is off, it cannot see the id.
        logger.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
            },
        )
        return response


@receiver(request_finished, dispatch_uid="config.logging.request_id")
def _forget_request_id(sender, **kwargs) -> None:
    request_id.set(None)


class RequestIdFilter(logging.Filter):
    """Puts the current request's id (None outside a request) on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


# Attributes every LogRecord has; anything else on a record came from `extra=`.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "request_id"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: what log collectors parse without a pattern."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "timestamp": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", request_id.get()),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        if record.stack_info:
            entry["stack"] = record.stack_info
        # default=str: an extra that JSON cannot hold (a request, a path) still logs.
        return json.dumps(entry, ensure_ascii=False, default=str)


def logging_config(*, debug: bool, root: dict, loggers: dict, handlers: dict | None = None) -> dict:
    """The dictConfig of Django's logging and of gunicorn's own lines alike.

    A `console` handler writes every record with its request id in LOG_FORMAT: one
    JSON object per line in production (what log collectors parse), readable text in
    development. `handlers` adds others beside it.
    """
    log_format = env_choice("LOG_FORMAT", "text" if debug else "json", ("json", "text"))
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "config.logging.RequestIdFilter"}},
        "formatters": {
            "json": {"()": "config.logging.JsonFormatter"},
            "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["request_id"],
                "formatter": log_format,
            },
            **(handlers or {}),
        },
        "root": root,
        "loggers": loggers,
    }
