# syntax=docker/dockerfile:1
# The service as one image: gunicorn serving config.wsgi, static files collected at
# build time and served by WhiteNoise, run as an unprivileged user. Configuration comes
# from the environment only (README, "Configuration"); docker-compose.yml wires it up.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
# The pinned dependencies alone first: this layer is rebuilt only when they change.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && pip install --requirement requirements.txt

# The website's translations (locale/), compiled where GNU gettext is: the image needs
# only the compiled catalogues. The settings load as for collectstatic below.
FROM build AS messages
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext=0.21-12 \
    && rm -rf /var/lib/apt/lists/*
COPY . .
RUN DEBUG=0 SECRET_KEY=build-time-only-not-a-secret DATABASE_URL=postgres://build@localhost/build REDIS_URL=redis://localhost:6379/0 SITE_URL=http://localhost python manage.py compilemessages

FROM ${PYTHON_IMAGE}
# DEBUG=0 stated, not left to its default: the settings then read no .env whatever is
# mounted beside the code (config/env.py).
ENV PATH=/opt/venv/bin:$PATH \
    DEBUG=0 \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PORT=8000 \
    WEB_CONCURRENCY=2 \
    MEDIA_ROOT=/var/lib/logodir/media \
    EMBEDDING_INDEX_DIR=/var/lib/logodir/embeddings
# The letters of the Logo Link's monograms (MONOGRAM_FONT, directory/images/renditions.py).
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core=2.37-6 \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --no-create-home --home-dir /nonexistent app \
    && mkdir -p /var/lib/logodir/media /var/lib/logodir/embeddings \
    && chown -R app:app /var/lib/logodir
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
# Owned by root and read-only to the app: the process cannot rewrite its own code.
COPY . .
COPY --from=messages /src/locale/ ./locale/
# The settings need a secret and addresses to load; collectstatic uses none of them, so
# throwaway values stand in at build time and no real secret enters the image.
RUN DEBUG=0 SECRET_KEY=build-time-only-not-a-secret DATABASE_URL=postgres://build@localhost/build REDIS_URL=redis://localhost:6379/0 SITE_URL=http://localhost python manage.py collectstatic --noinput
USER 10001:10001
EXPOSE 8000
# Liveness only: a restart cures a stuck process, not a database outage (that is /readyz,
# for the load balancer). No curl in a slim image; Python is there.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8000') + '/healthz', timeout=4)"]
CMD ["gunicorn", "--config", "config/gunicorn.py", "config.wsgi"]
