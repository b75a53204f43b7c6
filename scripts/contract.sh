#!/usr/bin/env bash
# The API contract: schemathesis (pinned, in a venv under target/) runs every check it has, response
# schema conformance included, against the gateway in front of reference-cms, generated from the
# OpenAPI document the gateway serves; then the RSS feeds, read with feedparser (scripts/check_feeds.py).
# Part of `make test`. Ports: CONTRACT_GATEWAY, CONTRACT_CMS.
set -euo pipefail
cd "$(dirname "$0")/.."
SCHEMATHESIS=4.32.5
FEEDPARSER=6.0.14
gateway=${CONTRACT_GATEWAY:-127.0.0.1:18381}
cms=${CONTRACT_CMS:-127.0.0.1:18382}
venv=target/py-venv

scripts/ensure-system-deps.sh python3-venv
if [ "$("$venv/bin/st" --version 2>/dev/null | awk '{print $3}')" != "$SCHEMATHESIS" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS"
fi
if ! "$venv/bin/pip" show feedparser 2>/dev/null | grep -qx "Version: $FEEDPARSER"; then
  "$venv/bin/pip" install -q --disable-pip-version-check "feedparser==$FEEDPARSER"
fi

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
REFERENCE_CMS_LISTEN=$cms RUST_LOG=warn target/release/reference-cms >/dev/null 2>&1 &
pids+=($!)
# Limits wide open: the generator asks quickly from one address; the limits have their own tests.
PORTAL__SERVER__LISTEN=$gateway PORTAL__UPSTREAM__BASE_URL="http://$cms/" PORTAL__SERVER__LOG_LEVEL=warn \
PORTAL__LIMITS__PER_CLIENT_PER_SECOND=1000000 PORTAL__LIMITS__PER_CLIENT_BURST=1000000 \
PORTAL__LIMITS__UPSTREAM_PER_SECOND=1000000 PORTAL__LIMITS__UPSTREAM_BURST=1000000 \
PORTAL__LIMITS__PER_CLIENT_CMS_PER_SECOND=1000000 PORTAL__LIMITS__PER_CLIENT_CMS_BURST=1000000 \
PORTAL__LIMITS__PER_CLIENT_RENDERS=1000000 PORTAL__LIMITS__PER_CLIENT_FILES=1000000 \
PORTAL__LIMITS__PER_CLIENT_SEARCHES=1000000 \
  target/release/portal-gateway --config config/gateway.toml >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 1 150); do
  curl -fsS -o /dev/null "http://$gateway/readyz" 2>/dev/null && break
  sleep 0.2
done

"$venv/bin/st" --config-file scripts/schemathesis.toml run "http://$gateway/portal/api/openapi.json" \
  --checks all --max-examples "${CONTRACT_EXAMPLES:-60}" --seed "${CONTRACT_SEED:-20261122}" --no-color
"$venv/bin/python" scripts/check_feeds.py "http://$gateway"
