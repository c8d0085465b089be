"""Gunicorn's settings, from the environment: `gunicorn -c config/gunicorn.py config.wsgi`.

The image's CMD and the test that starts the service run exactly that command.
"""

import os

from config.env import env_bool, env_int
from config.logging import logging_config

# The platform says where to listen (PORT); inside a container any address will do.
bind = [f"{os.environ.get('BIND_HOST', '0.0.0.0')}:{env_int('PORT', 8000, minimum=1)}"]  # noqa: S104

# Sync workers: every request is short and the app holds no open streams. About two
# per core; each is a full process with its own database connection and, once asked
# for related companies, its own copy of the exact-ranking vectors.
workers = env_int("WEB_CONCURRENCY", 2, minimum=1)
worker_class = "sync"
timeout = env_int("GUNICORN_TIMEOUT", 30, minimum=1)
graceful_timeout = timeout
# Behind a load balancer that keeps connections open to the workers.
keepalive = env_int("GUNICORN_KEEPALIVE", 5, minimum=0)
# A worker is replaced after this many requests (0: never), a guard against slow leaks;
# the jitter keeps them from restarting all at once.
max_requests = env_int("GUNICORN_MAX_REQUESTS", 0, minimum=0)
max_requests_jitter = max_requests // 10

# No runtime control socket: it would live in $HOME, which the image's user lacks, and
# a container is managed by replacing it.
control_socket_disable = True

# The app logs every request itself, with its id (config/logging.py): no access log.
accesslog = None
# Gunicorn's own lines (workers booting, timeouts) in the app's format.
logconfig_dict = logging_config(
    debug=env_bool("DEBUG", False),
    handlers={"null": {"class": "logging.NullHandler"}},
    root={"level": "INFO", "handlers": []},
    loggers={
        "gunicorn.error": {"level": "INFO", "handlers": ["console"], "propagate": False},
        "gunicorn.access": {"handlers": ["null"], "propagate": False},
    },
)
