"""Liveness and readiness for container runtimes and load balancers.

/healthz answers while the process can serve at all; /readyz while it can reach the
database. Without Redis the process serves, degraded (common/cache.py): /readyz then
answers 200 with "status": "degraded", so that operators see it and a load balancer
keeps the instance, since every instance shares the one Redis. They are answered by
a middleware near the top of the stack, before the host check: probes address the
container by IP, not by the site's name, and a probe must not need a session, a
token or a rate-limit count.
"""

import logging

from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse

from common.cache import redis_state

logger = logging.getLogger(__name__)


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    return response


def healthz(request: HttpRequest) -> HttpResponse:
    return _no_store(JsonResponse({"status": "ok"}))


def _database_reachable() -> bool:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except Exception as error:
        # One line per probe, no traceback: a load balancer asks every few seconds.
        logger.warning("readiness: the database is unreachable: %s", error)
        return False


def readyz(request: HttpRequest) -> HttpResponse:
    database = "ok" if _database_reachable() else "unreachable"
    redis = redis_state()
    if redis == "absent":  # development without REDIS_URL counts per process by design
        redis = "ok"
    if database != "ok":
        status = "unavailable"
    elif redis != "ok":
        status = "degraded"
    else:
        status = "ok"
    body = {"status": status, "checks": {"database": database, "redis": redis}}
    return _no_store(JsonResponse(body, status=503 if status == "unavailable" else 200))


_PROBES = {"/healthz": healthz, "/readyz": readyz}


class HealthCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = _PROBES.get(request.path)
        if probe is not None and request.method in ("GET", "HEAD"):
            return probe(request)
        return self.get_response(request)
