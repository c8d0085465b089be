#!/usr/bin/env bash
# Install everything, start the project-local PostgreSQL and Redis, load the demo catalogue
# once, and serve the site and API on http://127.0.0.1:8000 (RUN_PORT to change it;
# RUN_POSTGRES_PORT and RUN_REDIS_PORT move PostgreSQL and Redis from 54320 and 56380).
#   ./scripts/run.sh        # serving in a few minutes the first time, once the Python packages are in
#   ./scripts/run.sh stop   # stops the server and the PostgreSQL and Redis it started
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

RUN_PORT="${RUN_PORT:-8000}"
RUN_POSTGRES_PORT="${RUN_POSTGRES_PORT:-54320}"
RUN_REDIS_PORT="${RUN_REDIS_PORT:-56380}"
PIDFILE="$LOCAL/run.pid"

if [ "${1:-}" = stop ]; then
  if [ -f "$LOCAL/complete-import.pid" ]; then
    # Stopped half-way it loses nothing: the next run.sh finishes it.
    kill "$(cat "$LOCAL/complete-import.pid")" 2>/dev/null || true
    rm -f "$LOCAL/complete-import.pid"
  fi
  if [ -f "$PIDFILE" ]; then
    pid=$(cat "$PIDFILE")
    # runserver's reloader runs the server as its child.
    pkill -TERM -P "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
    rm -f "$PIDFILE"
    log "stopped the server (process $pid)"
  fi
  stop_postgres dev
  stop_redis dev
  log "stopped PostgreSQL and Redis of run.sh (their data stays in .local/)"
  exit 0
fi
[ $# -eq 0 ] || die "usage: $0 [stop]"

started=$SECONDS
ensure_venv
ensure_fonts
if [ -z "${DATABASE_URL:-}" ]; then
  ensure_postgres_binaries
  start_postgres dev "$RUN_POSTGRES_PORT"
  ensure_database "$RUN_POSTGRES_PORT" logodir
  export DATABASE_URL="postgres://postgres@127.0.0.1:$RUN_POSTGRES_PORT/logodir"
fi
if [ -z "${REDIS_URL:-}" ]; then
  ensure_redis_binaries
  start_redis dev "$RUN_REDIS_PORT"
  export REDIS_URL="redis://127.0.0.1:$RUN_REDIS_PORT/0"
fi
export DEBUG="${DEBUG:-1}"
export SITE_URL="${SITE_URL:-http://127.0.0.1:$RUN_PORT}"
write_env_file
ensure_gettext
log "compiling the website's translations"
compile_messages

# The demo's logo files need no database: drawn on both cores while the database is
# migrated, into a folder kept for the next runs (drawn once; a stopped run resumes).
DEMO_FILES="$LOCAL/demo-files"
log "migrating the database (log in .local/migrate.log) and meanwhile drawing the demo's logo files into .local/demo-files (the first time: about a minute)"
"$PY" manage.py migrate --noinput >"$LOCAL/migrate.log" 2>&1 &
migrate_pid=$!
"$PY" manage.py seed_demo --draw-only --files "$DEMO_FILES" >/dev/null
! kill -0 "$migrate_pid" 2>/dev/null || log "files drawn; waiting for migrate"
if ! wait "$migrate_pid"; then
  tail -n 20 "$LOCAL/migrate.log" >&2
  die "migrate failed (the whole log: .local/migrate.log)"
fi
log "migrated; loading the demo catalogue if the database is empty (2,000 companies, once)"
"$PY" manage.py seed_demo --if-empty --rows-only --files "$DEMO_FILES"
# Previews, colours and vectors while the site already answers: until a logo's are made
# the API says so (previewUrl null, cached: false). Also finishes a load that was stopped.
log "drawing previews and reading colours in the background (a few minutes the first time; progress in .local/complete-import.log)"
(
  "$PY" manage.py complete_import >"$LOCAL/complete-import.log" 2>&1 &
  echo $! >"$LOCAL/complete-import.pid"
  # Said in the server's terminal when it ends: its last line says what was made.
  if wait $!; then
    log "$(tail -n 1 "$LOCAL/complete-import.log") ($((SECONDS - started)) s after run.sh started)"
  else
    log "complete_import stopped before the end (.local/complete-import.log); the next run.sh finishes it"
  fi
  rm -f "$LOCAL/complete-import.pid"
) &
log "ready in $((SECONDS - started)) s: serving on $SITE_URL (API under /v1/public, docs at /v1/public/docs); Ctrl-C or ./scripts/run.sh stop to stop"
echo $$ >"$PIDFILE"
exec "$PY" manage.py runserver "127.0.0.1:$RUN_PORT"
