// The crawlable pages (/portal/site/…) with JavaScript on: the page a link points to stays, in one
// document load, and the small site script (src/site-enhance) adds the header's tools, the phone
// menu and the article tools in place. Issue 25: "land where the link points".
import assert from 'node:assert/strict';

import AxeBuilder from '@axe-core/playwright';

import { api, heading } from './support.mjs';

/** The newest 公司新闻 article, as the API gives it. */
async function anArticle(base) {
  const { id } = (await api(base, '/article/list?categoryId=21&page=1&size=1')).content[0];
  return api(base, `/article/detail?id=${id}`);
}

/** Records the policy violations a page reports (the strict CSP: no inline script but the head's by hash). */
async function watchPolicy(page) {
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

/** Waits until the site script has shown the header's tools (it runs deferred, after parsing). */
const enhanced = (page) => page.locator('[data-reading] .reading__toggle').waitFor();

export const crawlableTests = [
  {
    name: 'crawlable: an article opens in one document load with its title and text at first paint, and is enhanced in place',
    async run({ page, base, consoleErrors }) {
      const article = await anArticle(base);
      await watchPolicy(page);
      const documents = [];
      const navigations = [];
      const scripts = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'document') documents.push(r.url());
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
      const url = `${base}/portal/site/article/${article.id}.html`;
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      // What the first paint shows: the HTML itself, before any script of ours has anything to do with it.
      const first = await page.evaluate(() => ({
        h1: document.querySelector('main h1')?.textContent.trim(),
        text: document.querySelector('article.content')?.textContent.trim().length ?? 0,
      }));
      assert.equal(first.h1, article.title);
      assert.ok(first.text > 100, `the body is in the first document (${first.text} characters)`);
      await enhanced(page);
      await page.waitForLoadState('load');
      await page.waitForTimeout(1000);
      assert.deepEqual(documents, [url], 'one document request');
      assert.deepEqual(navigations, [url], 'no second navigation');
      assert.equal(page.url(), url);
      assert.equal(await heading(page, article.title), article.title);
      assert.deepEqual(scripts.filter((s) => !/^\/portal\/assets\/site\.[0-9a-f]+\.js$/.test(s)), [], 'the site script and nothing else (not the app)');
      assert.equal(scripts.length, 1);
      assert.ok(await page.locator('[data-article-tools]').isVisible(), 'the article tools are shown');
      assert.deepEqual(await page.evaluate(() => window.__violations), []);
      assert.deepEqual(consoleErrors, []);
    },
  },
  {
    name: 'crawlable: on a 412 px phone 菜单 opens the menu, which leads to a crawlable list page',
    viewport: { width: 412, height: 915 },
    async run({ page, base }) {
      const article = await anArticle(base);
      await page.goto(`${base}/portal/site/article/${article.id}.html`);
      await enhanced(page);
      const nav = page.locator('nav[aria-label="栏目导航"]');
      assert.equal(await nav.isVisible(), false, 'folded on a phone');
      const toggle = page.getByRole('button', { name: '菜单' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      await toggle.click();
      assert.equal(await page.getByRole('button', { name: '关闭菜单' }).getAttribute('aria-expanded'), 'true');
      assert.ok(await nav.isVisible());
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 412, `no sideways scroll (${width} px)`);
      await nav.getByRole('link', { name: '通知公告', exact: true }).click();
      await page.waitForURL(/\/portal\/site\/news_center\/notice\.html$/);
      assert.equal(await heading(page), '通知公告');
      assert.ok((await page.locator('ul.items li').count()) > 0, 'the list');
      assert.equal(await nav.isVisible(), false, 'the new page starts folded');
    },
  },
  {
    name: 'crawlable: a desktop section drops down its sub-sections on keyboard focus and Escape folds it',
    async run({ page, base }) {
      await page.goto(`${base}/portal/site/index.html`);
      await enhanced(page);
      const item = page.locator('.menu__item', { has: page.locator('.menu__top', { hasText: '新闻中心' }) });
      const sub = item.locator('.menu__sub');
      assert.equal(await sub.isVisible(), false);
      await item.locator('.menu__top').focus();
      assert.ok(await sub.isVisible(), 'focus opens the sub-sections');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.closest('.menu__sub') !== null), true, 'Tab walks into them');
      await page.keyboard.press('Escape');
      assert.equal(await sub.isVisible(), false, 'Escape folds them');
      assert.equal(await page.evaluate(() => document.activeElement.textContent), '新闻中心', 'and returns to the section');
    },
  },
  {
    name: "crawlable: the header's search box lands on the app's search with the keyword",
    async run({ page, base }) {
      const expected = await api(base, `/article/search?keyword=${encodeURIComponent('班列')}&page=1&size=10`);
      await page.goto(`${base}/portal/site/news_center/notice.html`);
      await enhanced(page);
      const box = page.locator('header form[role=search]');
      await box.getByRole('searchbox', { name: '站内搜索' }).fill('班列');
      await box.getByRole('button', { name: '搜索' }).click();
      await page.waitForURL(/\/portal\/#\/search\?q=%E7%8F%AD%E5%88%97$/);
      await page.getByText(`共 ${expected.totalElements} 条与“班列”相关的结果`).waitFor();
    },
  },
  {
    name: 'crawlable: 关怀版 大 enlarges the text at once, holds on the next page and in the app',
    async run({ page, base }) {
      const article = await anArticle(base);
      await page.goto(`${base}/portal/site/article/${article.id}.html`);
      await enhanced(page);
      const size = () => page.locator('article.content').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
      const before = await size();
      await page.getByRole('button', { name: '关怀版' }).click();
      await page.getByRole('button', { name: '大', exact: true }).click();
      assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-text-size')), 'large');
      assert.ok((await size()) > before * 1.1, `larger text (${before} → ${await size()})`);
      assert.equal(await page.getByRole('button', { name: '大', exact: true }).getAttribute('aria-pressed'), 'true');
      await page.getByRole('button', { name: '高对比度' }).click();
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('readingPrefs')));
      assert.deepEqual(stored, { size: 'large', zoom: 100, contrast: true, spacing: false, cursor: false, guide: false }, 'the app\'s own shape');
      await page.keyboard.press('Escape');
      assert.equal(await page.locator('#reading-panel').isVisible(), false, 'Escape closes the panel');
      // The next crawlable page has it from its first paint (the head script), before the site script.
      await page.goto(`${base}/portal/site/news_center/notice.html`, { waitUntil: 'commit' });
      await page.waitForSelector('main h1', { state: 'attached' });
      assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-text-size')), 'large');
      // And the app.
      await page.goto(`${base}/portal/#/`);
      await heading(page).catch(() => {});
      const root = await page.evaluate(() => [document.documentElement.getAttribute('data-text-size'), document.documentElement.getAttribute('data-contrast')]);
      assert.deepEqual(root, ['large', 'high']);
    },
  },
  {
    name: "crawlable: 复制链接 copies the page's crawlable address and 二维码 loads its chunk only when asked",
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
    async run({ page, base }) {
      const article = await anArticle(base);
      const chunks = [];
      page.on('request', (r) => r.url().includes('site-qr') && chunks.push(r.url()));
      await page.goto(`${base}/portal/site/article/${article.id}.html`);
      await enhanced(page);
      const canonical = await page.locator('link[rel=canonical]').getAttribute('href');
      assert.match(canonical, new RegExp(`/portal/site/article/${article.id}\\.html$`));
      await page.getByRole('button', { name: '复制链接' }).click();
      await page.getByRole('status').filter({ hasText: '链接已复制' }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), canonical);
      assert.deepEqual(chunks, [], 'no QR encoder before it is asked for');
      await page.getByRole('button', { name: '二维码' }).click();
      await page.getByRole('img', { name: '本文链接的二维码' }).waitFor();
      assert.equal(chunks.length, 1);
      assert.equal(await page.getByRole('button', { name: '二维码' }).getAttribute('aria-expanded'), 'true');
    },
  },
  {
    name: 'crawlable: axe finds nothing serious or critical on an article and a list page, on a desktop and a phone',
    async run({ page, base }) {
      const article = await anArticle(base);
      const problems = [];
      for (const viewport of [{ width: 1366, height: 768 }, { width: 412, height: 915 }]) {
        await page.setViewportSize(viewport);
        for (const path of [`/portal/site/article/${article.id}.html`, '/portal/site/news_center/notice.html']) {
          await page.goto(`${base}${path}`);
          await enhanced(page);
          // With the panels the script opens, open (on a phone 关怀版's panel lies over the menu button).
          if (viewport.width < 768) await page.getByRole('button', { name: '菜单' }).click();
          await page.getByRole('button', { name: '关怀版' }).click();
          const { violations } = await new AxeBuilder({ page })
            .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
            .analyze();
          for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
            problems.push(`${viewport.width} ${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 2).join(', ')}`);
          }
        }
      }
      assert.deepEqual(problems, []);
    },
  },
];
