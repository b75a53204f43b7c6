#!/usr/bin/env bash
# Load benchmark on loopback (not a test), scenes against nginx in front of the same CMS:
#  1. the cached /portal/api/category/list: logs off (gateway at warn, nginx access_log off; also
#     against a bare axum route returning the same bytes, the ceiling), plain and gzip; and logs on
#     in both (the gateway at its production defaults, nginx a JSON access_log with buffer=64k),
#     with the encodings a browser asks for;
#  2. the app's bundle (main.*.js) with Accept-Encoding: br, gzip, against nginx gzip_static on the
#     same frontend/dist, logs on;
#  3. a first visit to the home page: the seven requests Chromium makes (the rendered page, the
#     cover it preloads, the runtime, main.js, the stylesheet, the home chunk and the icon; the page
#     carries its data, so no API call), cycled by a wrk Lua script, logs on;
#     nginx answers the same rendered page as a file;
#  4. a rendered page (/portal/article/2101, a cache hit) against the API answer it shows, logs on,
#     browser encodings (the gateway alone);
#  5. the same cached page against nginx serving the same HTML bytes as a file (gzip_static, its .gz
#     made with gzip -9), logs on, browser encodings;
#  6. pages rendered on a cache miss: a third gateway, the production config with the pages' TTL set
#     to 0 (every request renders; the API answers the render reads are cached, as for a page whose
#     data is warm), asked for every page of its sitemap in turn (no two requests in flight share a
#     page, so none waits on another's render), BENCH_RENDER_CONNECTIONS connections: pages a second,
#     p50, p99, CPU per page, React renders and render-pool calls (the loader's rounds with the
#     render) per page, and the pages answered with the app shell instead
#     (a render that waited or ran too long), which must be none; then once more with 64
#     connections (a crawler walking every page cold, a deploy's misses): slower pages, no shell,
#     no error.
# Servers are pinned to core 0 (the render pool's threads with them), wrk to core 1. The runs are
# repeated in interleaved rounds (a shared machine drifts; a server measured always first or always
# last would carry the drift) and the median round is reported, with every round's figure beside
# it. Prints requests/s, p50, p99, server CPU per request, the ratios, and each server's peak RSS
# (VmHWM) against the memory limit of the Kubernetes manifests. See docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BENCH_DURATION:-5s}
ROUNDS=${BENCH_ROUNDS:-3}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
# Scene 6: a render takes tens of milliseconds of CPU, so a few connections keep the pool busy; more
# only queue (render.queue_wait bounds that wait), which the 64-connection run after the rounds shows.
RENDER_CONNECTIONS=${BENCH_RENDER_CONNECTIONS:-4}
RENDER_DURATION=${BENCH_RENDER_DURATION:-10s}
# The memory limit of deploy/kubernetes (MiB), as the manifest says it (`limits: { memory: 448Mi }`).
MEMORY_LIMIT_MIB=$(sed -n 's/.*limits: *{ *memory: *\([0-9]*\)Mi.*/\1/p' deploy/kubernetes/base/deployment.yaml | head -1)
[ -n "$MEMORY_LIMIT_MIB" ] || { echo "no memory limit in deploy/kubernetes/base/deployment.yaml" >&2; exit 1; }
CMS=127.0.0.1:18181
NGINX=127.0.0.1:18182
GATEWAY=127.0.0.1:18183
CEILING=127.0.0.1:18184
NGINX_LOG=127.0.0.1:18185
GATEWAY_LOG=127.0.0.1:18186
GATEWAY_RENDER=127.0.0.1:18187
BROWSER='Accept-Encoding: gzip, deflate, br, zstd'
DIST=$PWD/frontend/dist
PATH_=/portal/api/category/list
work=$(mktemp -d)

scripts/ensure-system-deps.sh nginx-light:nginx wrk:wrk
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
[ "$(nproc)" -ge 2 ] || { echo "needs 2 cores (server on one, wrk on the other)"; exit 1; }

cargo build --release --workspace --locked -q
if [ ! -f "$DIST/index.html" ] || [ ! -f "$DIST/server/render.js" ]; then
  echo "no built app (with its server bundle) in $DIST: run make build"; exit 1
fi

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

