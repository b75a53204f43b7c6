#!/usr/bin/env bash
# One CMS call per key across replicas, on the release binaries as they ship: three gateways
# (the demo config, access logs on, the shipped 100 ms Redis time-out) sharing one redis-server
# in front of reference-cms (50 ms a call). Each round asks a key none of them holds, 100 times at
# once of every replica, and counts the CMS calls the three made for it (their
# portal_upstream_duration_seconds_count{endpoint="article/list"}). ROUNDS (default 10) keys.
# Fails unless every round made exactly one call. SHARED_TIMEOUT sets the replicas' Redis time-out
# (`make test` gives 1 s: a GET past 100 ms is a second call by design, and on two busy cores it
# happened). docs/operations.md, "Scaling out".
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-10}
bin=target/release
for b in portal-gateway reference-cms; do
  [[ -x $bin/$b ]] || { echo "missing $bin/$b: run make build" >&2; exit 1; }
done
scripts/ensure-system-deps.sh redis-server:redis-server curl:curl

work=$(mktemp -d)
pids=()
stop() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() {
  for _ in $(seq 1 200); do curl -fsS "$1" >/dev/null 2>&1 && return 0; sleep 0.05; done
  echo "$1 never answered" >&2; exit 1
}

redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no >"$work/redis.log" 2>&1 &
pids+=($!)
cms_port=$(free_port)
REFERENCE_CMS_LISTEN=127.0.0.1:$cms_port REFERENCE_CMS_DELAY_MS=50 "$bin/reference-cms" >"$work/cms.log" 2>&1 &
pids+=($!)
ports=()
for i in 1 2 3; do
  port=$(free_port)
  ports+=("$port")
  env PORTAL__SERVER__LISTEN=127.0.0.1:$port \
  PORTAL__SERVER__ACCESS_LOG=true \
  PORTAL__UPSTREAM__BASE_URL="http://127.0.0.1:$cms_port/" \
  PORTAL__CACHE__SHARED__URL="redis://127.0.0.1:$redis_port/" \
  PORTAL__SEARCH__MODE=cms ${SHARED_TIMEOUT:+PORTAL__CACHE__SHARED__TIMEOUT=$SHARED_TIMEOUT} \
  PORTAL__LIMITS__PER_CLIENT_PER_SECOND=100000 PORTAL__LIMITS__PER_CLIENT_BURST=100000 \
  PORTAL__LIMITS__PER_CLIENT_CMS_PER_SECOND=100000 PORTAL__LIMITS__PER_CLIENT_CMS_BURST=100000 \
    "$bin/portal-gateway" --config config/gateway.toml >"$work/gateway-$i.log" 2>&1 &
  pids+=($!)
done
for port in "${ports[@]}"; do
  wait_for "http://127.0.0.1:$port/readyz"
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/readyz" | grep -q '"sharedCache":"up"' && break
    sleep 0.05
  done
done

status=0
python3 - "$rounds" "${ports[@]}" <<'EOF' || status=$?
import http.client, re, sys, threading
rounds, ports = int(sys.argv[1]), [int(p) for p in sys.argv[2:]]

def calls():
    total = 0
    for port in ports:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("GET", "/metrics")
        text = c.getresponse().read().decode()
        for line in text.splitlines():
            if line.startswith("portal_upstream_duration_seconds_count") and 'endpoint="article/list"' in line:
                total += float(line.rsplit(" ", 1)[1])
    return int(total)

def gave_up():
    total = 0
    for port in ports:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("GET", "/metrics")
        for line in c.getresponse().read().decode().splitlines():
            if line.startswith("portal_shared_cache_lock_waits_total") and "gave_up" in line:
                total += float(line.rsplit(" ", 1)[1])
    return int(total)

keys = [(c, p, z) for z in (7, 8, 9, 6, 5) for c in (21, 22, 23, 24, 25) for p in (1, 2, 3)]
failed = 0
for n in range(rounds):
    category, page, size = keys[n % len(keys)]
    path = f"/portal/api/article/list?categoryId={category}&page={page}&size={size}"
    before = calls()
    statuses, go = [], threading.Event()
    def ask(port):
        go.wait()
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("GET", path, headers={"Accept-Encoding": "gzip, br"})
        r = c.getresponse(); r.read(); statuses.append(r.status)
    threads = [threading.Thread(target=ask, args=(port,)) for port in ports for _ in range(100)]
    for t in threads: t.start()
    go.set()
    for t in threads: t.join()
    made = calls() - before
    ok = made == 1 and all(s == 200 for s in statuses)
    failed += not ok
    print(f"round {n + 1}: {path}: {made} CMS call(s), {statuses.count(200)}/{len(statuses)} answered 200{'' if ok else '  <- FAILED'}")
print(f"replicas: {rounds - failed} of {rounds} rounds made one CMS call for 300 concurrent cold requests; gave up waiting: {gave_up()}")
sys.exit(1 if failed else 0)
EOF
if (( status != 0 )); then
  echo "what the replicas said of the shared tier:" >&2
  grep -h -i "shared cache\|gave up waiting" "$work"/gateway-*.log | cut -c1-300 | sort | uniq -c | sort -rn | head -20 >&2 || true
fi
exit "$status"
