#!/usr/bin/env bash
# Load benchmark on loopback (not a test): the gateway's cached /portal/api/category/list against
# nginx proxy_cache in front of the same upstream, and against a bare axum route returning the same
# bytes (the ceiling); each plain and with Accept-Encoding: gzip. Servers are pinned to core 0,
# wrk to core 1. The six runs are repeated in interleaved rounds (a shared machine drifts; a server
# measured always first or always last would carry the drift) and the median round is reported.
# Prints requests/s, p50, p99, peak RSS and the ratios. See docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BENCH_DURATION:-5s}
ROUNDS=${BENCH_ROUNDS:-3}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
CMS=127.0.0.1:18181
NGINX=127.0.0.1:18182
GATEWAY=127.0.0.1:18183
CEILING=127.0.0.1:18184
PATH_=/portal/api/category/list
work=$(mktemp -d)

scripts/ensure-system-deps.sh nginx-light:nginx wrk:wrk
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
[ "$(nproc)" -ge 2 ] || { echo "needs 2 cores (server on one, wrk on the other)"; exit 1; }

cargo build --release --locked -q -p portal-gateway -p reference-cms --bins --example ceiling

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

wait_for() { for _ in $(seq 1 100); do curl -fsS -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer from $1"; exit 1; }

REFERENCE_CMS_LISTEN=$CMS RUST_LOG=warn taskset -c 1 target/release/reference-cms >/dev/null 2>&1 &
pids+=($!)
# Any HTTP answer will do (the CMS answers 401 without the credential).
for _ in $(seq 1 100); do curl -sS -o /dev/null "http://$CMS/" 2>/dev/null && break; sleep 0.1; done

basic=$(printf 'portal-web:demo-secret-change-me' | base64)
mkdir -p "$work/nginx-cache" "$work/nginx-temp"
# nginx workers drop to an unprivileged user: let them write their cache.
chmod 755 "$work"; chmod 777 "$work/nginx-cache" "$work/nginx-temp"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  proxy_temp_path $work/nginx-temp;
  client_body_temp_path $work/nginx-temp;
  proxy_cache_path $work/nginx-cache levels=1:2 keys_zone=portal:10m max_size=100m inactive=60m;
  upstream cms { server $CMS; keepalive 32; }
  server {
    listen $NGINX;
    gzip on; gzip_types application/json; gzip_comp_level 6; gzip_min_length 256;
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
  }
}
CONF
taskset -c 0 "$NGINX_BIN" -c "$work/nginx.conf" -p "$work" &
pids+=($!)
nginx_pid=$!

PORTAL__SERVER__LISTEN=$GATEWAY PORTAL__UPSTREAM__BASE_URL="http://$CMS/" PORTAL__SERVER__LOG_LEVEL=warn \
PORTAL__LIMITS__PER_CLIENT_PER_SECOND=100000000 PORTAL__LIMITS__PER_CLIENT_BURST=100000000 \
  taskset -c 0 target/release/portal-gateway --config config/gateway.toml >/dev/null 2>&1 &
pids+=($!)
gateway_pid=$!
wait_for "http://$GATEWAY$PATH_"
wait_for "http://$NGINX$PATH_"

curl -fsS "http://$GATEWAY$PATH_" -o "$work/body.json"
curl -fsS -H 'Accept-Encoding: gzip' "http://$GATEWAY$PATH_" -o "$work/body.json.gz"
taskset -c 0 target/release/examples/ceiling "$CEILING" "$work/body.json" "$work/body.json.gz" &
pids+=($!)
ceiling_pid=$!
wait_for "http://$CEILING$PATH_"

# Warm every cache, then measure.
for url in "http://$GATEWAY$PATH_" "http://$NGINX$PATH_"; do
  for _ in 1 2 3; do curl -fsS -o /dev/null "$url"; curl -fsS -o /dev/null -H 'Accept-Encoding: gzip' "$url"; done
done
echo "gateway X-Cache: $(curl -fsS -D - -o /dev/null "http://$GATEWAY$PATH_" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-cache"{print $2}')," \
     "nginx X-Cache: $(curl -fsS -D - -o /dev/null "http://$NGINX$PATH_" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-cache"{print $2}')"