wait_for() { for _ in $(seq 1 100); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "no answer from $1"; exit 1; }

REFERENCE_CMS_LISTEN=$CMS RUST_LOG=warn taskset -c 1 target/release/reference-cms >/dev/null 2>&1 &
pids+=($!)
# Any HTTP answer will do (the CMS answers 401 without the credential).
for _ in $(seq 1 100); do curl -sS -o /dev/null "http://$CMS/" 2>/dev/null && break; sleep 0.1; done

basic=$(printf 'portal-web:demo-secret-change-me' | base64)
mkdir -p "$work/nginx-cache" "$work/nginx-temp" "$work/www" "$work/rendered"
# nginx serves the same build under the same path.
ln -s "$DIST" "$work/www/portal"
# nginx workers drop to an unprivileged user: let them write their cache and logs.
chmod 755 "$work" "$work/rendered"; chmod 777 "$work/nginx-cache" "$work/nginx-temp"
# The API as both nginx servers proxy and cache it.
cat > "$work/nginx-api.conf" <<CONF
location /portal/api/ {
  proxy_pass http://cms/;
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  proxy_set_header Authorization "Basic $basic";
  proxy_cache portal;
  proxy_cache_valid 200 10m;
  proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504;
  proxy_cache_lock on;
  add_header X-Cache \$upstream_cache_status;
}
CONF
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  proxy_temp_path $work/nginx-temp;
  client_body_temp_path $work/nginx-temp;
  proxy_cache_path $work/nginx-cache levels=1:2 keys_zone=portal:10m max_size=100m inactive=60m;
  upstream cms { server $CMS; keepalive 32; }
  # The fields of the gateway's access line.
  log_format portal escape=json '{"time":"\$time_iso8601","method":"\$request_method","path":"\$uri",'
    '"query":"\$args","status":\$status,"bytes":\$body_bytes_sent,"latency":\$request_time,'
    '"cache":"\$upstream_cache_status","client":"\$remote_addr","forwarded_for":"\$http_x_forwarded_for",'
    '"user_agent":"\$http_user_agent","request_id":"\$request_id"}';
  gzip on; gzip_types application/json; gzip_comp_level 6; gzip_min_length 256;
  # Scene 1, logs off.
  server {
    listen $NGINX;
    include $work/nginx-api.conf;
  }
  # Scenes 1 to 3 and 5, logs on: the API as above, the app's files precompressed, and the pages
  # the gateway rendered, saved as files with their .gz (a static site of the same bytes).
  server {
    listen $NGINX_LOG;
    access_log $work/nginx-access.log portal buffer=64k;
    include $work/nginx-api.conf;
    location = /portal/ { rewrite ^ /rendered/home.html last; }
    location = /portal/article/2101 { rewrite ^ /rendered/article.html last; }
    location /rendered/ {
      internal;
      root $work;
      gzip_static on;
    }
    location /portal/ {
      root $work/www;
      gzip_static on;
      try_files \$uri =404;
    }
  }
}
CONF
taskset -c 0 "$NGINX_BIN" -c "$work/nginx.conf" -p "$work" &
pids+=($!)
nginx_pid=$!

# The CMS ceiling is raised as the per-client one is, for every gateway: the bench's load is one
# client, and a background refresh or a cover over the default 50 calls a second would be answered
# 429, fast, and flatter the gateway.
limits=(PORTAL__LIMITS__PER_CLIENT_PER_SECOND=100000000 PORTAL__LIMITS__PER_CLIENT_BURST=100000000
  PORTAL__LIMITS__UPSTREAM_PER_SECOND=100000000 PORTAL__LIMITS__UPSTREAM_BURST=100000000
  PORTAL__LIMITS__PER_CLIENT_CMS_PER_SECOND=100000000 PORTAL__LIMITS__PER_CLIENT_CMS_BURST=100000000
  PORTAL__LIMITS__PER_CLIENT_RENDERS=100000 PORTAL__LIMITS__PER_CLIENT_FILES=100000
  PORTAL__LIMITS__PER_CLIENT_SEARCHES=100000)
