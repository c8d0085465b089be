#!/usr/bin/env bash
# Install everything, start the project-local PostgreSQL and Redis, load the demo catalogue
# once, and serve the site and API on http://127.0.0.1:8000.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

ensure_venv
ensure_fonts
if [ -z "${DATABASE_URL:-}" ]; then
  ensure_postgres_binaries
  start_postgres dev 54320
  ensure_database 54320 logodir
  export DATABASE_URL="postgres://postgres@127.0.0.1:54320/logodir"
fi
if [ -z "${REDIS_URL:-}" ]; then
  ensure_redis_binaries
  start_redis dev 56380
  export REDIS_URL="redis://127.0.0.1:56380/0"
fi
export DEBUG="${DEBUG:-1}"
write_env_file
ensure_gettext
compile_messages

"$PY" manage.py migrate --noinput
log "loading the demo catalogue if the database is empty (2,000 companies: a few minutes, once)"
"$PY" manage.py seed_demo --if-empty
log "reading the brand colours of logos that have none yet"
"$PY" manage.py compute_colors
log "serving on http://127.0.0.1:8000 (API under /v1/public, docs at /v1/public/docs)"
exec "$PY" manage.py runserver 127.0.0.1:8000
