// One browser pass over the portal in front of a real third-party CMS: Strapi 5 (started by
// `scripts/strapi.sh start`, seeded with the demo content), reached by config/examples/strapi.toml
// alone. The release gateway serves the production app; Debian's Chromium visits every content
// route, a list's third page, Markdown and block-tree bodies, the hostile body, 头条 and the video's
// captions, and the crawlable pages. Usage: STRAPI_URL=… STRAPI_TOKEN_FILE=… node e2e/strapi.mjs (`make test-strapi` does it).
// Prints "N passed, N failed" last.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { api as apiAt, launchChromium, open as openAt } from './support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LISTEN = process.env.E2E_STRAPI_GATEWAY ?? '127.0.0.1:18095';
const BASE = `http://${LISTEN}`;
const STRAPI = process.env.STRAPI_URL ?? 'http://127.0.0.1:18337';
const TOKEN_FILE = process.env.STRAPI_TOKEN_FILE ?? join(root, 'target', 'strapi-run', 'api-token.txt');
const REPORTS = join(root, 'frontend', 'reports');
mkdirSync(join(REPORTS, 'e2e'), { recursive: true });

// The example config as an integrator would use it, pointed at this Strapi and this build.
const config = readFileSync(join(root, 'config', 'examples', 'strapi.toml'), 'utf8')
  .replace(/^listen = .*$/m, `listen = "${LISTEN}"`)
  .replace(/^static_dir = .*$/m, `static_dir = "${join(root, 'frontend', 'dist')}"`)
  .replace(/^base_url = .*$/m, `base_url = "${STRAPI}/"`)
  .replace(/^client_secret_file = .*$/m, `client_secret_file = "${TOKEN_FILE}"`)
  // The example leaves the company's name to the integrator: this Strapi holds the demo content.
  .replace(/^# company_name = .*$/m, 'company_name = "云川陆港国际物流集团有限公司"');
const CONFIG = join(REPORTS, 'e2e-strapi-gateway.toml');
writeFileSync(CONFIG, config);

const api = (path) => apiAt(BASE, path);

function flatten(list, out = []) {
  for (const c of list) {
    out.push(c);
    flatten(c.subCategory ?? [], out);
  }
  return out;
}

/** Text the route's page must show, taken from the API (as the reference e2e pass does). */
async function expectedText(category) {
  if (category.type === 'group') return category.name;
  const list = await api(`/article/list?categoryId=${category.id}&page=1&size=1`);
  const first = list.content[0];
  if (category.type === 'list') return first.title;
  const detail = await api(`/article/detail?id=${first.id}`);
  return detail.content.replace(/<[^>]+>/g, ' ').trim().split(/\s+/)[0].slice(0, 20);
}

const open = (page, route) => openAt(page, BASE, route);

/** 公司要闻 in Strapi: its count, pages of 10, and how many its last page holds (more than a page). */
async function newsPaging() {
  const news = flatten((await api('/category/list')).content).find((c) => c.url === '/news_center/company_announcement/1');
  const { totalElements: total } = await api(`/article/list?categoryId=${news.id}&size=1`);
  assert.ok(total > 20, `${total} in 公司要闻`);
  const pages = Math.ceil(total / 10);
  return { total, pages, last: total - (pages - 1) * 10 };
}

const tests = [
  {
    name: 'every content route shows what Strapi holds for it',
    async run({ page }) {
      const tree = flatten((await api('/category/list')).content).filter((c) => c.url);
      assert.ok(tree.length >= 36, `${tree.length} routed categories`);
      for (const category of tree) {
        const expected = await expectedText(category);
        await open(page, category.url);
        await page.getByText(expected, { exact: false }).first().waitFor({ timeout: 10000 });
      }
    },
  },
  {
    name: 'a list pages through Strapi: its last page holds what is left over',
    async run({ page }) {
      const { total, pages, last } = await newsPaging();
      await open(page, `/news_center/company_announcement/1?page=${pages}`);
      await page.getByText(`共 ${total} 条`).waitFor();
      await page.locator('.article-list .article-item').nth(last - 1).waitFor();
      assert.equal(await page.locator('.article-list .article-item').count(), last);
      await page.locator('.article-item__title a').first().click();
      await page.locator('.article__header h1').waitFor();
      assert.ok((await page.locator('.article__body p').count()) > 0, 'a body from Markdown');
    },
  },
  {
    name: 'a block-tree body renders as a list, the hostile body runs nothing',
    async run({ page }) {
      const dialogs = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        d.dismiss();
      });
      await open(page, '/about/development_history');
      await page.locator('.article__body ol li, .article__body ul li').first().waitFor();
      const notices = flatten((await api('/category/list')).content).find((c) => c.url === '/news_center/notice');
      const list = await api(`/article/list?categoryId=${notices.id}&size=50`);
      const hostile = list.content.find((a) => a.title.includes('安全检测'));
      assert.ok(hostile, 'the hostile notice is in Strapi');
      assert.equal(typeof hostile.id, 'string', `Strapi's documents are addressed by their documentId: ${hostile.id}`);
      await open(page, `/article/${hostile.id}`);
      await page.locator('.article__body').waitFor();
      await page.waitForTimeout(500);
      assert.equal(await page.locator('.article__body script, .article__body iframe').count(), 0);
      assert.deepEqual(dialogs, []);
    },
  },
  {
    name: "头条 is Strapi's lead flag, the video plays Strapi's WebVTT captions",
    async run({ page }) {
      const tree = flatten((await api('/category/list')).content);
      const news = tree.find((c) => c.url === '/news_center/company_announcement/1');
      const first = await api(`/article/list?categoryId=${news.id}&page=1&size=12`);
      const lead = first.content.find((a) => a.lead === true);
      assert.ok(lead, 'Strapi flags a lead story on the first page of 公司要闻');
      await open(page, '/');
      const leadLink = page.locator('.home-lead h2 a');
      await leadLink.waitFor();
      assert.equal(await leadLink.textContent(), lead.title);
      assert.equal(await leadLink.getAttribute('href'), `/portal/article/${lead.id}`);
      // In the app, after hydration: the router reads the documentId from the address.
      await page.locator('html[data-app]').waitFor({ state: 'attached' });
      await leadLink.click();
      await page.waitForURL(`**/portal/article/${lead.id}`);
      await page.locator('.article__header h1', { hasText: lead.title }).waitFor();
      await page.locator('.article__body').waitFor();

      // The promotional video's page: its <track> is the gateway's copy of Strapi's .vtt upload,
      // and the browser loads and parses it (served as text/vtt, allowed by the page's policy).
      const promo = tree.find((c) => c.url === '/about/promotional-video');
      const [video] = (await api(`/article/list?categoryId=${promo.id}`)).content;
      const detail = await api(`/article/detail?id=${video.id}`);
      assert.match(detail.captions ?? '', /^\/portal\/api\/files\/.+\.vtt$/);
      await open(page, '/about/promotional-video');
      const track = page.locator('video track[kind="captions"]');
      await track.waitFor({ state: 'attached' });
      assert.equal(await track.getAttribute('src'), detail.captions);
      await page.waitForFunction(() => {
        const t = document.querySelector('video track[kind="captions"]');
        return t && (t.readyState === 2 || t.readyState === 3);
      });
      const state = await track.evaluate((t) => ({ ready: t.readyState, cues: t.track.cues?.length ?? 0 }));
      assert.deepEqual({ ready: state.ready, cues: state.cues > 0 }, { ready: 2, cues: true }, JSON.stringify(state));
    },
  },
  {
    name: 'the pages rendered from Strapi read without JavaScript',
    context: { javaScriptEnabled: false },
    async run({ page }) {
      // 10 a page: the last page holds what is left over.
      const { pages, last } = await newsPaging();
      await page.goto(`${BASE}/portal/news_center/company_announcement/1?page=${pages}`);
      assert.equal(await page.locator('main .article-list > li').count(), last);
      await page.locator('main .article-list > li a').first().click();
      await page.locator('main h1').waitFor();
      assert.ok((await page.locator('main .article__body p').count()) > 0);
      const sitemap = await (await fetch(`${BASE}/portal/sitemap.xml`)).text();
      const { totalElements } = await api('/article/list?size=1');
      // Every article once, at its documentId.
      assert.equal(sitemap.match(/\/portal\/article\/[a-z0-9]{20,}</g)?.length, totalElements);
    },
  },
  {
    name: "the site search (the gateway's index) finds in Strapi's bodies what Strapi's own search cannot, marked",
    run: async ({ page }) => {
      // 换装站 stands in bodies only; Strapi's search reads titles. The index reads the bodies.
      const keyword = '换装站';
      const found = await api(`/article/search?keyword=${encodeURIComponent(keyword)}&size=50`);
      assert.equal(found.source, 'index');
      assert.ok(found.totalElements > 0, 'the index finds the bodies that hold it');
      await open(page, `/search?q=${encodeURIComponent(keyword)}`);
      await page.locator('.search-results li').first().waitFor();
      assert.equal(await page.locator('.search-results > li').count(), Math.min(found.totalElements, 10));
      const marks = await page.locator('.search-results mark').allTextContents();
      assert.ok(marks.length > 0 && marks.every((m) => m === keyword), `marked: ${marks}`);
      await page.getByRole('navigation', { name: '按栏目筛选' }).waitFor();
      // A hit opens Strapi's article, which holds the word.
      await page.locator('.search-results li a').first().click();
      await page.locator('main .article__body').first().waitFor();
      assert.ok((await page.locator('main .article__body').innerText()).includes(keyword));
    },
  },
];