env "${limits[@]}" PORTAL__SERVER__LISTEN=$GATEWAY PORTAL__UPSTREAM__BASE_URL="http://$CMS/" PORTAL__SERVER__LOG_LEVEL=warn \
  taskset -c 0 target/release/portal-gateway --config config/gateway.toml >/dev/null 2>&1 &
pids+=($!)
gateway_pid=$!
# Production defaults: access lines at info, to a file, as nginx's.
env "${limits[@]}" PORTAL__SERVER__LISTEN=$GATEWAY_LOG PORTAL__UPSTREAM__BASE_URL="http://$CMS/" PORTAL__SERVER__STATIC_DIR="$DIST" \
  taskset -c 0 target/release/portal-gateway --config config/gateway.toml >"$work/gateway-access.log" 2>&1 &
pids+=($!)
gateway_log_pid=$!
# Scene 6: the production config with one more TTL override, pages kept for 0 s (never stored), so
# every request renders.
sed 's#^overrides = \[#overrides = [\n  { pattern = "page/*", ttl = "0s" },#' config/gateway.toml >"$work/render.toml"
grep -q '{ pattern = "page/\*", ttl = "0s" }' "$work/render.toml" || { echo "could not set the pages' TTL to 0 in a copy of config/gateway.toml"; exit 1; }
env "${limits[@]}" PORTAL__SERVER__LISTEN=$GATEWAY_RENDER PORTAL__UPSTREAM__BASE_URL="http://$CMS/" PORTAL__SERVER__STATIC_DIR="$DIST" \
  taskset -c 0 target/release/portal-gateway --config "$work/render.toml" >"$work/gateway-render.log" 2>&1 &
pids+=($!)
gateway_render_pid=$!
wait_for "http://$GATEWAY$PATH_"
wait_for "http://$NGINX$PATH_"
wait_for "http://$GATEWAY_LOG$PATH_"
wait_for "http://$NGINX_LOG$PATH_"
wait_for "http://$GATEWAY_RENDER$PATH_"
# Each gateway builds its search index from the CMS after it starts (~15 s of CPU on the core all
# the servers share): measured before it is built, the first runs charged that to the gateways'
# requests (the CPU ratios of 2026-12-02). Steady state is what is measured.
index_ready() { # address
  for _ in $(seq 1 1200); do
    curl -fsS "http://$1/metrics" 2>/dev/null | grep -q '^portal_search_ready 1' && return 0
    sleep 0.1
  done
  echo "the search index of $1 was not built in 120 s"; exit 1
}
for address in "$GATEWAY" "$GATEWAY_LOG" "$GATEWAY_RENDER"; do index_ready "$address"; done

# Scenes 3 and 5: the rendered pages, as the gateway answers them (a cache hit the second time),
# saved for nginx with their gzip.
PAGE=/portal/article/2101
DETAIL='/portal/api/article/detail?id=2101'
curl -fsS "http://$GATEWAY_LOG/portal/" -o "$work/rendered/home.html"
curl -fsS "http://$GATEWAY_LOG$PAGE" -o "$work/rendered/article.html"
for page in home article; do
  grep -q 'id="portal-state"' "$work/rendered/$page.html" || { echo "the $page page was not rendered (the app shell came back)"; exit 1; }
  gzip -9 -k "$work/rendered/$page.html"
done
chmod 644 "$work"/rendered/*

# Scene 2's file, and scene 3's visit as Chromium 156 makes it (recorded 2026-11-26, 1366×768 and
# 412×823 alike): the rendered page, the cover it preloads, the runtime, main.js and the stylesheet,
# the home chunk (fetched with the app's scripts) and the icon (关怀版's panel is in the page's own
# markup since 2026-12-02, no chunk of its own). The page carries the answers it was rendered from,
# so the app asks for none.
asset() { # glob: the build's file of that name under /portal/assets/, not its map or encodings
  local file
  for file in "$DIST"/assets/$1; do
    case $file in *.map | *.br | *.gz | *.txt) continue ;; esac
    [ -f "$file" ] && { echo "/portal/assets/${file##*/}"; return; }
  done
  echo "no $1 in $DIST/assets: the build's names changed, update scene 3" >&2
  exit 1
}
bundle=$(asset 'main.*.js')
cover=$(grep -o '<link rel="preload" as="image" href="[^"]*"' "$work/rendered/home.html" | head -1 | sed 's/.*href="//; s/"$//')
[ -n "$cover" ] || { echo "the rendered home page preloads no cover: update scene 3"; exit 1; }
visit=(/portal/ "$cover")
for pattern in 'runtime.*.js' 'main.*.js' 'styles.*.css' 'page-home.*.chunk.js'; do visit+=("$(asset "$pattern")"); done
visit+=(/portal/favicon.svg)
visit_script() { # file path...: a wrk script that walks the paths in order
  local file=$1; shift
  {
    echo 'local paths = {'
    for p in "$@"; do echo "  \"$p\","; done
    echo '}'
    cat <<'LUA'
-- Each connection walks the visit in order, as one browser after another would.
local i = 0
local headers = { ["Accept-Encoding"] = "gzip, deflate, br, zstd", ["User-Agent"] = "Mozilla/5.0 (bench) Chrome/120" }
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], headers)
end
LUA
  } > "$file"
}
visit_script "$work/visit.lua" "${visit[@]}"

