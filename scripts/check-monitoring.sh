#!/usr/bin/env bash
# `make test-monitoring`: the monitoring kit (deploy/monitoring, deploy/kubernetes/components/monitoring)
# checked offline:
#   1. promtool (Debian's `prometheus` package, installed when missing) checks rules.yml and runs the
#      unit tests of rules.test.yml;
#   2. the gateway (release build) runs against reference-cms and a Redis on loopback, beside a second
#      replica sharing the Redis, is made to produce every series it can (an API miss and hit, a 404,
#      a rendered page, an admin purge the second replica applies and times, visitors over their
#      limit, a refused client credential, the shared tier failing), and the replicas' /metrics is
#      compared with every metric, label and value the rules and the dashboard name
#      (scripts/check_monitoring.py);
#   3. the component's PrometheusRule must be rules.yml as `check_monitoring.py sync` writes it.
# Ports: MONITORING_PORT_BASE (default 18390): gateway +0, reference-cms +1, Redis +2, the second
# replica +3.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-deps.sh prometheus:promtool redis-server:redis-server python3-yaml
target=${CARGO_TARGET_DIR:-target}
out=target/monitoring
base=${MONITORING_PORT_BASE:-18390}
gateway=127.0.0.1:$base cms=127.0.0.1:$((base + 1)) redis_port=$((base + 2)) second=127.0.0.1:$((base + 3))
token=monitoring-check-token-0123456789

promtool check rules deploy/monitoring/rules.yml
(cd deploy/monitoring && promtool test rules rules.test.yml)

cargo build --release --workspace --locked -q --bin portal-gateway --bin reference-cms
rm -rf "$out" && mkdir -p "$out"
pids=()
stop() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop EXIT

redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --logfile "$PWD/$out/redis.log" &
redis_pid=$!
pids+=($redis_pid)
REFERENCE_CMS_LISTEN=$cms "$target/release/reference-cms" > "$out/reference-cms.log" 2>&1 &
pids+=($!)
# The config file as shipped, with a secret this script changes later (a refused credential); the rest
# through the environment: loopback ports, the Redis, a per-visitor burst of 20, and a one-page app
# (the metrics do not need the real build; /readyz wants an index.html). Search is the CMS's: the
# demo's index would read every article at start, and the steps below want keys not yet cached.
cp config/gateway.toml "$out/gateway.toml"
mkdir -p "$out/static" && echo '<!doctype html><title>portal</title>' > "$out/static/index.html"
PORTAL__SERVER__LISTEN=$gateway PORTAL__UPSTREAM__BASE_URL="http://$cms/" \
  PORTAL__CACHE__SHARED__URL="redis://127.0.0.1:$redis_port/0" PORTAL__ADMIN__TOKEN=$token \
  PORTAL__LIMITS__PER_CLIENT_PER_SECOND=1 PORTAL__LIMITS__PER_CLIENT_BURST=20 \
  PORTAL__LIMITS__PER_CLIENT_CMS_PER_SECOND=100000 PORTAL__LIMITS__PER_CLIENT_CMS_BURST=100000 \
  PORTAL__SERVER__STATIC_DIR="$out/static" PORTAL__SERVER__LOG_LEVEL=warn PORTAL__SEARCH__MODE=cms \
  "$target/release/portal-gateway" --config "$out/gateway.toml" > "$out/gateway.log" 2>&1 &
pids+=($!)
# The second replica (pids[3]): the same Redis, so it applies the first one's purges.
PORTAL__SERVER__LISTEN=$second PORTAL__UPSTREAM__BASE_URL="http://$cms/" \
  PORTAL__CACHE__SHARED__URL="redis://127.0.0.1:$redis_port/0" \
  PORTAL__SERVER__STATIC_DIR="$out/static" PORTAL__SERVER__LOG_LEVEL=warn PORTAL__SEARCH__MODE=cms \
  "$target/release/portal-gateway" --config config/gateway.toml > "$out/second.log" 2>&1 &
pids+=($!)

get() { curl -s -o /dev/null -w '%{http_code}' "http://$gateway$1"; }
shared_up() {
  curl -fsS "http://$gateway/readyz" 2>/dev/null | grep -q '"sharedCache":"up"' &&
    curl -fsS "http://$second/readyz" 2>/dev/null | grep -q '"sharedCache":"up"'
}
for _ in $(seq 1 100); do shared_up && break; sleep 0.1; done
shared_up ||
  { echo "check-monitoring: the gateway did not start with its shared tier (see $out/gateway.log)" >&2; exit 1; }

# API miss then hit, a 404, a rendered page, the sitemap, a static file not found, /metrics.
codes=$(for path in /portal/ /portal/api/category/list /portal/api/category/list \
  '/portal/api/article/list?categoryId=21' '/portal/api/article/detail?id=999999' \
  /portal/news_center/notice /portal/sitemap.xml /portal/no-such-file.js /metrics; do get "$path"; echo -n ' '; done)
echo "check-monitoring: requests answered $codes"
# An operator's purge on the first replica, applied by the second through the purge channel (its
# purge lag), seen with the CLI.
curl -fsS -o /dev/null -X POST -H "Authorization: Bearer $token" "http://$gateway/portal/admin/cache/purge?tag=categories"
PORTAL__ADMIN__TOKEN=$token "$target/release/portal-gateway" --config "$out/gateway.toml" cache stats \
  --url "http://$gateway" > "$out/cache-stats.txt"
for _ in $(seq 1 50); do
  curl -fsS "http://$second/metrics" | grep -q '^portal_cache_purge_lag_seconds_count' && break
  sleep 0.1
done
# The shared tier failing: Redis pauses its clients, a key not cached is looked up (past the 20-ms
# time-out: an error, the tier off until the probe finds Redis again).
redis-cli -p "$redis_port" CLIENT PAUSE 1000 ALL > /dev/null
get '/portal/api/article/detail?id=2103' > /dev/null
# A refused client credential: the file's secret changed, reloaded (SIGHUP), a key not yet cached.
sed -i 's/^client_secret = .*/client_secret = "not-the-cms-secret-0123456789"/' "$out/gateway.toml"
kill -HUP "${pids[2]}"
sleep 1.2
refused=$(get '/portal/api/article/detail?id=2102')
# Visitors over their limit (a burst of 20, then 1 a second): 429.
for _ in $(seq 1 25); do get /portal/api/site > /dev/null; done
curl -fsS "http://$gateway/metrics" > "$out/metrics.txt"
curl -fsS "http://$second/metrics" >> "$out/metrics.txt"
echo "check-monitoring: refused credential answered $refused; $(grep -c '^portal_' "$out/metrics.txt") portal_ series scraped into $out/metrics.txt"
python3 scripts/check_monitoring.py check "$out/metrics.txt"
