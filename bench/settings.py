"""The project's settings plus the benchmark's trivial endpoint (bench/urls.py).

Used only by bench/search.py, which serves the project with gunicorn under
DJANGO_SETTINGS_MODULE=bench.settings; nothing else changes.
"""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