# Scene 6: every page of the sitemap (the home page, every content route, every article), asked for
# once each first: each must render (200 and the page's state, not the shell), and the API answers
# they read are then cached.
mapfile -t pages < <(curl -fsS "http://$GATEWAY_RENDER/portal/sitemap.xml" | grep -o '<loc>[^<]*</loc>' | sed 's#<loc>[a-z]*://[^/]*##; s#</loc>##')
[ "${#pages[@]}" -ge 50 ] || { echo "the sitemap lists ${#pages[@]} pages: too few for every request to be another page"; exit 1; }
for p in "${pages[@]}"; do
  curl -fsS -H "$BROWSER" --compressed "http://$GATEWAY_RENDER$p" | grep -q 'id="portal-state"' || { echo "$p was not rendered"; exit 1; }
done
# The global index walks the list across connections: requests in flight are for different pages.
visit_script "$work/render.lua" "${pages[@]}"

curl -fsS "http://$GATEWAY$PATH_" -o "$work/body.json"
curl -fsS -H 'Accept-Encoding: gzip' "http://$GATEWAY$PATH_" -o "$work/body.json.gz"
taskset -c 0 target/release/ceiling "$CEILING" "$work/body.json" "$work/body.json.gz" &
pids+=($!)
ceiling_pid=$!
wait_for "http://$CEILING$PATH_"

# Warm every cache, then measure.
for url in "http://$GATEWAY$PATH_" "http://$NGINX$PATH_" "http://$GATEWAY_LOG$PATH_" "http://$NGINX_LOG$PATH_"; do
  for _ in 1 2 3; do curl -fsS -o /dev/null "$url"; curl -fsS -o /dev/null -H 'Accept-Encoding: gzip' "$url"; done
done
for server in "$GATEWAY_LOG" "$NGINX_LOG"; do
  for p in "${visit[@]}" "$PAGE" "$DETAIL"; do
    for _ in 1 2; do curl -fsS -o /dev/null -H "$BROWSER" "http://$server$p"; done
  done
done
encoding() { curl -fsS -D - -o /dev/null -H "$BROWSER" "$1" | tr -d '\r' | awk -F': ' 'tolower($1)=="content-encoding"{print $2}'; }
size() { curl -fsS -o /dev/null -w '%{size_download}' "$@"; }
echo "bundle $bundle: gateway sends $(encoding "http://$GATEWAY_LOG$bundle"), nginx sends $(encoding "http://$NGINX_LOG$bundle")"
echo "page $PAGE: gateway sends $(encoding "http://$GATEWAY_LOG$PAGE") ($(size -H "$BROWSER" "http://$GATEWAY_LOG$PAGE") bytes, X-Cache:" \
     "$(curl -fsS -D - -o /dev/null -H "$BROWSER" "http://$GATEWAY_LOG$PAGE" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-cache"{print $2}'))," \
     "nginx sends $(encoding "http://$NGINX_LOG$PAGE") ($(size -H "$BROWSER" "http://$NGINX_LOG$PAGE") bytes); plain $(wc -c <"$work/rendered/article.html") bytes;" \
     "its API answer $(size -H "$BROWSER" "http://$GATEWAY_LOG$DETAIL") bytes ($(size "http://$GATEWAY_LOG$DETAIL") plain)"
