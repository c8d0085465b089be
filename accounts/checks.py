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


@checks.register(checks.Tags.compatibility)
def mail_sent(app_configs, **kwargs):
    if not settings.DEBUG and settings.EMAIL_BACKEND.endswith("console.EmailBackend"):
        return [
            checks.Warning(
                "EMAIL_HOST is not set: sign-up links and password resets go to the log only.",
                hint="Set EMAIL_HOST (and EMAIL_HOST_USER, EMAIL_HOST_PASSWORD) to send them.",
                id="accounts.W002",
            )
        ]
    return []
