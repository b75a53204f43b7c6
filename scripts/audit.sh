#!/usr/bin/env bash
# Lighthouse 12 (desktop preset) with Debian's Chromium on the home page, a news list and an
# article, against the make-run stack on spare ports. Reports go to frontend/reports/lighthouse/.
# Fails when a category of a page scores under 90.
set -euo pipefail
cd "$(dirname "$0")/.."
gateway=${AUDIT_GATEWAY_LISTEN:-127.0.0.1:18090}
cms=${AUDIT_CMS_LISTEN:-127.0.0.1:18091}
out=frontend/reports/lighthouse
mkdir -p "$out"

GATEWAY_LISTEN=$gateway CMS_LISTEN=$cms RUST_LOG=warn scripts/run-stack.sh >/dev/null &
stack=$!
trap 'kill -TERM $stack 2>/dev/null; wait $stack 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fsS "http://$gateway/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync"
status=0
for page in "home|/" "news-list|/news_center/company_announcement/1" "article|/article/2101"; do
  name=${page%%|*}
  route=${page#*|}
  npm exec --yes --package=lighthouse@12 -- lighthouse "http://$gateway/portal/#$route" \
    --preset=desktop --quiet --chrome-flags="$flags" \
    --output=json --output=html --output-path="$out/$name" >/dev/null 2>&1
  scores=$(node -e '
    const r = require(process.argv[1]);
    const s = Object.values(r.categories).map((c) => `${c.title}=${Math.round(c.score * 100)}`);
    console.log(s.join("  "));
    process.exit(Object.values(r.categories).every((c) => c.score >= 0.9) ? 0 : 1);
  ' "$PWD/$out/$name.report.json") || status=1
  printf '%-10s %s\n' "$name" "$scores"
done
echo "reports: $out/*.report.html"
exit $status
