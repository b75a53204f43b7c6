#!/usr/bin/env bash
# Instructions per cached hit, gateway and ceiling, counted by valgrind's callgrind: a figure that
# does not move with the machine's neighbours, for judging small changes to the hit path (the
# req/s of `make bench` swings by several percent between runs). Not a test. See docs/performance.md.
# Leaves the profiles in target/callgrind/ for callgrind_annotate. GATEWAY_BIN=<path> counts another
# build of the gateway instead (one with line tables, to see what is inlined where), unbuilt here.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BENCH_DURATION:-4s}
CMS=127.0.0.1:18191
GATEWAY=127.0.0.1:18193
CEILING=127.0.0.1:18194
PATH_=${BENCH_PATH:-/portal/api/category/list}
# The render pool: each thread evaluates the app's server bundle when the gateway starts, which under
# valgrind (one thread at a time, tens of times slower) goes on for many seconds; counted inside the
# measured window it made a cached hit look 35–130k instructions instead of 25k. So the count starts
# once every engine says it is ready (a debug line of the render module). A page
# (BENCH_PATH=/portal/article/2101) is rendered once and then answered from the cache: its render
# timeout is raised to 10 s, since at 1 s the render would fail there, the shell is never cached and
# every request would render again.
RENDER_THREADS=$(awk -F' *= *' '/^\[/ {r = ($0 == "[render]")} r && $1 == "threads" {print $2; exit}' config/gateway.toml)
# BENCH_TRACES=<ratio> (0.01, 1.0): traces on at that sample ratio, exported to a loopback OTLP
# receiver (a few lines of Python answering 200 to every POST /v1/traces). Unset: traces off.
TRACES=${BENCH_TRACES:-}
RECEIVER=127.0.0.1:18195
out=target/callgrind
mkdir -p "$out"
work=$(mktemp -d)

scripts/ensure-system-deps.sh valgrind:valgrind wrk:wrk
[ -n "${GATEWAY_BIN:-}" ] || cargo build --release --workspace --locked -q

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
wait_for() { for _ in $(seq 1 300); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.2; done; echo "no answer from $1"; exit 1; }

REFERENCE_CMS_LISTEN=$CMS RUST_LOG=warn target/release/reference-cms >/dev/null 2>&1 &
pids+=($!)
traces=()
if [ -n "$TRACES" ]; then
  python3 - "${RECEIVER#*:}" >/dev/null 2>&1 <<'PY' &
import http.server, sys
class Otlp(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *args): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Otlp).serve_forever()
PY
  pids+=($!)
  traces=(PORTAL__TELEMETRY__OTLP_ENDPOINT="http://$RECEIVER" PORTAL__TELEMETRY__SAMPLE_RATIO="$TRACES")
  echo "traces on: sample ratio $TRACES, exported to a loopback OTLP receiver ($RECEIVER)"
fi
env "${traces[@]}" PORTAL__SERVER__LISTEN=$GATEWAY PORTAL__UPSTREAM__BASE_URL="http://$CMS/" \
PORTAL__SERVER__LOG_LEVEL=warn,portal_render=debug,portal_gateway::render=debug PORTAL__RENDER__TIMEOUT=10s \
PORTAL__LIMITS__PER_CLIENT_PER_SECOND=100000000 PORTAL__LIMITS__PER_CLIENT_BURST=100000000 \
  valgrind -q --tool=callgrind --callgrind-out-file="$out/gateway.%p" \
  ${GATEWAY_BIN:-target/release/portal-gateway} --config config/gateway.toml >"$work/gateway.log" 2>&1 &
pids+=($!)
gateway_pid=$!
for _ in $(seq 1 600); do
  [ "$(grep -c 'render engine ready' "$work/gateway.log" || true)" -ge "$RENDER_THREADS" ] && break
  sleep 0.2
done
[ "$(grep -c 'render engine ready' "$work/gateway.log" || true)" -ge "$RENDER_THREADS" ] ||
  { echo "the render engines were not ready after 2 minutes"; tail -5 "$work/gateway.log"; exit 1; }
wait_for "http://$GATEWAY$PATH_"
# The demo's built-in search index (`[search] mode = "index"`) reads and indexes every article when
# the gateway starts; under valgrind that goes on for minutes, and counted inside the window it made
# a cached hit look ~1.2 M instructions. The count starts once /readyz says the index is built.
for _ in $(seq 1 3000); do
  curl -fsS "http://$GATEWAY/readyz" 2>/dev/null | grep -Eq '"state":"(ready|off)"' && break
  sleep 0.2
done
curl -fsS "http://$GATEWAY/readyz" | grep -Eq '"state":"(ready|off)"' ||
  { echo "the search index was not built after 10 minutes"; exit 1; }
curl -fsS "http://$GATEWAY$PATH_" -o "$work/body.json"
curl -fsS -H 'Accept-Encoding: gzip' "http://$GATEWAY$PATH_" -o "$work/body.json.gz"
valgrind -q --tool=callgrind --callgrind-out-file="$out/ceiling.%p" \
  target/release/ceiling "$CEILING" "$work/body.json" "$work/body.json.gz" "$PATH_" >/dev/null 2>&1 &
pids+=($!)
ceiling_pid=$!
wait_for "http://$CEILING$PATH_"

measure() { # name pid url
  local name=$1 pid=$2 url=$3 requests
  wrk -t1 -c16 -d2s "$url" >/dev/null            # warm up under the instrumentation
  callgrind_control -z "$pid" >/dev/null 2>&1
  requests=$(wrk -t1 -c16 -d"$DURATION" "$url" | awk '/requests in/ {print $1}')
  rm -f "$out/$name.$pid".*
  callgrind_control -d "$pid" >/dev/null 2>&1
  sleep 1
  awk -v n="$requests" -v name="$name" '/^summary:/ {s += $2} END {printf "%-8s %8d requests  %7.0f instructions per request\n", name, n, s / n}' "$out/$name.$pid".*
}
measure gateway "$gateway_pid" "http://$GATEWAY$PATH_"
measure ceiling "$ceiling_pid" "http://$CEILING$PATH_"
echo "profiles: $out/{gateway,ceiling}.<pid>.1 (callgrind_annotate --inclusive=yes FILE)"
