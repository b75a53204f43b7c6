// Shared helpers of the end-to-end cases.

import { readFileSync } from 'node:fs';

import { chromium } from 'playwright-core';

// The app's route table (src/app/route-table.json), the one place the routes are written.
const table = JSON.parse(readFileSync(new URL('../src/app/route-table.json', import.meta.url), 'utf8'));

/** The table's routes with a page, parents before children, as the app's flattenRoutes walks them. */
function flatten(routes, out = []) {
  for (const route of routes) {
    if (route.path && route.page) out.push(route);
    if (route.routes) flatten(route.routes, out);
  }
  return out;
}

/**
 * The routes every case visits: the home page, each route that shows CMS content (its page kind is
 * one of the table's contentPages, the gateway's rule too), and the party-style detail opened on a
 * demo article (it needs an id). Not the footer's sitemap and contact: the cases that want them add
 * them; not a `sameAs` route, which redirects (`SAME_AS_ROUTES`).
 */
export const SPEC_ROUTES = flatten(table.routes).flatMap((route) => {
  // A duplicate the spec keeps redirects to its page, which is on the list itself.
  if (route.sameAs) return [];
  if (route.page === 'home') return [route.path];
  if (route.page === 'partyDetail') return [`${route.path}?id=901`];
  return table.contentPages.includes(route.page) ? [route.path] : [];
});

/** The spec's duplicate routes and the route each redirects to. */
export const SAME_AS_ROUTES = flatten(table.routes)
  .filter((route) => route.sameAs)
  .map((route) => [route.path, route.sameAs]);

export async function api(base, path) {
  // A test asking many answers at once can meet the per-client limit (429): it waits as told.
  for (let attempt = 0; ; attempt += 1) {
    const r = await fetch(`${base}/portal/api${path}`);
    if (r.status !== 429 || attempt >= 20) return (await r.json()).result;
    const wait = Number(r.headers.get('retry-after')) || 1;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 5) * 1000));
  }
}

/**
 * `visit(p, route)` for every route, on `lanes` pages of `page`'s context at once (same storage, same
 * viewport); the results in route order. A sweep of every route is mostly waiting (a load, the
 * network at rest for 500 ms) and the browser's own work, which a second page overlaps: the axe
 * sweeps, the longest cases, went from 79 to 47 s each on 2 cores.
 */
export async function sweep(page, routes, visit, lanes = 2) {
  const viewport = page.viewportSize();
  const extra = await Promise.all(
    Array.from({ length: lanes - 1 }, async () => {
      const p = await page.context().newPage();
      if (viewport) await p.setViewportSize(viewport);
      return p;
    }),
  );
  const results = new Array(routes.length);
  let next = 0;
  try {
    await Promise.all(
      [page, ...extra].map(async (p) => {
        while (next < routes.length) {
          const i = next;
          next += 1;
          results[i] = await visit(p, routes[i]);
        }
      }),
    );
  } finally {
    await Promise.all(extra.map((p) => p.close()));
  }
  return results;
}

/** A fresh load of `route` at its real URL, once the app has hydrated the gateway's render. */
export async function open(page, base, route) {
  await page.goto(`${base}/portal${route}`);
  await takenOver(page);
}

/**
 * The gateway renders each page and the browser hydrates it: a test that drives the page waits
 * for the app (`<html data-app>`, set once its root has committed) after a `goto` or a `reload`.
 */
export async function takenOver(page) {
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-app'), null, { timeout: 15_000 });
}

/** Waits for the page's heading (one reading `expected`, when given) and returns its text. */
export async function heading(page, expected) {
  const h1 = (expected ? page.locator('main h1', { hasText: expected }) : page.locator('main h1')).first();
  await h1.waitFor({ timeout: 10_000 });
  return (await h1.textContent()).trim();
}

// One hostile article, added to the e2e stack's copy of the demo content (run.mjs) and opened by
// the XSS test: every way an HTML body could try to run script or cover the page.
const payloads = [
  '<p>正文之前</p>',
  '<script>window.__xss = "script"</script>',
  '<img src="covers/none.png" onerror="window.__xss = \'onerror\'" alt="图">',
  '<a href="javascript:window.__xss = \'javascript-url\'" id="xss-link">点这里</a>',
  '<a href="data:text/html,<script>parent.__xss = 1</script>" id="xss-data">数据链接</a>',
  '<iframe src="data:text/html,<script>parent.__xss = \'iframe\'</script>"></iframe>',
  '<object data="data:text/html,<script>parent.__xss = \'object\'</script>"></object>',
  '<svg onload="window.__xss = \'svg-onload\'"><script>window.__xss = "svg-script"</script></svg>',
  '<style>body { display: none }</style>',
  '<div style="position: fixed; inset: 0; z-index: 9999; background: red" id="xss-overlay">覆盖层</div>',
  '<form action="javascript:window.__xss = \'form\'"><button>提交</button></form>',
  '<p>正文之后</p>',
];
export const HOSTILE_ARTICLE = {
  id: 9901,
  categoryId: 43,
  title: '<script>window.__xss = "title"</script>标题里的脚本',
  publishTime: '2020-01-01 08:00:00',
  summary: '<img src=x onerror="window.__xss = \'summary\'">摘要',
  content: payloads.join(''),
};

// 64 short articles in 工会活动 (category 42): with its own, a list of 7 pages.
export const ARCHIVE_ARTICLES = Array.from({ length: 64 }, (_, i) => ({
  id: 9700 + i,
  categoryId: 42,
  title: `工会活动存档第 ${i + 1} 期`,
  publishTime: `2019-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')} 09:00:00`,
  summary: `第 ${i + 1} 期工会活动记录。`,
  content: `<p>第 ${i + 1} 期工会活动记录。</p>`,
}));

/** Chinese characters (CJK unified ideographs) in a text. */
export const hanCount = (text) => (text.match(/[\u4e00-\u9fff]/g) ?? []).length;

/**
 * Elements sticking out past the viewport's right edge, outside any scrolling or clipping box
 * (a wide table in its own scroller is allowed by WCAG reflow): empty when the page reflows.
 */
export async function overflowing(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1) continue;
      let parent = el.parentElement;
      let contained = false;
      while (parent && parent !== document.body) {
        if (getComputedStyle(parent).overflowX !== 'visible') {
          contained = true;
          break;
        }
        parent = parent.parentElement;
      }
      if (!contained) out.push(`${el.tagName.toLowerCase()}.${String(el.className)} right=${Math.round(box.right)}`);
    }
    if (document.documentElement.scrollWidth > width) out.push(`document scrollWidth=${document.documentElement.scrollWidth}`);
    return out.slice(0, 5);
  });
}

/**
 * Debian's Chromium as every pass drives it: headless, and nothing that reaches off the machine.
 * Every request for another host goes to a proxy on a closed loopback port and fails at once;
 * loopback (the stack under test) is never proxied (Chromium's implicit bypass). This was a
 * `context.route` in every context, which made every request of every page (scripts, fonts,
 * pictures) pause in the browser and wait for Node's verdict, and turned the HTTP cache off, so
 * each load fetched and compiled the app's scripts again: in a clean clone's CI (2026-12-07) the
 * browser process took 237 s of CPU in the native pass, more than the pages' renderers (227 s).
 */
export const OFF_THE_MACHINE = ['--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=127.0.0.1;localhost'];
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...OFF_THE_MACHINE,
    ],
  });
}
