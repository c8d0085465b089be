"""Liveness and readiness for container runtimes and load balancers.

/healthz answers while the process can serve at all; /readyz also needs the database
and Redis. They are answered by a middleware near the top of the stack, before the
host check: probes address the container by IP, not by the site's name, and a probe
must not need a session, a token or a rate-limit count.
"""

import logging

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse

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


def _redis_reachable() -> bool:
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        # Development without REDIS_URL: the per-process memory cache is always there.
        return True
    try:
        return bool(cache._cache.get_client(write=True).ping())
    except Exception as error:
        logger.warning("readiness: Redis is unreachable: %s", error)
        return False


def readyz(request: HttpRequest) -> HttpResponse:
    checks = {
        "database": "ok" if _database_reachable() else "unreachable",
        "redis": "ok" if _redis_reachable() else "unreachable",
    }
    ready = all(state == "ok" for state in checks.values())
    body = {"status": "ok" if ready else "unavailable", "checks": checks}
    return _no_store(JsonResponse(body, status=200 if ready else 503))


_PROBES = {"/healthz": healthz, "/readyz": readyz}


class HealthCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = _PROBES.get(request.path)
        if probe is not None and request.method in ("GET", "HEAD"):
            return probe(request)
        return self.get_response(request)
