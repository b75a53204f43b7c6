// Issue 24's cases: the inner pages — titles, 栏目导航, related articles, the business call to
// action, 信访举报, the phone fixes and the content placeholders (no layout shift on a cold load).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import AxeBuilder from '@axe-core/playwright';

import { api, heading, open, takenOver } from './support.mjs';

const table = JSON.parse(readFileSync(new URL('../src/app/route-table.json', import.meta.url), 'utf8'));
const PHONE = { width: 390, height: 844 };

/** Every route of the table with its parents (the trail the title names), parents first. */
function walk(routes, parents = [], out = []) {
  for (const route of routes) {
    if (route.path && route.page) out.push({ route, trail: [...parents, route] });
    if (route.routes) walk(route.routes, [...parents, route], out);
  }
  return out;
}

function findByUrl(tree, url) {
  for (const c of tree) {
    if (c.url === url) return c;
    const found = findByUrl(c.subCategory ?? [], url);
    if (found) return found;
  }
  return undefined;
}

function findById(tree, id) {
  for (const c of tree) {
    if (c.id === id) return c;
    const found = findById(c.subCategory ?? [], id);
    if (found) return found;
  }
  return undefined;
}

/** `页面 - 栏目 - 公司名`, each part once. */
const titleOf = (parts, company) => [...new Set([...parts, company].filter(Boolean))].join(' - ');

/** Waits until the document's title is `expected` (it follows the data), then checks it. */
async function expectTitle(page, expected, where) {
  await page.waitForFunction((t) => document.title === t, expected, { timeout: 10_000 }).catch(() => {});
  assert.equal(await page.title(), expected, `the title of ${where}`);
}

