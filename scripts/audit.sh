#!/usr/bin/env bash
# Lighthouse (pinned in scripts/lighthouse/package.json) with Debian's Chromium on the home page, a
# news list, an article and a crawlable article, in both presets: desktop, and Lighthouse's default mobile one (a mid-range
# phone: simulated slow 4G and a 4× slower CPU). Against the make-run stack on spare ports; reports go
# to frontend/reports/lighthouse/{desktop,mobile}/. Fails when a category of a page scores under 90 in
# either preset; prints each page's scores and, for mobile, its LCP.
set -euo pipefail
cd "$(dirname "$0")/.."
gateway=${AUDIT_GATEWAY_LISTEN:-127.0.0.1:18090}
cms=${AUDIT_CMS_LISTEN:-127.0.0.1:18091}
out=frontend/reports/lighthouse
tool=scripts/lighthouse
mkdir -p "$out/desktop" "$out/mobile"

# Exactly as locked, apart from the app's packages (make test never installs it).
if [ ! -x "$tool/node_modules/.bin/lighthouse" ] || [ "$tool/package-lock.json" -nt "$tool/node_modules/.package-lock.json" ]; then
  (cd "$tool" && npm ci --no-audit --no-fund >/dev/null)
fi

GATEWAY_LISTEN=$gateway CMS_LISTEN=$cms RUST_LOG=warn scripts/run-stack.sh >/dev/null &
stack=$!
trap 'kill -TERM $stack 2>/dev/null; wait $stack 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fsS "http://$gateway/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync"
status=0
for preset in desktop mobile; do
  echo "$preset:"
  preset_flag=(); [ "$preset" = desktop ] && preset_flag=(--preset=desktop)
  # The home page, a news list and an article at their real URLs (rendered by the gateway), and
  # the article opened by its spec hash route (index.html's head script sends it to its URL).
  for page in "home|/portal/" "news-list|/portal/news_center/company_announcement/1" "article|/portal/article/2101" "article-hash-route|/portal/#/article/2101"; do
    name=${page%%|*}
    url=${page#*|}
    # Lighthouse now and then fails to record its own trace (NO_NAVSTART): one more try before failing.
    for attempt in 1 2; do
      if "$tool/node_modules/.bin/lighthouse" "http://$gateway$url" \
        "${preset_flag[@]}" --quiet --chrome-flags="$flags" \
        --output=json --output=html --output-path="$out/$preset/$name" >/dev/null 2>&1; then
        break
      fi
      [ "$attempt" = 2 ] && { echo "  $name: lighthouse failed twice" >&2; status=1; }
    done
    scores=$(node -e '
      const r = require(process.argv[1]);
      const s = Object.values(r.categories).map((c) => `${c.title}=${Math.round(c.score * 100)}`);
      const a = r.audits;
      const lcp = a["largest-contentful-paint"].numericValue / 1000;
      const tbt = Math.round(a["total-blocking-time"].numericValue);
      const cls = a["cumulative-layout-shift"].numericValue;
      console.log(s.join("  ") + `  LCP=${lcp.toFixed(2)}s  TBT=${tbt}ms  CLS=${cls.toFixed(3)}`);
      process.exit(Object.values(r.categories).every((c) => c.score >= 0.9) ? 0 : 1);
    ' "$PWD/$out/$preset/$name.report.json") || status=1
    printf '  %-10s %s\n' "$name" "$scores"
  done
done
echo "reports: $out/{desktop,mobile}/*.report.html"
exit $status
