#!/usr/bin/env bash
# Strapi 5 test CMS for the gateway tests (template in scripts/strapi/).
#
#   scripts/strapi.sh start [PORT]   install (cached), reset the database, start, wait, print
#                                    STRAPI_URL=... and STRAPI_TOKEN_FILE=... on stdout
#   scripts/strapi.sh stop           stop the instance started by `start`
#   scripts/strapi.sh status         print whether it runs
#
# Environment (all optional):
#   STRAPI_PORT            port when none is given on the command line (default 18337)
#   STRAPI_INSTALL_DIR     where the app and node_modules live (default target/strapi)
#   STRAPI_RUN_DIR         per-run state: data.db, public/uploads, api-token.txt, id-map.json,
#                          strapi.log, strapi.pid (default target/strapi-run)
#   STRAPI_START_TIMEOUT   seconds to wait for the first 200 (default 180)
# Relative paths are relative to the repository root. Needs node (20.x), npm, curl;
# no TTY, no stdin, no network except the npm registry (first install only).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TEMPLATE_DIR="$REPO_ROOT/scripts/strapi"
# shellcheck source=lib/install-cache.sh
source "$REPO_ROOT/scripts/lib/install-cache.sh"

abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$REPO_ROOT/$1" ;; esac; }
INSTALL_DIR="$(abspath "${STRAPI_INSTALL_DIR:-target/strapi}")"
RUN_DIR="$(abspath "${STRAPI_RUN_DIR:-target/strapi-run}")"
PID_FILE="$RUN_DIR/strapi.pid"
LOG_FILE="$RUN_DIR/strapi.log"
TOKEN_FILE="$RUN_DIR/api-token.txt"
TIMEOUT="${STRAPI_START_TIMEOUT:-180}"
NODE="${NODE:-$(command -v node || echo /usr/bin/node)}"