echo "gateway X-Cache: $(curl -fsS -D - -o /dev/null "http://$GATEWAY$PATH_" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-cache"{print $2}')," \
     "nginx X-Cache: $(curl -fsS -D - -o /dev/null "http://$NGINX$PATH_" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-cache"{print $2}')"

to_ms() { awk -v v="$1" 'BEGIN { if (v ~ /us$/) { sub(/us$/, "", v); print v / 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v); print v } else if (v ~ /s$/) { sub(/s$/, "", v); print v * 1000 } else print v }'; }

declare -A RPS P50 P99 CPU REQUESTS RISE RISE_BY
TICK_US=$((1000000 / $(getconf CLK_TCK)))
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
peak_kib() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }
run() { # name url pid wrk-argument...: appends this round's figures (CONNECTIONS and DURATION may be set for one call)
  local name=$1 url=$2 pid=$3; shift 3
  local out before after requests peak_before rise
  before=$(cpu_ticks "$pid")
  peak_before=$(peak_kib "$pid")
  out=$(taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency "$@" "$url")
  after=$(cpu_ticks "$pid")
  # The run that raised the server's peak RSS most, to know which load sets it.
  rise=$(( $(peak_kib "$pid") - peak_before ))
  if [ "$rise" -gt "${RISE[$pid]:-0}" ]; then RISE[$pid]=$rise; RISE_BY[$pid]="$name, round $round"; fi
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  REQUESTS[$name]=$(( ${REQUESTS[$name]:-0} + requests ))
  RPS[$name]+="$(awk '/^Requests\/sec/ {print $2}' <<<"$out") "
  P50[$name]+="$(to_ms "$(awk '$1=="50%" {print $2}' <<<"$out")") "
  P99[$name]+="$(to_ms "$(awk '$1=="99%" {print $2}' <<<"$out")") "
  # Server CPU time (user + system) per answer: what the run cost the server, a second view of it.
  CPU[$name]+="$(awk -v t=$((after - before)) -v n="$requests" -v u="$TICK_US" 'BEGIN {printf "%.2f", t * u / n}') "
  if grep -q 'Non-2xx' <<<"$out"; then echo "warning: $name had non-2xx answers"; fi
}
median() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
rss() { awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
# Scene 6's gateway's counters: pages answered with the app shell, and renders.
metric() { curl -fsS "http://$GATEWAY_RENDER/metrics" | awk -v m="$1" 'index($0, m) == 1 {s += $NF} END {print s + 0}'; }
fallbacks_before=$(metric portal_page_fallbacks_total)
calls_before=$(metric portal_render_duration_seconds_count)
renders_before=$(metric portal_page_renders_total)

nginx_worker=$(pgrep -P "$nginx_pid" | head -1 || echo "$nginx_pid")
# name url pid header... for every run; a round runs them all, each round from a different place.
RUNS=(
  "gateway-plain|http://$GATEWAY$PATH_|$gateway_pid|"
  "nginx-plain|http://$NGINX$PATH_|$nginx_worker|"
  "ceiling-plain|http://$CEILING$PATH_|$ceiling_pid|"
  "gateway-gzip|http://$GATEWAY$PATH_|$gateway_pid|Accept-Encoding: gzip"
  "nginx-gzip|http://$NGINX$PATH_|$nginx_worker|Accept-Encoding: gzip"
  "ceiling-gzip|http://$CEILING$PATH_|$ceiling_pid|Accept-Encoding: gzip"
  "gateway-browser|http://$GATEWAY$PATH_|$gateway_pid|$BROWSER"
  "gateway-logs|http://$GATEWAY_LOG$PATH_|$gateway_log_pid|$BROWSER"
  "gateway-logs-plain|http://$GATEWAY_LOG$PATH_|$gateway_log_pid|"
  "nginx-logs|http://$NGINX_LOG$PATH_|$nginx_worker|$BROWSER"
  "nginx-logs-plain|http://$NGINX_LOG$PATH_|$nginx_worker|"
  "gateway-bundle|http://$GATEWAY_LOG$bundle|$gateway_log_pid|Accept-Encoding: br, gzip"
  "nginx-bundle|http://$NGINX_LOG$bundle|$nginx_worker|Accept-Encoding: br, gzip"
  "gateway-visit|http://$GATEWAY_LOG|$gateway_log_pid|script"
  "gateway-page|http://$GATEWAY_LOG$PAGE|$gateway_log_pid|$BROWSER"
  "gateway-detail|http://$GATEWAY_LOG$DETAIL|$gateway_log_pid|$BROWSER"
  "nginx-visit|http://$NGINX_LOG|$nginx_worker|script"
  "nginx-page|http://$NGINX_LOG$PAGE|$nginx_worker|$BROWSER"
  "gateway-render|http://$GATEWAY_RENDER|$gateway_render_pid|render-script"
)
for round in $(seq 1 "$ROUNDS"); do
  shift_by=$(( (round - 1) * 5 % ${#RUNS[@]} ))
  for spec in "${RUNS[@]:shift_by}" "${RUNS[@]:0:shift_by}"; do
    IFS='|' read -r name url pid header <<<"$spec"
    case $header in
      '') run "$name" "$url" "$pid" ;;
      script) run "$name" "$url" "$pid" -s "$work/visit.lua" ;;
      render-script)
        CONNECTIONS=$RENDER_CONNECTIONS DURATION=$RENDER_DURATION run "$name" "$url" "$pid" -s "$work/render.lua" ;;
      *) run "$name" "$url" "$pid" -H "$header" ;;
    esac
  done
