"""Mail settings come from the environment: SMTP with EMAIL_HOST, the log without it."""

import json
import os
import subprocess
import sys

from tests.project import ROOT

SHOW = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({n: getattr(s, n, None) for n in ['EMAIL_BACKEND', 'EMAIL_HOST', "
    "'EMAIL_PORT', 'EMAIL_HOST_USER', 'EMAIL_HOST_PASSWORD', 'EMAIL_USE_TLS', "
    "'EMAIL_USE_SSL', 'DEFAULT_FROM_EMAIL']}))"
)


def _mail_settings(**env) -> dict:
    clean = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
        "SITE_URL": "https://logos.example",
        **env,
    }
    result = subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_it_writes_mails_to_the_log_without_a_mail_server():
    settings = _mail_settings()

    assert settings["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert settings["DEFAULT_FROM_EMAIL"] == "Logo directory <no-reply@logos.example>"


def test_it_sends_mails_over_smtp_with_starttls_when_a_server_is_named():
    settings = _mail_settings(
        EMAIL_HOST="smtp.example",
        EMAIL_HOST_USER="logos",
        EMAIL_HOST_PASSWORD="secret",
        DEFAULT_FROM_EMAIL="Logos <hola@logos.example>",
    )

    assert settings == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "logos",
        "EMAIL_HOST_PASSWORD": "secret",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
        "DEFAULT_FROM_EMAIL": "Logos <hola@logos.example>",
    }


def test_it_uses_implicit_tls_when_asked():
    settings = _mail_settings(EMAIL_HOST="smtp.example", EMAIL_PORT="465", EMAIL_USE_SSL="1")

    assert (settings["EMAIL_PORT"], settings["EMAIL_USE_SSL"], settings["EMAIL_USE_TLS"]) == (
        465,
        True,
        False,
    )