to_ms() { awk -v v="$1" 'BEGIN { if (v ~ /us$/) { sub(/us$/, "", v); print v / 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v); print v } else if (v ~ /s$/) { sub(/s$/, "", v); print v * 1000 } else print v }'; }

declare -A RPS P50 P99 CPU
TICK_US=$((1000000 / $(getconf CLK_TCK)))
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
run() { # name url pid header...: appends this round's figures
  local name=$1 url=$2 pid=$3; shift 3
  local out before after requests
  before=$(cpu_ticks "$pid")
  out=$(taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency "$@" "$url")
  after=$(cpu_ticks "$pid")
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  RPS[$name]+="$(awk '/^Requests\/sec/ {print $2}' <<<"$out") "
  P50[$name]+="$(to_ms "$(awk '$1=="50%" {print $2}' <<<"$out")") "
  P99[$name]+="$(to_ms "$(awk '$1=="99%" {print $2}' <<<"$out")") "
  # Server CPU time (user + system) per answer: what the run cost the server, a second view of it.
  CPU[$name]+="$(awk -v t=$((after - before)) -v n="$requests" -v u="$TICK_US" 'BEGIN {printf "%.2f", t * u / n}') "
  if grep -q 'Non-2xx' <<<"$out"; then echo "warning: $name had non-2xx answers"; fi
}
median() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
rss() { awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }

nginx_worker=$(pgrep -P "$nginx_pid" | head -1 || echo "$nginx_pid")
for round in $(seq 1 "$ROUNDS"); do
  for enc in plain gzip; do
    hdr=(); [ $enc = gzip ] && hdr=(-H 'Accept-Encoding: gzip')
    # Each round starts with a different server, so none is always measured first.
    servers=(gateway nginx ceiling)
    shift_by=$(( (round - 1) % 3 ))
    for s in "${servers[@]:shift_by}" "${servers[@]:0:shift_by}"; do
      case $s in
        gateway) run "gateway-$enc" "http://$GATEWAY$PATH_" "$gateway_pid" "${hdr[@]}" ;;
        nginx) run "nginx-$enc" "http://$NGINX$PATH_" "$nginx_worker" "${hdr[@]}" ;;
        ceiling) run "ceiling-$enc" "http://$CEILING$PATH_" "$ceiling_pid" "${hdr[@]}" ;;
      esac
    done
  done
done

echo
echo "wrk: 1 thread, $CONNECTIONS connections, $DURATION a run, $ROUNDS interleaved rounds (median shown); servers on core 0, wrk on core 1"
echo "body: $(wc -c <"$work/body.json") bytes plain, $(wc -c <"$work/body.json.gz") bytes gzip"
printf '%-16s %10s %8s %8s %12s   %s\n' run 'req/s' 'p50 ms' 'p99 ms' 'CPU µs/req' 'req/s by round'
declare -A MED MCPU
for enc in plain gzip; do
  for s in gateway nginx ceiling; do
    k=$s-$enc
    MED[$k]=$(median "${RPS[$k]}")
    MCPU[$k]=$(median "${CPU[$k]}")
    printf '%-16s %10.0f %8.2f %8.2f %12.2f   %s\n' "$k" "${MED[$k]}" "$(median "${P50[$k]}")" "$(median "${P99[$k]}")" \
      "${MCPU[$k]}" "$(for v in ${RPS[$k]}; do printf '%.0f ' "$v"; done)"
  done
done
echo
printf 'peak RSS MB: gateway %s, nginx worker %s, ceiling %s\n' "$(rss $gateway_pid)" "$(rss "$nginx_worker")" "$(rss $ceiling_pid)"
echo "ratios by requests/s (and, in brackets, by server CPU time per request):"
for enc in plain gzip; do
  awk -v g="${MED[gateway-$enc]}" -v n="${MED[nginx-$enc]}" -v c="${MED[ceiling-$enc]}" \
      -v gc="${MCPU[gateway-$enc]}" -v nc="${MCPU[nginx-$enc]}" -v cc="${MCPU[ceiling-$enc]}" -v e="$enc" \
    'BEGIN { printf "%-6s gateway/nginx = %.2f (%.2f)   gateway/ceiling = %.2f (%.2f)\n", e, g / n, nc / gc, g / c, cc / gc }'
done