done
fallbacks=$(( $(metric portal_page_fallbacks_total) - fallbacks_before ))
calls=$(( $(metric portal_render_duration_seconds_count) - calls_before ))
renders=$(( $(metric portal_page_renders_total) - renders_before ))
pages_answered=${REQUESTS[gateway-render]}
# Scene 6 with 64 connections, once after the rounds (its shells counted apart).
crowd_before=$(metric portal_page_fallbacks_total)
crowd_out=$(taskset -c 1 wrk -t1 -c64 -d"$RENDER_DURATION" --latency -s "$work/render.lua" "http://$GATEWAY_RENDER")
crowd_shells=$(( $(metric portal_page_fallbacks_total) - crowd_before ))

echo
echo "wrk: 1 thread, $CONNECTIONS connections, $DURATION a run ($RENDER_CONNECTIONS connections, $RENDER_DURATION for scene 6)," \
  "$ROUNDS interleaved rounds (median shown); servers on core 0, wrk on core 1"
echo "scene 1 body: $(wc -c <"$work/body.json") bytes plain, $(wc -c <"$work/body.json.gz") bytes gzip; scene 3: ${#visit[@]} requests a visit; scene 6: ${#pages[@]} pages in turn"
printf '%-18s %10s %8s %8s %12s   %s\n' run 'req/s' 'p50 ms' 'p99 ms' 'CPU µs/req' 'req/s by round'
declare -A MED MCPU
for spec in "${RUNS[@]}"; do
  k=${spec%%|*}
  MED[$k]=$(median "${RPS[$k]}")
  MCPU[$k]=$(median "${CPU[$k]}")
  printf '%-18s %10.0f %8.2f %8.2f %12.2f   %s\n' "$k" "${MED[$k]}" "$(median "${P50[$k]}")" "$(median "${P99[$k]}")" \
    "${MCPU[$k]}" "$(for v in ${RPS[$k]}; do awk -v v="$v" 'BEGIN { printf (v < 100 ? "%.1f " : "%.0f "), v }'; done)"
done
echo
awk -v r="${MED[gateway-render]}" -v p50="$(median "${P50[gateway-render]}")" -v p99="$(median "${P99[gateway-render]}")" \
  -v cpu="${MCPU[gateway-render]}" -v n="$pages_answered" -v rn="$renders" -v cn="$calls" -v f="$fallbacks" \
  'BEGIN { printf "scene 6, pages rendered on a miss: %.1f pages/s, p50 %.0f ms, p99 %.0f ms, %.1f ms of CPU a page, %.2f renders and %.2f render calls a page; %d pages answered, %d with the app shell\n", r, p50, p99, cpu / 1000, (n > 0 ? rn / n : 0), (n > 0 ? cn / n : 0), n, f }'
