// Issue 31: every page is rendered by the gateway with the app's own components and hydrated by
// the browser. Each route's HTML holds its content before any script runs; hydration changes
// nothing (no recoverable error, no mismatch warning, no request for an answer the page holds);
// a page is one document load; it reads and navigates with JavaScript off; the spec's hash routes
// and the old crawlable addresses lead to the same pages.
import assert from 'node:assert/strict';

import { expectedText } from './content.mjs';
import { titleCases } from './inner.mjs';
import { api, sweep, SAME_AS_ROUTES, SPEC_ROUTES, takenOver } from './support.mjs';

/** Every route of the table the portal renders: the content routes and the footer's pages. */
const ROUTES = [...SPEC_ROUTES, '/sitemap', '/contact', '/accessibility', '/search?q=%E7%8F%AD%E5%88%97'];

/** The main content of a page as the server sent it (the document's own text, no script run). */
function mainOf(html) {
  const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '';
  const h1 = /<h1[^>]*>([^<]*)<\/h1>/.exec(main)?.[1] ?? '';
  const text = main.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, '').replace(/\s+/g, '');
  return { h1, text };
}

export const pagesTests = [
  {
    // One load of each route for every check made of it (these were four passes over the routes).
    name: 'every route: the server HTML holds the page, hydration changes nothing and asks for nothing, one document load, titled 页面 - 栏目 - 公司名, showing content from the API, under the strict browser policy without a violation or console error',
    long: true,
    async run({ page, base }) {
      const problems = [];
      const context = page.context();
      // The policy the pages are served under.
      const headers = (await fetch(`${base}/portal/`)).headers;
      const csp = headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
      // Every Content-Security-Policy violation a page meets, as the browser reports it (on every
      // page of the context: the sweep's second lane too).
      await context.addInitScript(() => {
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const tree = (await api(base, '/category/list')).content;
      const article = (await api(base, '/article/list?categoryId=21&page=1&size=1')).content[0];
      const titles = new Map(await titleCases(base));
      // The server-HTML checks: the content routes, the footer's pages, an article.
      const served = new Set([...ROUTES, `/article/${article.id}`]);
      const texts = new Map();
      for (const route of SPEC_ROUTES) {
        if (route === '/') continue;
        const text = await expectedText(base, tree, route);
        if (!text) problems.push(`no API content for ${route}`);
        else texts.set(route, text);
      }
      const routes = [...new Set([...served, ...titles.keys()])];
      for (const route of texts.keys()) assert.ok(routes.includes(route), route);
      await sweep(page, routes, async (p, route) => {
        const url = `${base}/portal${route}`;
        let h1 = null;
        if (served.has(route)) {
          // The document as the gateway sends it.
          const response = await fetch(url);
          const html = await response.text();
          const main = mainOf(html);
          h1 = main.h1;
          if (response.status !== 200) problems.push(`${route}: ${response.status}`);
          if (!h1.trim()) problems.push(`${route}: no <h1> in the server HTML`);
          if (main.text.length < 40) problems.push(`${route}: ${main.text.length} characters of main content in the server HTML`);
          if (!html.includes('id="portal-state"')) problems.push(`${route}: no store state in the page`);
          // What the head's render-blocking `<link rel="expect">` waits for: without it, the first
          // paint waits for the whole document.
          if (!/<main id="main-content"/.test(html)) problems.push(`${route}: no <main id="main-content"> in the server HTML`);
          if (/href="#\/|href="\/portal\/site\//.test(html)) problems.push(`${route}: a hash or crawlable link in the page`);
        }

        // The same page in Chromium: hydrated, not drawn again.
        const messages = [];
        const documents = [];
        const asked = [];
        const onConsole = (m) => ['error', 'warning'].includes(m.type()) && messages.push(`${m.type()}: ${m.text().slice(0, 200)}`);
        const onError = (e) => messages.push(`pageerror: ${e.message}`);
        const onRequest = (r) => {
          if (r.resourceType() === 'document') documents.push(r.url());
          if (/\/portal\/api\/(?!files\/)/.test(r.url())) asked.push(r.url().replace(base, ''));
        };
        p.on('console', onConsole);
        p.on('pageerror', onError);
        p.on('request', onRequest);
        await p.goto(url);
        await takenOver(p);
        // The server's nodes are the ones on screen: the heading is the element the HTML had.
        await p.waitForLoadState('networkidle');
        const shown = ((await p.locator('main h1').first().textContent({ timeout: 10_000 }).catch(() => '')) ?? '').trim();
        if (!shown) problems.push(`${route}: no heading`);
        if (h1 !== null && shown !== h1.trim()) problems.push(`${route}: the heading became “${shown}” (server: “${h1}”)`);
        if (await p.getByText('页面不存在').count()) problems.push(`${route}: a not-found page`);
        if (await p.getByText('页面加载失败').count()) problems.push(`${route}: its chunk did not load`);
        const expected = titles.get(route);
        if (expected !== undefined) {
          // The title follows the data.
          await p.waitForFunction((t) => document.title === t, expected, { timeout: 10_000 }).catch(() => {});
          const title = await p.title();
          if (title !== expected) problems.push(`${route}: titled “${title}”, not “${expected}”`);
        }
        const text = texts.get(route);
        if (text !== undefined) {
          const found = await p.locator('main').getByText(text, { exact: false }).first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
          if (!found) problems.push(`${route}: does not show “${text}” from the API`);
        }
        const violations = await p.evaluate(() => window.__violations);
        if (violations.length) problems.push(`${route}: policy violations ${violations.join(' | ')}`);
        p.off('console', onConsole);
        p.off('pageerror', onError);
        p.off('request', onRequest);
        if (messages.length) problems.push(`${route}: ${messages.join(' | ')}`);
        if (documents.length !== 1) problems.push(`${route}: ${documents.length} document loads`);
        if (asked.length) problems.push(`${route}: hydration asked for ${asked.join(', ')}`);
      });
      assert.deepEqual(problems, []);
    },
  },
  {
    name: 'a press on 菜单 before the app’s scripts arrive opens the menu, and the app keeps it open',
    viewport: { width: 412, height: 823 },
    async run({ page, base }) {
      // The scripts are held back until the press is made.
      let release;
      const held = new Promise((resolve) => {
        release = resolve;
      });
      await page.route(/\/portal\/assets\/(runtime|main)\.[0-9a-f]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      // Deferred scripts hold DOMContentLoaded back, not the page: it is parsed and painted.
      await page.goto(`${base}/portal/news_center/notice`, { waitUntil: 'commit' });
      await page.getByRole('button', { name: '菜单' }).waitFor();
      const nav = page.locator('#site-nav');
      assert.equal(await nav.isVisible(), false, 'the phone menu starts closed');
      await page.getByRole('button', { name: '菜单' }).click();
      await nav.waitFor({ state: 'visible' });
      await nav.getByRole('button', { name: '新闻中心' }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-app')), false, 'before the app ran');
      release();
      await takenOver(page);
      assert.ok(await nav.isVisible(), 'still open once the app runs');
      assert.equal(await page.getByRole('button', { name: '关闭菜单' }).getAttribute('aria-expanded'), 'true');
      await page.getByRole('button', { name: '关闭菜单' }).click();
      assert.equal(await nav.isVisible(), false, 'the app closes it');
    },
  },
  {
    name: 'a link clicked after the app’s scripts ran but before the page is hydrated opens its page (the browser follows it), with no hydration error',
    async run({ page, base, consoleErrors }) {
      // The list's own chunk is held: the app has started, but cannot hydrate the page yet.
      let release;
      const held = new Promise((resolve) => {
        release = resolve;
      });
      await page.route(/\/portal\/assets\/page-news\.[0-9a-f]+\.chunk\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      const second = await api(base, '/article/list?categoryId=22&page=2&size=10');
      // The app asks for the chunk when it starts, just before it would hydrate.
      const started = page.waitForRequest(/\/page-news\.[0-9a-f]+\.chunk\.js$/);
      await page.goto(`${base}/portal/news_center/media_coverage/2`);
      await started;
      assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-app')), false, 'not hydrated yet');
      await page.getByRole('link', { name: '第 2 页' }).click();
      await page.waitForURL(/media_coverage\/2\?page=2$/);
      // The second page's markup, from the gateway, while the chunk is still held.
      await page.getByRole('link', { name: second.content[0].title }).waitFor({ timeout: 10_000 });
      release();
      await takenOver(page);
      assert.equal(await page.getByRole('link', { name: '第 2 页' }).getAttribute('aria-current'), 'page');
      assert.deepEqual(consoleErrors.filter((e) => /hydrat/i.test(e)), []);
    },
  },
  {
    name: 'on a phone (4× CPU, Slow 4G), taps on 下一张, 关怀版 (and its 特大), 正文字号 and 复制链接 made before the app’s scripts have run all take effect',
    viewport: { width: 390, height: 844 },
    context: { isMobile: true, hasTouch: true, reducedMotion: 'reduce', permissions: ['clipboard-read', 'clipboard-write'] },
    async run({ page, base }) {
      // Lighthouse's mobile profile: the CPU four times slower, Slow 4G (562.5 ms, 1.47 / 0.68 Mbit/s).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 562.5,
        downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
        uploadThroughput: (750 * 1024 * 0.9) / 8,
      });
      // The app's scripts are held back until the taps are made, so every tap lands before it runs.
      let held = Promise.resolve();
      await page.route(/\/portal\/assets\/(runtime|main)\.[0-9a-f]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      const holdScripts = () => {
        let release;
        held = new Promise((resolve) => {
          release = resolve;
        });
        return release;
      };
      const appRuns = () => page.evaluate(() => document.documentElement.hasAttribute('data-app'));

      // The home page: 下一张 on the photo news, then 关怀版 (the browser opens it: it is a
      // <details>) and its 特大 (replayed by the app).
      let release = holdScripts();
      await page.goto(`${base}/portal/`, { waitUntil: 'commit' });
      const carousel = page.getByRole('region', { name: '图片新闻' });
      await carousel.getByRole('button', { name: '下一张' }).waitFor();
      const titles = await carousel.locator('[aria-roledescription="slide"] h3').allTextContents();
      const shown = () => carousel.locator('[aria-roledescription="slide"]:not([hidden]) h3').textContent();
      assert.equal(await shown(), titles[0]);
      await carousel.getByRole('button', { name: '下一张' }).tap();
      await page.locator('summary.reading__toggle').tap();
      const panel = page.getByRole('group', { name: '关怀版设置' });
      await panel.waitFor();
      await panel.getByRole('button', { name: '特大' }).tap();
      assert.equal(await appRuns(), false, 'the taps came before the app ran');
      release();
      await takenOver(page);
      await page.waitForFunction(() => document.documentElement.getAttribute('data-text-size') === 'xlarge');
      assert.equal(await panel.getByRole('button', { name: '特大' }).getAttribute('aria-pressed'), 'true');
      assert.equal(await shown(), titles[1], '下一张 took effect');
      assert.equal(await page.locator('details.reading').evaluate((d) => d.open), true, 'the panel stays open');

      // An article: 正文字号 大, then 复制链接.
      release = holdScripts();
      await page.goto(`${base}/portal/article/2101`, { waitUntil: 'commit' });
      const large = page.getByRole('radio', { name: '正文字号大' });
      await large.waitFor();
      const bodySize = () => page.locator('.article__body').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      const medium = await bodySize();
      await large.tap();
      // The body takes the size at once, from its CSS: nothing waits for the app.
      assert.ok((await bodySize()) > medium, '正文字号大 took effect before the app ran');
      await page.getByRole('button', { name: '复制链接' }).tap();
      assert.equal(await appRuns(), false, 'the taps came before the app ran');
      release();
      await takenOver(page);
      await page.getByText('链接已复制').waitFor();
      // The app's render after 复制链接 keeps the size chosen before it ran.
      assert.equal(await large.isChecked(), true);
      assert.ok((await bodySize()) > medium, 'the size stays once the app runs');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
      assert.equal(copied, canonical, 'the copied link is the page’s');
    },
  },
  {
    name: 'with JavaScript off every route shows its content and links to the others',
    context: { javaScriptEnabled: false },
    async run({ page, base }) {
      const problems = [];
      const seen = new Set();
      for (const route of ROUTES) {
        // A crawler's way: a 429 (this client's share of the CMS spent, the app shell) is asked
        // again when its Retry-After says, as the gateway asks (the rest-dialect pass runs beside
        // the per-route pass, both asking for pages the cache does not hold yet).
        let response = await page.goto(`${base}/portal${route}`);
        for (let retry = 0; retry < 3 && response?.status() === 429; retry += 1) {
          const after = Math.min(5, Number(response.headers()['retry-after'] ?? 1) || 1);
          await new Promise((resolve) => setTimeout(resolve, after * 1000));
          response = await page.goto(`${base}/portal${route}`);
        }
        const heading = page.locator('main h1').first();
        if (!(await heading.isVisible())) {
          problems.push(`${route}: no heading (status ${response?.status()})`);
          continue;
        }
        const h1 = (await heading.textContent()).trim();
        const text = (await page.locator('main').first().innerText()).replace(/\s+/g, '');
        if (!h1 || text.length < 40) problems.push(`${route}: “${h1}”, ${text.length} characters`);
        const links = await page.locator('a[href^="/portal/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
        links.forEach((href) => seen.add(href.split('?')[0]));
      }
      // Every content route is linked from some page (the menus, the section navigation, the sitemap).
      const unlinked = SPEC_ROUTES.filter((r) => !r.includes('?') && r !== '/' && !seen.has(`/portal${r}`));
      assert.deepEqual(problems, []);
      assert.deepEqual(unlinked, [], 'routes no page links to');
      // A list's pages and a search's pages are links.
      await page.goto(`${base}/portal/party-construction/trade-union-activities`);
      await page.locator('a[href$="?page=2"]').first().click();
      await page.waitForURL(/\?page=2$/);
      // The header's search works as a form.
      await page.goto(`${base}/portal/`);
      await page.getByRole('searchbox', { name: '站内搜索' }).first().fill('班列');
      await page.getByRole('searchbox', { name: '站内搜索' }).first().press('Enter');
      await page.waitForURL(/\/portal\/search\?q=/);
      assert.ok((await page.locator('main').innerText()).includes('班列'));
    },
  },
  {
    name: 'links open pages in place; the spec’s hash routes and the old crawlable addresses lead to the same pages',
    async run({ page, base }) {
      const documents = [];
      page.on('request', (r) => r.resourceType() === 'document' && documents.push(new URL(r.url()).pathname + new URL(r.url()).search));
      await page.goto(`${base}/portal/`);
      await takenOver(page);
      const notice = (await api(base, '/category/list')).content.flatMap((c) => [c, ...(c.subCategory ?? [])]).find((c) => c.url === '/news_center/notice');
      await page.locator('main a[href="/portal/news_center/notice"]').first().click();
      await page.locator('main h1', { hasText: notice.name }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/portal/news_center/notice');
      assert.deepEqual(documents, ['/portal/'], 'opened in place, no second document');
      await page.goBack();
      await page.waitForURL(`${base}/portal/`);

      // The spec's hash route of a list's second page: its real URL, rendered by the gateway.
      await page.goto(`${base}/portal/#/news_center/notice?page=2`);
      await page.waitForURL(`${base}/portal/news_center/notice?page=2`);
      await page.locator('main h1', { hasText: notice.name }).waitFor();
      await takenOver(page);
      assert.equal(await page.getByRole('link', { name: '第 2 页' }).getAttribute('aria-current'), 'page');

      // An old crawlable address (in sitemaps and shares already out there): the page, for good.
      const moved = await fetch(`${base}/portal/site/news_center/notice.html?page=2`, { redirect: 'manual' });
      assert.equal(moved.status, 301);
      assert.equal(moved.headers.get('location'), '/portal/news_center/notice?page=2');
      const { id } = (await api(base, '/article/list?categoryId=21&page=1&size=1')).content[0];
      await page.goto(`${base}/portal/site/article/${id}.html`);
      await page.waitForURL(`${base}/portal/article/${id}`);
      await takenOver(page);

      // A duplicate route of the spec is its page's route.
      for (const [from, to] of SAME_AS_ROUTES) {
        const answer = await fetch(`${base}/portal${from}`, { redirect: 'manual' });
        assert.equal(answer.status, 301, from);
        assert.equal(answer.headers.get('location'), `/portal${to}`, from);
      }
    },
  },
];
