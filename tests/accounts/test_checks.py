"""The startup warnings: rate limits that cannot be shared between processes, and mails
that only reach the log in production."""

from accounts.checks import mail_sent, rate_limits_shared


def test_it_warns_that_a_memory_cache_counts_per_process(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

    warnings = rate_limits_shared(None)

    assert [warning.id for warning in warnings] == ["accounts.W001"]
    assert "per process" in warnings[0].msg


def test_it_is_quiet_with_redis(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "common.cache.SharedCache",
            "LOCATION": "redis://127.0.0.1:6379/0",
        }
    }

    assert rate_limits_shared(None) == []


def test_it_warns_in_production_that_mails_only_reach_the_log(settings):
    settings.DEBUG = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

    warnings = mail_sent(None)

    assert [warning.id for warning in warnings] == ["accounts.W002"]
    assert "EMAIL_HOST" in warnings[0].msg


def test_it_is_quiet_about_mail_in_development_or_with_smtp(settings):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    assert mail_sent(None) == []

    settings.DEBUG = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    assert mail_sent(None) == []
