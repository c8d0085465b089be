from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.caches)
def rate_limits_shared(app_configs, **kwargs):
    backend = settings.CACHES["default"]["BACKEND"]
    if backend.endswith("LocMemCache"):
        return [
            checks.Warning(
                "REDIS_URL is not set: rate limits are counted per process in local memory.",
                hint="Set REDIS_URL so every process shares one count (required with DEBUG off).",
                id="accounts.W001",
            )
        ]
    return []