awk -v r="$(awk '/^Requests\/sec/ {print $2}' <<<"$crowd_out")" -v n="$(awk '/requests in/ {print $1}' <<<"$crowd_out")" \
  -v p50="$(to_ms "$(awk '$1=="50%" {print $2}' <<<"$crowd_out")")" -v p99="$(to_ms "$(awk '$1=="99%" {print $2}' <<<"$crowd_out")")" \
  -v f="$crowd_shells" -v e="$(awk '/Non-2xx|Socket errors/' <<<"$crowd_out" | tr -s ' ' | tr '\n' ' ')" \
  'BEGIN { printf "scene 6 with 64 connections: %.1f pages/s, p50 %.0f ms, p99 %.0f ms; %d pages answered, %d with the app shell; errors: %s\n", r, p50, p99, n, f, (e == "" ? "none" : e) }'
[ "$fallbacks" -eq 0 ] || echo "warning: scene 6 answered $fallbacks pages with the app shell (a render waited or ran past render.timeout): its figures are not all renders"
printf 'peak RSS MiB (VmHWM): gateway %s, gateway with logs and the app (scenes 1-5) %s, gateway rendering (scene 6) %s, nginx worker %s, ceiling %s\n' \
  "$(rss $gateway_pid)" "$(rss $gateway_log_pid)" "$(rss $gateway_render_pid)" "$(rss "$nginx_worker")" "$(rss $ceiling_pid)"
awk -v a="$(rss $gateway_log_pid)" -v b="$(rss $gateway_render_pid)" -v l="$MEMORY_LIMIT_MIB" \
  'BEGIN { printf "  against the %d MiB memory limit of deploy/kubernetes: %.0f %% (scenes 1-5), %.0f %% (scene 6)\n", l, 100 * a / l, 100 * b / l }'
for spec in "$gateway_pid|gateway" "$gateway_log_pid|gateway with logs and the app" "$gateway_render_pid|gateway rendering"; do
  pid=${spec%%|*}
  [ -n "${RISE_BY[$pid]:-}" ] && awk -v who="${spec#*|}" -v r="${RISE[$pid]}" -v by="${RISE_BY[$pid]}" \
    'BEGIN { printf "  the run that raised the peak most, %s: +%.1f MiB in %s\n", who, r / 1024, by }'
done
echo "access lines written: gateway $(wc -l <"$work/gateway-access.log"), nginx $(wc -l <"$work/nginx-access.log") (nginx's last 64k may be unflushed)"
echo "ratios by requests/s (and, in brackets, by server CPU time per request):"
ratio() { # label a b
  awk -v a="${MED[$2]}" -v b="${MED[$3]}" -v ac="${MCPU[$2]}" -v bc="${MCPU[$3]}" -v l="$1" \
    'BEGIN { printf "  %-58s %.2f (%.2f)\n", l, a / b, bc / ac }'
}
ratio "scene 1, plain: gateway/nginx" gateway-plain nginx-plain
ratio "scene 1, plain: gateway/ceiling" gateway-plain ceiling-plain
ratio "scene 1, gzip: gateway/nginx" gateway-gzip nginx-gzip
ratio "scene 1, gzip: gateway/ceiling" gateway-gzip ceiling-gzip
ratio "scene 1, logs on, browser: gateway/nginx" gateway-logs nginx-logs
ratio "scene 1, logs on, plain: gateway/nginx" gateway-logs-plain nginx-logs-plain
ratio "scene 1: gateway logs on / gateway logs off" gateway-logs gateway-browser
ratio "scene 2, bundle: gateway/nginx gzip_static" gateway-bundle nginx-bundle
ratio "scene 3, first visit: gateway/nginx" gateway-visit nginx-visit
awk -v g="${MED[gateway-visit]}" -v n="${MED[nginx-visit]}" -v r="${#visit[@]}" \
  'BEGIN { printf "  first visits a second: gateway %.0f, nginx %.0f\n", g / r, n / r }'
ratio "scene 4, logs on, browser: rendered page / its API answer" gateway-page gateway-detail
ratio "scene 5, logs on, browser: cached page, gateway/nginx" gateway-page nginx-page
ratio "scene 6: the cached page / the page rendered on a miss" gateway-page gateway-render
