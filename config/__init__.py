"""The project's wiring: settings read from the environment (`settings.py`, `env.py`),
URLs, WSGI and gunicorn settings, logging with request ids, the health probes and the
PostgreSQL backend. Nothing imports it but the tools that start the project; the code
the apps share lives in api/, website/ and common/."""
