#!/usr/bin/env bash
# `make test-strapi`: the gateway in front of a real third-party CMS. Strapi 5 (scripts/strapi.sh:
# installed from npm under target/strapi, cached by its lockfile; a fresh database seeded with the
# demo content on every start) on loopback, then the gateway's Strapi tests (config/examples/
# strapi.toml alone) and one browser pass over the app's rendered pages in front of it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Strapi's own webhook to the gateway a test starts on this address (scripts/strapi/src/seed creates it
# as an integrator would in Settings → Webhooks), with a secret made for this run.
export STRAPI_WEBHOOK_URL=http://127.0.0.1:18338/portal/admin/webhook
STRAPI_WEBHOOK_SECRET=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
export STRAPI_WEBHOOK_SECRET
out=$(scripts/strapi.sh start)
trap 'scripts/strapi.sh stop >/dev/null 2>&1 || true' EXIT
eval "$out"
export STRAPI_URL STRAPI_TOKEN_FILE STRAPI_EDITOR_TOKEN_FILE
echo "test-strapi: Strapi 5 at $STRAPI_URL"
cargo test --release --locked -p portal-gateway --test api strapi -- --ignored \
  --skip strapi_without_a_section_gives_a_portal_without_it
(cd frontend && node e2e/strapi.mjs)
# Last, as it deletes sections of this Strapi that the tests above read.
cargo test --release --locked -p portal-gateway --test api strapi_without_a_section_gives_a_portal_without_it \
  -- --ignored --exact strapi::strapi_without_a_section_gives_a_portal_without_it