log() { printf 'strapi.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Never phone home (telemetry, update checks), never prompt.
export STRAPI_TELEMETRY_DISABLED=true
export STRAPI_DISABLE_REMOTE_DATA_TRANSFER=true
export NPM_CONFIG_UPDATE_NOTIFIER=false
export NPM_CONFIG_FUND=false
export NPM_CONFIG_AUDIT=false
export CI=true
# better-sqlite3: no prebuilt binaries can be downloaded (no GitHub access), so
# prebuild-install fails and node-gyp builds from source against the local headers.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node_version.h ]; then
  export npm_config_nodedir=/usr
fi

running_pid() {
  # Prints the pid if the pid file points at a live Strapi started by us.
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'server\.js' || return 1
  printf '%s\n' "$pid"
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  # The server was started with setsid: its pid is its process group.
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "pid $pid did not stop after 10 s, sending SIGKILL"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  log "stopped (pid $pid)"
}

install() {
  mkdir -p "$INSTALL_DIR"
  # One install at a time (`make test` starts one in the background; `start` waits for it).
  exec 9>"$INSTALL_DIR.lock"
  flock 9
  # App files: replaced on every start (node_modules is kept).
  rm -rf "$INSTALL_DIR/config" "$INSTALL_DIR/src"
  cp -R "$TEMPLATE_DIR/config" "$TEMPLATE_DIR/src" "$INSTALL_DIR/"
  cp "$TEMPLATE_DIR/server.js" "$TEMPLATE_DIR/favicon.png" "$TEMPLATE_DIR/package.json" \
    "$TEMPLATE_DIR/package-lock.json" "$INSTALL_DIR/"

  # Cache key: lockfile + package.json + node version (native module ABI).
  local key stamp="$INSTALL_DIR/node_modules/.install-key"
  key="$({ cat "$TEMPLATE_DIR/package-lock.json" "$TEMPLATE_DIR/package.json"; "$NODE" -p 'process.version + process.arch'; } | sha256sum | cut -c1-64)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
    exec 9>&-
    return 0
  fi
  local t0=$SECONDS
  # What an earlier install with this key made (scripts/lib/install-cache.sh), checked as an
  # install is; installed again when it is missing or does not load.
  rm -rf "$INSTALL_DIR/node_modules"
  if install_cache_restore strapi "$key" "$INSTALL_DIR" && [ "$(cat "$stamp" 2>/dev/null)" = "$key" ] &&
    "$NODE" -e "require('$INSTALL_DIR/node_modules/better-sqlite3')(':memory:').close()" 2>/dev/null; then
    log "dependencies unpacked from the install cache in $((SECONDS - t0)) s"
    exec 9>&-
    return 0
  fi
  rm -rf "$INSTALL_DIR/node_modules"
  log "installing dependencies into $INSTALL_DIR (npm ci, takes a few minutes the first time)"
  # better-sqlite3 compiles SQLite's amalgamation from source (no prebuilt binary can be fetched
  # here) at its -O3; a test CMS's database needs no more than -O1, which comes last on gcc's line
  # and wins: sqlite3.c alone 45 -> 18 s of CPU, the whole npm ci 142 -> 121 s on a quiet machine
  # (2026-12-07). In `make test` it runs beside the Rust build, whose cores it shares.
  (cd "$INSTALL_DIR" && CFLAGS="${CFLAGS:-} -O1" CXXFLAGS="${CXXFLAGS:-} -O1" npm ci --no-audit --no-fund --loglevel=error </dev/null >"$INSTALL_DIR/npm-ci.log" 2>&1) || {
    tail -n 40 "$INSTALL_DIR/npm-ci.log" >&2
    die "npm ci failed (full log: $INSTALL_DIR/npm-ci.log)"
  }
  "$NODE" -e "require('$INSTALL_DIR/node_modules/better-sqlite3')(':memory:').close()" ||
    die "better-sqlite3 does not load (native build failed?), see $INSTALL_DIR/npm-ci.log"
  printf '%s\n' "$key" >"$stamp"
  log "installed in $((SECONDS - t0)) s"
  install_cache_save strapi "$key" "$INSTALL_DIR" node_modules
  # Closed, so Strapi (started from this shell) does not hold the lock.
  exec 9>&-
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

random_secret() { head -c 24 /dev/urandom | base64 | tr -d '\n'; }

cmd_start() {
  local port="${1:-${STRAPI_PORT:-18337}}"
  [[ "$port" =~ ^[0-9]+$ ]] || die "bad port: $port"
  [ -x "$NODE" ] || die "node not found"
  command -v curl >/dev/null || die "curl not found"

  if running_pid >/dev/null; then
    log "an instance is already running, restarting it"
    cmd_stop
  fi
  port_in_use "$port" && die "port $port on 127.0.0.1 is already in use"

  install

  # Fresh state every start: deterministic seed, ids and upload names.
  mkdir -p "$RUN_DIR"
  rm -rf "$RUN_DIR/public" "$RUN_DIR"/data.db* "$TOKEN_FILE" "$RUN_DIR/editor-token.txt" "$RUN_DIR/id-map.json"
  mkdir -p "$RUN_DIR/public/uploads"
  : >"$LOG_FILE"

  local t0
  t0=$(date +%s%N)
  (
    cd "$INSTALL_DIR"
    export NODE_ENV=production HOST=127.0.0.1 PORT="$port" \
      STRAPI_REPO_ROOT="$REPO_ROOT" STRAPI_RUN_DIR="$RUN_DIR" \
      APP_KEYS="$(random_secret),$(random_secret)" \
      ADMIN_JWT_SECRET="$(random_secret)" API_TOKEN_SALT="$(random_secret)" \
      TRANSFER_TOKEN_SALT="$(random_secret)" ENCRYPTION_KEY="$(random_secret)" \
      FORCE_COLOR=0 NO_COLOR=1
    exec setsid "$NODE" server.js </dev/null >>"$LOG_FILE" 2>&1
  ) &
  local pid=$!
  echo "$pid" >"$PID_FILE"

  local url="http://127.0.0.1:$port" code="" deadline=$((SECONDS + TIMEOUT))
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "Strapi exited during startup; last lines of $LOG_FILE:"
      tail -n 40 "$LOG_FILE" >&2
      rm -f "$PID_FILE"
      exit 1
    fi
    if [ -s "$TOKEN_FILE" ]; then
      code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 \
        -H "Authorization: Bearer $(cat "$TOKEN_FILE")" "$url/api/categories" || true)"
      [ "$code" = 200 ] && break
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "Strapi did not answer 200 on $url/api/categories within ${TIMEOUT} s (last status: ${code:-none}); last lines of $LOG_FILE:"
      tail -n 40 "$LOG_FILE" >&2
      cmd_stop
      exit 1
    fi
    sleep 0.5
  done
  log "ready in $(( ($(date +%s%N) - t0) / 1000000 )) ms (pid $pid, log $LOG_FILE)"
  echo "STRAPI_URL=$url"
  echo "STRAPI_TOKEN_FILE=$TOKEN_FILE"
  echo "STRAPI_EDITOR_TOKEN_FILE=$RUN_DIR/editor-token.txt"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    echo "running (pid $pid)"
  else
    echo "not running"
    return 1
  fi
}

case "${1:-}" in
  start) shift; cmd_start "$@" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  install) install ;;
  *) echo "usage: $0 start [PORT] | stop | status | install" >&2; exit 2 ;;
esac
