# Shared by scripts/run.sh and scripts/test.sh: install what is missing, start
# project-local servers on loopback. Sourced, not run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOCAL="$ROOT/.local"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
_APT_UPDATED=""

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    die "need root to run: $*"; fi
}

apt_install() {
  log "installing Debian packages: $*"
  if [ -z "$_APT_UPDATED" ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    _APT_UPDATED=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

find_python() {
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      command -v "$candidate"; return
    fi
  done
  die "Python 3.11 or newer is required"
}

ensure_venv() {
  mkdir -p "$LOCAL"
  if [ ! -x "$PY" ]; then
    local python; python=$(find_python)
    log "creating the project venv with $python"
    if ! "$python" -m venv "$VENV" 2>/dev/null; then
      rm -rf "$VENV"
      apt_install python3-venv
      "$python" -m venv "$VENV"
    fi
  fi
  local stamp="$LOCAL/venv.stamp" want
  want=$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    log "installing Python packages into .venv (the first time: about 2 minutes; pip lists each)"
    # pipefail (above): pip's failure is the pipeline's.
    "$PY" -m pip install --disable-pip-version-check -e "$ROOT[dev]" |
      { grep --line-buffered -v '^Requirement already satisfied' || true; }
    echo "$want" >"$stamp"
  fi
}

# write_env_file: .env with the servers of this development run (DEBUG, DATABASE_URL,
# REDIS_URL, SITE_URL), which the settings read for the commands typed in another terminal. The
# environment's own values win over it, and it is ignored wherever DEBUG=0 (config/env.py).
write_env_file() {
  local file="$ROOT/.env"
  # Private: a DATABASE_URL given to run.sh may carry a password.
  (
    umask 077
    {
      echo "# Written by scripts/run.sh for commands typed beside it; development only."
      echo "DEBUG='$DEBUG'"
      echo "DATABASE_URL='$DATABASE_URL'"
      echo "REDIS_URL='$REDIS_URL'"
      [ -z "${SITE_URL:-}" ] || echo "SITE_URL='$SITE_URL'"
    } >"$file.tmp"
  )
  mv "$file.tmp" "$file"
}

pg_bindir() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return; fi
  done
}

ensure_postgres_binaries() {
  local bindir; bindir=$(pg_bindir)
  if [ -z "$bindir" ] || [ ! -f "$("$bindir/pg_config" --sharedir 2>/dev/null)/extension/unaccent.control" ]; then
    apt_install postgresql postgresql-contrib
  fi
  [ -n "$(pg_bindir)" ] || die "PostgreSQL server binaries not found after installing them"
}

# initdb refuses to run as root: the cluster then belongs to the postgres system user.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# start_postgres NAME PORT [fresh]: a cluster in .local/pg-NAME listening on 127.0.0.1:PORT.
start_postgres() {
  local name=$1 port=$2 fresh=${3:-}
  local dir="$LOCAL/pg-$name" bindir; bindir=$(pg_bindir)
  if [ -n "$fresh" ]; then stop_postgres "$name"; as_root rm -rf "$dir"; fi
  if as_pg "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then return; fi
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    chmod o+x "$ROOT" "$LOCAL"
    chown postgres: "$dir"
    runuser -u postgres -- test -w "$dir" ||
      die "the postgres user cannot reach $dir; make its parent folders traversable (chmod o+x)"
  fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    log "creating a PostgreSQL cluster in $dir"
    as_pg "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
shared_buffers = 256MB
random_page_cost = 1.1
jit = off
CONF
    if [ -n "$fresh" ]; then
      # A throwaway cluster for tests: durability buys nothing there.
      printf 'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n' >>"$dir/data/postgresql.conf"
    fi
  fi
  log "starting PostgreSQL on 127.0.0.1:$port"
  as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
}

stop_postgres() {
  local dir="$LOCAL/pg-$1" bindir; bindir=$(pg_bindir)
  if [ -n "$bindir" ] && [ -f "$dir/data/PG_VERSION" ]; then
    as_pg "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
}

# ensure_database PORT NAME
ensure_database() {
  local port=$1 db=$2 bindir; bindir=$(pg_bindir)
  if ! "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
    "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres "$db"
  fi
}

ensure_redis_binaries() {
  command -v redis-server >/dev/null || apt_install redis-server
}

# The HTTP load generator of the benchmarks under bench/ (not needed to run or test).
ensure_wrk() {
  command -v wrk >/dev/null || apt_install wrk
}

# start_redis NAME PORT: a cache-only Redis in .local/redis-NAME on 127.0.0.1:PORT.
start_redis() {
  local name=$1 port=$2 dir="$LOCAL/redis-$1"
  mkdir -p "$dir"
  if redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; then return; fi
  log "starting Redis on 127.0.0.1:$port"
  local attempts=0 waited
  while :; do
    # Rate-limit counters live for a minute: nothing is worth writing to disk.
    redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --save "" --appendonly no \
      --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" >/dev/null
    waited=0
    until redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; do
      waited=$((waited + 1)); [ "$waited" -lt 30 ] || break
      sleep 0.1
    done
    if redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; then return; fi
    # The port lies in Linux's ephemeral range: after heavy traffic (the benchmarks) a
    # client socket in TIME_WAIT can hold it for up to a minute, and Redis exits
    # unable to bind. Start it again once that has passed.
    attempts=$((attempts + 1))
    [ "$attempts" -lt 25 ] || die "Redis did not start; see $dir/redis.log"
    sleep 3
  done
}

stop_redis() {
  local pidfile="$LOCAL/redis-$1/redis.pid"
  if [ -f "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; rm -f "$pidfile"; fi
}

# GNU gettext: makemessages and compilemessages call its xgettext, msgmerge and msgfmt.
ensure_gettext() {
  command -v msgfmt >/dev/null || apt_install gettext
}

# The website's translations (locale/, docs/i18n.md). update_messages adds the strings of
# the templates and the code to the catalogues, for translators to fill in; the staff
# admin's and the developers' example pages are English only. compile_messages turns them into what Django reads.
update_messages() {
  "$PY" manage.py makemessages --locale es --add-location file --no-obsolete \
    --ignore '.venv/*' --ignore '.local/*' --ignore 'tests/*' --ignore 'bench/*' \
    --ignore 'templates/admin/*' --ignore 'templates/examples/*' --verbosity 0
}

compile_messages() {
  # What `manage.py compilemessages` runs for each catalogue, without starting Django
  # (half a minute on a busy machine), and only for a catalogue newer than its .mo.
  local po
  find "$ROOT" \( -path "$ROOT/.venv" -o -path "$ROOT/.local" -o -path "$ROOT/.git" \) -prune \
    -o -name '*.po' -path '*/LC_MESSAGES/*' -print | while IFS= read -r po; do
    [ "${po%.po}.mo" -nt "$po" ] || msgfmt --check-format -o "${po%.po}.mo" "$po"
  done
}

# DejaVu Sans Bold: the letters of the Logo Link's monograms (directory/images/renditions.py).
ensure_fonts() {
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || apt_install fonts-dejavu-core
}

# The browser tests drive Debian's chromium through Playwright (no browser download).
ensure_chromium() {
  [ -x /usr/bin/chromium ] || apt_install chromium
}

s3_up() {
  "$PY" -c "import urllib.request as r; r.urlopen('http://127.0.0.1:$1/moto-api/', timeout=1)" \
    >/dev/null 2>&1
}

# start_s3 NAME PORT: an S3-compatible server (moto, from the venv) on 127.0.0.1:PORT,
# in memory: the tests of the S3 storage path talk to it over HTTP like to any S3.
start_s3() {
  local name=$1 port=$2 dir="$LOCAL/s3-$1"
  mkdir -p "$dir"
  if s3_up "$port"; then return; fi
  log "starting an S3-compatible server (moto) on 127.0.0.1:$port"
  nohup "$VENV/bin/moto_server" -H 127.0.0.1 -p "$port" >"$dir/s3.log" 2>&1 &
  echo $! >"$dir/s3.pid"
  local tries=0
  until s3_up "$port"; do
    tries=$((tries + 1)); [ "$tries" -lt 100 ] || die "moto did not start; see $dir/s3.log"
    sleep 0.1
  done
}

stop_s3() {
  local pidfile="$LOCAL/s3-$1/s3.pid"
  if [ -f "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; rm -f "$pidfile"; fi
}