const gateway = spawn(join(root, 'target', 'release', 'portal-gateway'), ['--config', CONFIG], {
  cwd: root,
  // One browser asks for every page cold: more than one visitor's share of the CMS.
  // The site search is the gateway's index: Strapi's own reads titles only (docs/integrators.md, "Search").
  env: {
    ...process.env,
    RUST_LOG: 'warn',
    PORTAL__LIMITS__PER_CLIENT_CMS_PER_SECOND: '100000',
    PORTAL__LIMITS__PER_CLIENT_CMS_BURST: '100000',
    // The browser tests are one address, rendering more cold pages at once than a visitor's share.
    PORTAL__LIMITS__PER_CLIENT_RENDERS: '100000',
    PORTAL__LIMITS__PER_CLIENT_FILES: '100000',
    PORTAL__LIMITS__PER_CLIENT_SEARCHES: '100000',
    // What a page renders is tested, not how fast: a budget beside `make test`'s other lane.
    PORTAL__RENDER__TIMEOUT: '10s',
    PORTAL__SEARCH__MODE: 'index',
    // Where an integrator's portal is reached (the sitemap's and the feeds' absolute links).
    PORTAL__SITE__PUBLIC_URL: BASE,
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
process.on('exit', () => gateway.kill('SIGTERM'));

let passed = 0;
let failed = 0;
try {
  for (let i = 0; ; i += 1) {
    if (gateway.exitCode !== null) throw new Error('the gateway exited during start-up');
    try {
      if ((await fetch(`${BASE}/readyz`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 300) throw new Error('the gateway did not become ready in 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  // The index is built in the background: the tests start once it answers.
  for (let i = 0; ; i += 1) {
    const r = await fetch(`${BASE}/portal/api/article/search?keyword=${encodeURIComponent('班列')}`).catch(() => null);
    if (r?.ok && (await r.json()).result?.source === 'index') break;
    if (i > 1200) throw new Error('the search index was not built in 120 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await launchChromium();
  for (const test of tests) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN', ...(test.context ?? {}) });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const started = Date.now();
    try {
      await test.run({ page });
      assert.deepEqual(errors, [], 'no script errors');
      passed += 1;
      console.log(`  ok   ${test.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed += 1;
      console.log(`  FAIL ${test.name}\n       ${String(error?.stack ?? error).split('\n').slice(0, 6).join('\n       ')}`);
      await page.screenshot({ path: join(REPORTS, 'e2e', `failed-strapi-${test.name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
    }
    await context.close();
  }
  await browser.close();
} catch (error) {
  failed += 1;
  console.log(`  FAIL e2e set-up: ${error?.message ?? error}`);
} finally {
  gateway.kill('SIGTERM');
}
console.log(`\ne2e (Strapi 5): ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