async function axeViolations(page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

/** The layout shifts of a cold load of `route`, summed as CLS, after the page has settled. */
async function coldLoadShift(browser, base, route, viewport, { slowTree = false } = {}) {
  const context = await browser.newContext({ viewport, locale: 'zh-CN' });
  // The CMS tree answering after the page's script: the page waits for its category meanwhile.
  if (slowTree) {
    await context.route(/\/portal\/api\/category\/list/, async (r) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await r.continue();
    });
  }
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__shift = { total: 0, sources: [] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        window.__shift.total += entry.value;
        for (const s of entry.sources) window.__shift.sources.push(`${s.node?.nodeName ?? '?'}.${s.node?.className ?? ''} ${entry.value.toFixed(4)}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`${base}/portal/#${route}`);
  await page.locator('main h1').first().waitFor();
  await page.locator('main .article-list, main .article__body').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  const shift = await page.evaluate(() => window.__shift);
  await context.close();
  return shift;
}

/**
 * Every route of the table, an article, a search and a second page of a list, with the title each
 * must carry: 页面 - 栏目 - 公司名 (the home page the company alone). Checked in the per-route pass
 * (pages.mjs), which loads each route once for all its checks.
 */
export async function titleCases(base) {
  const site = await api(base, '/site');
  const tree = (await api(base, '/category/list')).content;
  const company = site.companyName;
  const article = (await api(base, '/article/list?categoryId=21&page=1&size=1')).content[0];
  const category = findById(tree, article.categoryId);
  const cases = [];
  for (const { route, trail } of walk(table.routes)) {
    if (route.sameAs) continue; // it redirects to the page it names, which has its own case
    if (route.page === 'login') continue; // it leaves the portal for the external sign-in page
    const channel = site.whistleblowing;
    const reporting = [channel.phone, channel.email, channel.address, channel.website].some((s) => s.trim());
    // No channel, no page (a 404, tested in the gateway's service_pages).
    if (route.page === 'whistleblowing' && !reporting) continue;
    if (route.page === 'home') {
      cases.push([route.path, company]);
    } else if (route.page === 'partyDetail') {
      const detail = await api(base, '/article/detail?id=901');
      cases.push([`${route.path}?id=901`, titleOf([detail.title, findById(tree, detail.categoryId)?.name], company)]);
    } else {
      const names = trail.map((r) => (r.path && findByUrl(tree, r.path)?.name) || r.name).reverse();
      cases.push([route.path, titleOf(names, company)]);
    }
  }
  cases.push([`/article/${article.id}`, titleOf([article.title, category.name], company)]);
  cases.push([`/search?q=${encodeURIComponent('班列')}`, titleOf(['“班列”的搜索结果', '站内搜索'], company)]);
  cases.push(['/news_center/notice?page=2', titleOf(['通知公告（第 2 页）', '新闻中心'], company)]);
  assert.ok(cases.length > 40, `${cases.length} routes`);
  return cases;
}

export const innerTests = [
  {
    name: 'inner: 栏目导航 beside the page with the current one marked, a scrolling row on a phone; a route change is announced and focus goes to main',
    async run({ page, base, browser, consoleErrors }) {
      const tree = (await api(base, '/category/list')).content;
      const site = await api(base, '/site');
      const news = findByUrl(tree, '/news_center');
      const expected = news.subCategory.filter((c) => !c.hidden).map((c) => c.name);
      await open(page, base, '/news_center/notice');
      await heading(page, '通知公告');
      const nav = page.getByRole('navigation', { name: '新闻中心栏目导航' });
      assert.deepEqual((await nav.getByRole('listitem').allTextContents()).map((t) => t.trim()), expected);
      assert.equal(await nav.getByRole('link', { name: '通知公告' }).getAttribute('aria-current'), 'page');
      assert.equal(await nav.locator('[aria-current]').count(), 1);
      const navBox = await nav.boundingBox();
      const h1Box = await page.locator('main h1').boundingBox();
      assert.ok(navBox.x + navBox.width <= h1Box.x, 'the navigation is a column left of the page');
      assert.deepEqual(await axeViolations(page), []);

      // A link of it: the new page's title is said (politely) and focus is on main.
      await nav.getByRole('link', { name: '媒体报道' }).click();
      await heading(page, '媒体报道');
      const title = titleOf(['媒体报道', '新闻中心'], site.companyName);
      await page.waitForFunction((t) => document.querySelector('.route-announcer')?.textContent === t, title, { timeout: 5000 });
      assert.equal(await page.locator('.route-announcer').getAttribute('aria-live'), 'polite');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'main-content');
      assert.equal(await page.getByRole('navigation', { name: '新闻中心栏目导航' }).getByRole('link', { name: '媒体报道' }).getAttribute('aria-current'), 'page');

      // An article: its list's section, the list marked as where the article is.
      const article = (await api(base, '/article/list?categoryId=22&page=1&size=1')).content[0];
      await open(page, base, `/article/${article.id}`);
      await heading(page, article.title);
      const articleNav = page.getByRole('navigation', { name: '新闻中心栏目导航' });
      assert.equal(await articleNav.getByRole('link', { name: '媒体报道' }).getAttribute('aria-current'), 'true');

      // A phone: the same links in one row that scrolls sideways, the current one in view.
      const phone = await browser.newContext({ viewport: PHONE, locale: 'zh-CN' });
      try {
        const p = await phone.newPage();
        await open(p, base, '/about/honor');
        await heading(p, '荣誉资质');
        const strip = p.getByRole('navigation', { name: '走进云川栏目导航' });
        const row = await strip.locator('li').evaluateAll((items) => items.map((li) => li.offsetTop));
        assert.ok(row.length >= 5 && row.every((top) => top === row[0]), `one row: ${row}`);
        const list = strip.locator('ul');
        const scroll = await list.evaluate((ul) => ({ scrolls: ul.scrollWidth > ul.clientWidth, overflow: getComputedStyle(ul).overflowX }));
        assert.ok(scroll.scrolls && scroll.overflow === 'auto', JSON.stringify(scroll));
        const current = strip.getByRole('link', { name: '荣誉资质' });
        assert.equal(await current.getAttribute('aria-current'), 'page');
        const [stripBox, currentBox] = [await list.boundingBox(), await current.boundingBox()];
        assert.ok(currentBox.x >= stripBox.x - 1 && currentBox.x + currentBox.width <= stripBox.x + stripBox.width + 1, 'the current page is scrolled into view');
        const navTop = (await strip.boundingBox()).y;
        assert.ok(navTop < (await p.locator('main h1').boundingBox()).y, 'above the page');
        assert.equal(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, 'the page itself does not scroll sideways');
        assert.deepEqual(await axeViolations(p), []);
      } finally {
        await phone.close();
      }
      assert.deepEqual(consoleErrors, []);
    },
  },
  {
    name: 'inner: related articles under an article — its category, newest first, not itself, at most five, linked',
    async run({ page, base, consoleErrors }) {
      const list = (await api(base, '/article/list?categoryId=21&page=1&size=10')).content;
      assert.ok(list.length >= 7, 'a category with enough articles');
      const article = list[2];
      const expected = list
        .filter((a) => a.id !== article.id)
        .sort((a, b) => b.publishTime.localeCompare(a.publishTime))
        .slice(0, 5);
      await open(page, base, `/article/${article.id}`);
      await heading(page, article.title);
      const related = page.getByRole('region', { name: '相关文章' });
      await related.waitFor();
      const links = related.getByRole('link');
      assert.deepEqual((await links.allTextContents()).map((t) => t.trim()), expected.map((a) => a.title));
      assert.equal(await links.first().getAttribute('href'), `/portal/article/${expected[0].id}`);
      await links.nth(1).click();
      assert.equal(await heading(page, expected[1].title), expected[1].title);
      assert.deepEqual(consoleErrors, []);
    },
  },
  {
    name: 'inner: a business page ends with 咨询热线 and 在线订舱 from /site; 清正廉洁 shows 信访举报; other pages neither',
    async run({ page, base, consoleErrors }) {
      const site = await api(base, '/site');
      assert.ok(site.hotline && site.bookingUrl, 'the shipped config has both');
      for (const route of ['/business/China-Europe_train', '/business_overview/operating_route']) {
        await open(page, base, route);
        await heading(page);
        const cta = page.getByRole('region', { name: '业务咨询' });
        await cta.waitFor();
        assert.equal(await cta.getByRole('link', { name: /咨询热线/ }).getAttribute('href'), `tel:${site.hotline.replace(/[^\d+]/g, '')}`);
        assert.match(await cta.textContent(), new RegExp(site.hotline));
        assert.equal(await cta.getByRole('link', { name: '在线订舱' }).getAttribute('href'), site.bookingUrl);
      }
      assert.deepEqual(await axeViolations(page), []);
      await open(page, base, '/about/honor');
      await page.locator('main .article__body').waitFor();
      assert.equal(await page.getByRole('region', { name: '业务咨询' }).count(), 0, 'not on a page outside business');

      const channel = site.whistleblowing;
      await open(page, base, '/party-construction/clean-honest');
      await heading(page, '清正廉洁');
      const block = page.getByRole('region', { name: '信访举报' });
      await block.waitFor();
      assert.equal(await block.getByRole('link', { name: channel.phone }).getAttribute('href'), `tel:${channel.phone.replace(/[^\d+]/g, '')}`);
      assert.equal(await block.getByRole('link', { name: channel.email }).getAttribute('href'), `mailto:${channel.email}`);
      const text = await block.textContent();
      for (const [label, value] of [['电话', channel.phone], ['邮箱', channel.email], ['地址', channel.address], ['接待时间', channel.hours]]) {
        assert.ok(text.includes(label) && text.includes(value), `${label}: ${value}`);
      }
      assert.deepEqual(await axeViolations(page), []);
      await open(page, base, '/party-construction/trade-union-activities');
      await page.locator('main .article-list').waitFor();
      assert.equal(await page.getByRole('region', { name: '信访举报' }).count(), 0, 'only on 清正廉洁');
      assert.deepEqual(consoleErrors, []);
    },
  },
  {
    name: 'inner: at 390x844 the breadcrumb keeps 当前位置 with its first crumb, dates do not break, the pager is one row, 返回列表 returns to page 2 and a place scrolled to before the app ran is kept, a chart fits whole and its 大图 turns along the screen, the menu button stays put',
    viewport: PHONE,
    async run({ page, base, consoleErrors }) {
      // Breadcrumb: the label and the first crumb share a line; an article's last crumb is short.
      const sameTop = async () =>
        page.evaluate(() => {
          const label = document.querySelector('main .breadcrumb__label').getBoundingClientRect().top;
          const first = document.querySelector('main .breadcrumb li').getBoundingClientRect().top;
          return Math.abs(label - first) < 2;
        });
      const article = (await api(base, '/article/list?categoryId=21&page=1&size=1')).content[0];
      await open(page, base, `/article/${article.id}`);
      await heading(page, article.title);
      assert.ok(await sameTop(), 'the article’s 当前位置 is not alone on its line');
      const crumbs = await page.getByRole('navigation', { name: '当前位置' }).textContent();
      assert.ok(!crumbs.includes(article.title), `the breadcrumb does not repeat the title: ${crumbs}`);
      await open(page, base, '/business/cross_border');
      await heading(page);
      assert.ok(await sameTop(), 'a page’s 当前位置 is not alone on its line');

      // Search results: each date on one line.
      await open(page, base, `/search?q=${encodeURIComponent('班列')}`);
      await page.locator('.search-results time').first().waitFor();
      const dates = await page.locator('.search-results time').evaluateAll((times) =>
        times.map((t) => ({ text: t.textContent, lines: t.getClientRects().length, height: t.getBoundingClientRect().height, line: parseFloat(getComputedStyle(t).lineHeight) })),
      );
      for (const d of dates) assert.ok(d.lines === 1 && d.height <= d.line * 1.5, `date on one line: ${JSON.stringify(d)}`);
      const rowOf = () =>
        page.locator('nav.pagination :is(a, .pagination__step):visible').evaluateAll((items) => items.map((b) => b.offsetTop));
      let row = await rowOf();
      assert.ok(row.length >= 3 && row.every((t) => t === row[0]), `search pager on one row: ${row}`);

      // The pager of a long list (7 pages), in its middle: one row too.
      await open(page, base, '/party-construction/trade-union-activities?page=4');
      await page.locator('main .article-list').waitFor();
      row = await rowOf();
      assert.ok(row.length >= 5 && row.every((t) => t === row[0]), `list pager on one row: ${row}`);
      const labels = await page.locator('nav.pagination > .pagination__step').allTextContents();
      assert.deepEqual(labels.map((t) => t.trim()), ['上一页', '下一页']);

      // 返回列表 from an article opened on page 2 returns to page 2, after a reload too.
      const second = await api(base, '/article/list?categoryId=21&page=2&size=10');
      await open(page, base, '/news_center/company_announcement/1');
      await page.locator('main .article-list').waitFor();
      // 下一页: with five pages or more a phone shows no number between the first and the current.
      await page.getByRole('navigation', { name: '分页' }).getByRole('link', { name: '下一页' }).click();
      const link = page.getByRole('link', { name: second.content[0].title });
      await link.click();
      await heading(page, second.content[0].title);
      // A phone shows the page seconds before the app has run: a visitor who scrolled down to
      // 返回列表 meanwhile keeps their place when it hydrates, and the tap lands. (The app's first
      // commit scrolled to the top, between a tap's press and its release: the release fell on other
      // text and the tap was lost, twice in CI on 2026-12-07.) The app's scripts are held until then.
      let release;
      const held = new Promise((resolve) => (release = resolve));
      const scripts = /\/portal\/assets\/.*\.js$/;
      await page.route(scripts, async (route) => {
        await held;
        await route.continue();
      });
      await page.reload({ waitUntil: 'domcontentloaded' });
      await heading(page, second.content[0].title);
      const back = page.getByRole('link', { name: '返回列表' });
      await back.scrollIntoViewIfNeeded();
      const place = () => page.evaluate(() => ({ scrollY: window.scrollY, top: document.querySelector('.article__back a').getBoundingClientRect().top }));
      const kept = await place();
      assert.ok(kept.scrollY > 0, `返回列表 is below the fold at ${PHONE.width}x${PHONE.height}: ${JSON.stringify(kept)}`);
      release();
      await takenOver(page);
      await page.unroute(scripts);
      // The link stays under the finger (the browser's scroll anchoring may move scrollY for an image
      // above that loads; the place on the screen is what a tap needs).
      const now = await place();
      assert.ok(now.scrollY > 0 && Math.abs(now.top - kept.top) < 2, `the page stays where the visitor had it when the app takes it over: ${JSON.stringify(kept)} → ${JSON.stringify(now)}`);
      await back.click();
      await page.getByRole('link', { name: second.content[0].title }).waitFor();
      assert.equal(await page.getByRole('link', { name: '第 2 页' }).getAttribute('aria-current'), 'page');

      // 公司简介's chart fits the column whole (issue 34: title and every bar on a phone), and its
      // 大图 view, on a phone held upright, turns it along the screen's length: larger than in the page.
      await open(page, base, '/about/company_profile');
      const chart = page.locator('main figure.chart img').first();
      await chart.waitFor();
      const fit = await chart.evaluate((img) => {
        const r = img.getBoundingClientRect();
        const column = img.closest('.article__body').getBoundingClientRect();
        return { left: r.left, right: r.right, width: r.width, column: [column.left, column.right], scroller: getComputedStyle(img.parentElement).overflowX };
      });
      assert.ok(fit.left >= fit.column[0] - 1 && fit.right <= fit.column[1] + 1 && fit.width >= fit.column[1] - fit.column[0] - 1, `chart fills its column whole: ${JSON.stringify(fit)}`);
      assert.equal(fit.scroller, 'visible', 'no scrolling box');
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0);
      await chart.click();
      const shown = page.getByRole('dialog').locator('img');
      await shown.waitFor();
      const large = await shown.evaluate((img) => ({ transform: getComputedStyle(img).transform, long: Math.max(img.getBoundingClientRect().width, img.getBoundingClientRect().height) }));
      assert.notEqual(large.transform, 'none', 'turned a quarter');
      assert.ok(large.long > fit.width * 1.5, `大图 ${large.long} px along the screen, the page's ${fit.width}`);
      await page.keyboard.press('Escape');

      // The menu button keeps its place beside the logo when it says 关闭菜单.
      const toggle = page.locator('.menu-toggle');
      const before = await toggle.boundingBox();
      await toggle.click();
      await page.getByRole('button', { name: '关闭菜单' }).waitFor();
      const after = await toggle.boundingBox();
      const brand = await page.locator('.brand').boundingBox();
      assert.ok(Math.abs(after.x - before.x) < 1 && Math.abs(after.width - before.width) < 1, `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
      assert.ok(after.y < brand.y + brand.height, 'beside the logo, not below it');
      assert.deepEqual(consoleErrors, []);
    },
  },
  {
    // By itself when cases run side by side (E2E_WORKERS): it measures layout shifts on cold loads
    // over a fixed second, and once beside the axe sweep its wait for the network at rest timed out.
    alone: true,
    name: 'inner: a page shows placeholders while its data loads (busy, still under reduced motion), and a cold load of a list or an article shifts nothing (CLS)',
    async run({ page, context, base, browser, consoleErrors }) {
      // Placeholders: the list's answer held back for a moment.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await context.route(/\/portal\/api\/article\/list\?categoryId=23&/, async (route) => {
        await held;
        await route.continue();
      });
      // Opened from the home page inside the app (a page loaded at its URL arrives rendered).
      await open(page, base, '/');
      await page.locator('main a[href="/portal/news_center/notice"]').first().click();
      const region = page.locator('main .content-region[aria-busy="true"]');
      await region.waitFor();
      assert.equal(await region.locator('.skeleton-list__item').count(), 10);
      assert.equal(await page.locator('main h1').textContent(), '通知公告', 'the real heading above the placeholders');
      // Read in one go: the chunk's placeholder gives way to the page's own while this runs.
      const motion = await page.evaluate(() => getComputedStyle(document.querySelector('main .content-region[aria-busy="true"] .skeleton-line')).animationName);
      assert.equal(motion, 'none', 'no shimmer under reduced motion');
      release();
      await page.locator('main .article-list').waitFor();
      assert.equal(await page.locator('main .content-region').getAttribute('aria-busy'), 'false');
      assert.equal(await page.locator('main .skeleton').count(), 0);
      await context.unroute(/\/portal\/api\/article\/list\?categoryId=23&/);

      // Cold loads, measured in the page (PerformanceObserver 'layout-shift').
      const article = (await api(base, '/article/list?categoryId=21&page=1&size=1')).content[0];
      const measured = [];
      for (const viewport of [{ width: 1366, height: 768 }, PHONE]) {
        for (const route of ['/news_center/company_announcement/1', `/article/${article.id}`, '/about/company_profile']) {
          const shift = await coldLoadShift(browser, base, route, viewport);
          measured.push(`${route} @${viewport.width}: ${shift.total.toFixed(4)}${shift.total > 0 ? ` (${shift.sources.join('; ')})` : ''}`);
          assert.ok(shift.total < 0.01, `CLS ${shift.total} on ${route} at ${viewport.width} px: ${shift.sources.join('; ')}`);
        }
      }
      for (const viewport of [{ width: 1366, height: 768 }, PHONE]) {
        const shift = await coldLoadShift(browser, base, '/news_center/notice', viewport, { slowTree: true });
        measured.push(`/news_center/notice @${viewport.width}, tree 800 ms late: ${shift.total.toFixed(4)}${shift.total > 0 ? ` (${shift.sources.join('; ')})` : ''}`);
        assert.ok(shift.total < 0.01, `CLS ${shift.total} with a late tree at ${viewport.width} px: ${shift.sources.join('; ')}`);
      }
      console.log(`       CLS ${measured.join(', ')}`);
      assert.deepEqual(consoleErrors, []);
    },
  },
];
