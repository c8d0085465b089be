#!/usr/bin/env bash
# Install everything, start throwaway servers on loopback, and run every check:
# ruff, the import layers, the OpenAPI validation and the whole pytest suite against
# real PostgreSQL, real Redis and Debian's chromium.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

ensure_venv
ensure_fonts
STARTED=()
# Errexit off in the trap: a failing stop must not leave the other servers running.
trap 'set +e; for server in "${STARTED[@]}"; do "stop_$server" test; done' EXIT
if [ -z "${DATABASE_URL:-}" ]; then
  ensure_postgres_binaries
  start_postgres test 54321 fresh
  STARTED+=(postgres)
  export DATABASE_URL="postgres://postgres@127.0.0.1:54321/logodir"
fi
if [ -z "${REDIS_URL:-}" ]; then
  ensure_redis_binaries
  start_redis test 56381
  STARTED+=(redis)
  export REDIS_URL="redis://127.0.0.1:56381/0"
fi
if [ -z "${S3_TEST_ENDPOINT_URL:-}" ]; then
  start_s3 test 59001
  STARTED+=(s3)
  export S3_TEST_ENDPOINT_URL="http://127.0.0.1:59001"
fi
ensure_chromium
ensure_gettext
export DEBUG=1 SECRET_KEY="test-only-secret-key" SITE_URL="http://testserver"
compile_messages

log "ruff"
"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check .
log "import layers (lint-imports: [tool.importlinter] in pyproject.toml)"
"$VENV/bin/lint-imports" --no-cache
log "OpenAPI document"
"$PY" manage.py spectacular --validate --fail-on-warn --file /dev/null
log "pytest"
"$PY" -m pytest --create-db "$@"
if [ "$#" -eq 0 ]; then
  # The replica alias mirrors the test database, as a streaming replica would.
  log "pytest: catalogue reads on a read replica"
  DATABASE_REPLICA_URL="$DATABASE_URL" "$PY" -m pytest tests/common/test_db_router.py
fi
