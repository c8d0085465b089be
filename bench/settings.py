"""The project's settings plus the benchmark's trivial endpoint (bench/urls.py).

Used by the scripts in bench/, which serve the project with gunicorn under
DJANGO_SETTINGS_MODULE=bench.settings. BENCH_RATE_LIMITS says what happens to the
request rate limits, which would otherwise refuse a benchmark after 20 requests:
  off   (default) not counted at all: bench/search.py measures search alone;
  count counted in Redis exactly as in production, with limits too high to reach:
        bench/auth.py measures what counting costs.
"""

import os

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"

_rate_limits = os.environ.get("BENCH_RATE_LIMITS", "off")
if _rate_limits not in ("off", "count"):
    raise ValueError(f"BENCH_RATE_LIMITS must be off or count, not {_rate_limits!r}")
RATELIMIT_ENABLE = _rate_limits == "count"
API_RATE_AUTHENTICATED = API_RATE_ANONYMOUS = API_RATE_IMAGES_ANONYMOUS = "1000000000/m"
