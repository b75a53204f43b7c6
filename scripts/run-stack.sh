#!/usr/bin/env bash
# Starts reference-cms and the gateway, prints the URL, stops both on Ctrl-C. BIN_DIR: where their
# binaries are (target/release, the default; `make run` serves target/quick).
# Ports: CMS_LISTEN (default 127.0.0.1:8081) and GATEWAY_LISTEN (default 127.0.0.1:8080).
# CMS_DIALECT (native, mybatis or rest) picks how reference-cms speaks; GATEWAY_CONFIG the
# gateway's config (config/examples/<dialect>.toml for the others).
set -euo pipefail
cd "$(dirname "$0")/.."
cms_listen=${CMS_LISTEN:-127.0.0.1:8081}
gateway_listen=${GATEWAY_LISTEN:-127.0.0.1:8080}
bin=${BIN_DIR:-target/release}

pids=()
stop() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT TERM

REFERENCE_CMS_LISTEN=$cms_listen REFERENCE_CMS_DIALECT=${CMS_DIALECT:-native} "$bin/reference-cms" &
pids+=($!)
PORTAL__SERVER__LISTEN=$gateway_listen PORTAL__UPSTREAM__BASE_URL="http://$cms_listen/" \
  "$bin/portal-gateway" --config "${GATEWAY_CONFIG:-config/gateway.toml}" &
pids+=($!)

for _ in $(seq 1 100); do
  if curl -fsS "http://$gateway_listen/readyz" >/dev/null 2>&1; then
    echo
    echo "  门户已启动 / portal ready:  http://$gateway_listen/portal/"
    echo "  API:                        http://$gateway_listen/portal/api/"
    echo "  reference-cms:              http://$cms_listen/  (Ctrl-C stops both)"
    echo
    break
  fi
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null || { echo "a server exited during start-up" >&2; exit 1; }
  done
  sleep 0.1
done
# Exit when either server does; Ctrl-C exits, and the EXIT trap stops both.
wait -n "${pids[@]}"
