#!/usr/bin/env bash
# What the shared tier costs and buys (docs/performance.md, "The shared tier"): the latency of an
# article detail answered from a replica's memory, from Redis (a replica that never saw the key, its
# memory cold: what a new replica or one behind a purge pays), and from the CMS (reference-cms on
# loopback, no delay: the floor of any real CMS), each over the same 110 keys, one request at a time
# with curl; medians and 90th percentiles in ms. Production log settings (access lines on).
set -euo pipefail
cd "$(dirname "$0")/.."
CMS=127.0.0.1:18201; A=127.0.0.1:18202; B=127.0.0.1:18203; REDIS_PORT=18204; ALONE=127.0.0.1:18205
scripts/ensure-system-deps.sh redis-server:redis-server
cargo build --release --workspace --locked -q
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
wait_for() { for _ in $(seq 1 300); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "no answer from $1"; exit 1; }

redis-server --port $REDIS_PORT --bind 127.0.0.1 --save "" --appendonly no >/dev/null &
pids+=($!)
REFERENCE_CMS_LISTEN=$CMS RUST_LOG=warn target/release/reference-cms >/dev/null 2>&1 &
pids+=($!)
# gateway ADDRESS [REDIS_URL]
gateway() {
  env PORTAL__SERVER__LISTEN="$1" PORTAL__UPSTREAM__BASE_URL="http://$CMS/" PORTAL__SERVER__LOG_FORMAT=json \
    ${2:+PORTAL__CACHE__SHARED__URL=$2} \
    PORTAL__LIMITS__UPSTREAM_PER_SECOND=100000 PORTAL__LIMITS__UPSTREAM_BURST=100000 \
    PORTAL__LIMITS__PER_CLIENT_PER_SECOND=100000 PORTAL__LIMITS__PER_CLIENT_BURST=100000 \
    PORTAL__LIMITS__PER_CLIENT_CMS_PER_SECOND=100000 PORTAL__LIMITS__PER_CLIENT_CMS_BURST=100000 \
    target/release/portal-gateway --config config/gateway.toml >"$work/$1.log" 2>&1 &
  pids+=($!)
  wait_for "http://$1/readyz"
  [ -n "${2:-}" ] || return 0
  for _ in $(seq 1 50); do curl -fs "http://$1/readyz" | grep -q '"sharedCache":"up"' && return 0; sleep 0.1; done
  echo "the shared tier did not come up on $1"; exit 1
}
gateway $A "redis://127.0.0.1:$REDIS_PORT/"; gateway $B "redis://127.0.0.1:$REDIS_PORT/"; gateway $ALONE
ids=$(curl -fs "http://$A/portal/api/article/list?page=1&size=50" | python3 -c '
import json,sys; print(" ".join(str(a["id"]) for a in json.load(sys.stdin)["result"]["content"]))')
# 60 list pages (six page sizes, ten pages each) and 50 article details: 110 distinct keys.
keys=()
for size in 5 6 7 8 9 10; do
  for page in $(seq 1 10); do keys+=("/portal/api/article/list?page=$page&size=$size"); done
done
for id in $ids; do keys+=("/portal/api/article/detail?id=$id"); done
time_all() { for k in "${keys[@]}"; do curl -s -o /dev/null -H 'accept-encoding: gzip, deflate, br' -w '%{time_total}\n' "http://$1$k"; done; }
stats() { sort -n | python3 -c '
import sys; v=[float(x)*1000 for x in sys.stdin]; v.sort()
print(f"median {v[len(v)//2]:.2f} ms, p90 {v[int(len(v)*0.9)]:.2f} ms ({len(v)} keys)")'; }
echo "from the CMS, no shared tier:      $(time_all $ALONE | stats)"
echo "from the CMS (A, cold everywhere): $(time_all $A | stats)"
echo "from Redis    (B, memory cold):    $(time_all $B | stats)"
echo "from memory   (B again):           $(time_all $B | stats)"
echo "Redis memory: $(redis-cli -p $REDIS_PORT info memory | grep '^used_memory_human' | cut -d: -f2 | tr -d '\r'), keys: $(redis-cli -p $REDIS_PORT dbsize)"
