"""The startup warning when rate limits cannot be shared between processes."""

from accounts.checks import rate_limits_shared


def test_it_warns_that_a_memory_cache_counts_per_process(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

    warnings = rate_limits_shared(None)

    assert [warning.id for warning in warnings] == ["accounts.W001"]
    assert "per process" in warnings[0].msg


def test_it_is_quiet_with_redis(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.SharedCache",
            "LOCATION": "redis://127.0.0.1:6379/0",
        }
    }

    assert rate_limits_shared(None) == []
