// The end-to-end cases. Each gets a fresh browser context and page.
import assert from 'node:assert/strict';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';

import { HOSTILE_ARTICLE, SPEC_ROUTES, api, heading, open, takenOver } from './support.mjs';

export const tests = [
  {
    name: 'the portal loads with the page, its section and the company name as title and the category menu',
    async run({ page, base, consoleErrors }) {
      const site = await api(base, '/site');
      const tree = (await api(base, '/category/list')).content;
      await open(page, base, '/news_center/notice');
      await heading(page);
      assert.equal(await page.title(), `通知公告 - 新闻中心 - ${site.companyName}`);
      const top = await page.locator('nav[aria-label="主导航"] .menu__top').allTextContents();
      const expected = tree.filter((c) => !c.hidden).map((c) => c.name);
      assert.deepEqual(top.map((t) => t.trim()), expected);
      await page.getByRole('button', { name: '新闻中心' }).click();
      // The menu's entry (the page's 栏目导航 has one of the same name).
      await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '媒体报道' }).click();
      assert.equal(await heading(page, '媒体报道'), '媒体报道');
      assert.match(page.url(), /\/portal\/news_center\/media_coverage\/2$/);
      const footer = await page.locator('footer').textContent();
      assert.ok(footer.includes(site.icpNumber) && footer.includes(site.phone), footer);
      assert.equal(await page.locator(`footer a[href="${site.icpUrl}"]`).count(), 1);
      assert.deepEqual(consoleErrors, []);
    },
  },
  {
    name: 'an article reads whole without JavaScript at its real URL, and is the same page with it',
    async run({ page, context, base }) {
      const article = (await api(base, '/article/list?categoryId=21&page=1&size=1')).content[0];
      const detail = await api(base, `/article/detail?id=${article.id}`);
      const url = `${base}/portal/article/${article.id}`;
      const bare = await context.browser().newContext({ javaScriptEnabled: false });
      try {
        const reader = await bare.newPage();
        const answer = await reader.goto(url);
        assert.equal(answer.status(), 200);
        assert.equal((await reader.locator('main h1').textContent()).trim(), detail.title);
        assert.match(await reader.title(), new RegExp(`^${detail.title} - `));
        const first = (await reader.locator('.article__body p').first().textContent()).trim();
        assert.ok(first.length > 20 && detail.content.includes(first.slice(0, 20)), 'the body is on the page');
        assert.equal(reader.url(), url, 'no redirect without JavaScript');
      } finally {
        await bare.close();
      }
      await page.goto(url);
      await takenOver(page);
      assert.equal(page.url(), url);
      assert.equal(await heading(page, detail.title), detail.title);
    },
  },
  {
    name: 'site search finds an article by a two-character word, pages, keeps the keyword on reload and says when nothing matches',
    async run({ page, base }) {
      const expected = await api(base, `/article/search?keyword=${encodeURIComponent('班列')}&page=1&size=10`);
      assert.ok(expected.totalElements > 10, 'enough results to page');
      await open(page, base, '/');
      const box = page.locator('header form[role=search]');
      await box.getByRole('searchbox', { name: '站内搜索' }).fill('班列');
      await box.getByRole('button', { name: '搜索' }).click();
      await page.waitForURL(/\/portal\/search\?q=%E7%8F%AD%E5%88%97$/);
      await page.getByText(`共 ${expected.totalElements} 条与“班列”相关的结果`).waitFor();
      const first = page.locator('.search-results li a').first();
      assert.equal((await first.textContent()).trim(), expected.content[0].title);
      assert.ok((await page.locator('.search-results mark').count()) > 0, 'matches are marked');
      assert.ok((await page.locator('.search-results mark').allTextContents()).every((t) => t === '班列'));
      // axe on the results page.
      const { violations } = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.length}`), []);
      // Page 2, then a reload keeps keyword and page.
      const second = await api(base, `/article/search?keyword=${encodeURIComponent('班列')}&page=2&size=10`);
      await page.getByRole('link', { name: '第 2 页' }).click();
      await page.waitForURL(/&page=2$/);
      await page.locator('.search-results li a', { hasText: second.content[0].title }).first().waitFor();
      await page.reload();
      await page.locator('.search-results li a', { hasText: second.content[0].title }).first().waitFor();
      assert.equal(await page.locator('main form[role=search] input').inputValue(), '班列');
      // A word no article has.
      await page.locator('main form[role=search] input').fill('火星基地');
      await page.locator('main form[role=search]').getByRole('button', { name: '搜索' }).click();
      await page.getByText('没有找到与“火星基地”相关的内容。').waitFor();
      // A keyword of spaces is not sent.
      await page.locator('main form[role=search] input').fill('   ');
      await page.locator('main form[role=search]').getByRole('button', { name: '搜索' }).click();
      await page.getByText('请输入 1 到 50 个字的关键词。').waitFor();
    },
  },
  {
    name: 'content pages show what the API holds',
    async run({ page, base }) {
      const list = await api(base, '/article/list?categoryId=21&page=1&size=10');
      await open(page, base, '/news_center/company_announcement/1');
      await page.getByRole('link', { name: list.content[0].title }).waitFor();
      assert.equal(
        await page.locator('link[rel=alternate][type="application/rss+xml"]').getAttribute('href'),
        '/portal/feed/21.xml',
        'the list announces its feed',
      );
      const detail = await api(base, `/article/detail?id=${list.content[0].id}`);
      await page.getByRole('link', { name: list.content[0].title }).click();
      assert.equal(await heading(page, detail.title), detail.title);
      assert.match(page.url(), new RegExp(`/portal/article/${detail.id}$`));
      await page.reload();
      assert.equal(await heading(page), detail.title, 'a shared link shows the same article');
    },
  },
  {
    name: 'paging the news list and coming back from a detail keeps the page',
    async run({ page, base }) {
      const second = await api(base, '/article/list?categoryId=22&page=2&size=10');
      await open(page, base, '/news_center/media_coverage/2');
      await heading(page);
      await page.getByRole('link', { name: '第 2 页' }).click();
      const first = page.getByRole('link', { name: second.content[0].title });
      await first.waitFor();
      await first.click();
      await heading(page);
      await page.goBack();
      await first.waitFor();
      assert.equal(await page.getByRole('link', { name: '第 2 页' }).getAttribute('aria-current'), 'page');
      // The page is in the URL: a reload (or a shared link) opens the same page.
      assert.match(page.url(), /\/portal\/news_center\/media_coverage\/2\?page=2$/);
      await page.reload();
      await first.waitFor();
      assert.equal(await page.getByRole('link', { name: '第 2 页' }).getAttribute('aria-current'), 'page');
      // Page 1 drops the query again (the app driving the page: it hydrates after the first paint).
      await takenOver(page);
      await page.getByRole('link', { name: '第 1 页' }).click();
      await page.waitForURL(/\/portal\/news_center\/media_coverage\/2$/);
    },
  },
  {
    name: 'an error envelope shows the notification; a missing article is its page’s to say alone',
    async run({ page, base }) {
      // A missing article: the page says 文章不存在, and no notice says it again over the header (the
      // review found both).
      // Its answer asked again in the browser once the app runs (the server's 404 is not handed over).
      const asked = page
        .waitForResponse((r) => r.url().includes('/portal/api/article/detail?id=999999'), { timeout: 15_000 })
        .catch(() => null);
      await open(page, base, '/article/999999');
      assert.equal(await heading(page, '文章不存在'), '文章不存在');
      await takenOver(page);
      assert.ok(await asked, 'the browser asked for the article');
      await page.waitForTimeout(300);
      assert.equal(await page.locator('.notification').count(), 0, 'no notice beside the page’s own message');
      // A failure the page does not show itself (the API answers 503 in the browser): the notice.
      await page.route(/\/portal\/api\/article\/detail\?id=999998\b/, (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 503, msg: '服务暂不可用，请稍后再试。' }) }),
      );
      await open(page, base, '/article/999998');
      const note = page.locator('.notification');
      await note.waitFor();
      assert.match(await note.textContent(), /暂不可用/);
      const box = await note.boundingBox();
      // Centred in the page's width: the scrollbar's room is kept (scrollbar-gutter) and is not page.
      const width = await page.evaluate(() => document.documentElement.clientWidth);
      assert.ok(Math.abs(box.x + box.width / 2 - width / 2) < 2, `centred: ${box.x + box.width / 2} in ${width}`);
      assert.ok(box.y >= 64 && box.y <= 66, `top 65 px, was ${box.y}`);
      await note.waitFor({ state: 'detached', timeout: 3000 });
    },
  },
  {
    name: 'a 401 reaches the external login URL',
    async run({ page, context, base }) {
      const site = await api(base, '/site');
      await context.route(`${site.loginUrl}**`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<title>统一登录</title><h1>统一登录</h1>' }),
      );
      await open(page, base, '/');
      // A stored system token the CMS does not accept: the gateway passes it on, the CMS says 401.
      await page.evaluate(() => {
        localStorage.setItem('systemToken', 'expired-token');
        localStorage.setItem('tokenExpiry', String(Date.now() + 3_600_000));
      });
      // The page is rendered for everyone; once hydrated, its answers are asked again with the
      // token, which the CMS refuses: on to the login page.
      await page.goto(`${base}/portal/news_center/notice`);
      await page.waitForURL(`${site.loginUrl}**`, { timeout: 10_000 });
      assert.equal(await page.title(), '统一登录');
    },
  },
  {
    name: 'an unknown route shows the Chinese not-found page',
    async run({ page, base }) {
      await open(page, base, '/no/such/page');
      assert.equal(await heading(page, '页面不存在'), '页面不存在');
      await page.getByRole('link', { name: '返回首页' }).click();
      await page.locator('[aria-roledescription="carousel"]').waitFor();
    },
  },
  {
    name: 'a page chunk that fails to load shows an error panel with retry',
    async run({ page, context, base, consoleErrors }) {
      await context.route(/page-news\.[0-9a-f]+\.chunk\.js$/, (route) => route.abort());
      await open(page, base, '/news_center/notice');
      const panel = page.locator('.error-panel');
      await panel.waitFor();
      assert.match(await panel.textContent(), /页面加载失败/);
      assert.match(await panel.textContent(), /错误信息：chunk \S+，原因 load/);
      assert.ok(consoleErrors.some((e) => /chunk load failure: chunk \S+ \(load\)/.test(e)), consoleErrors.join('\n'));
      await context.unroute(/page-news\.[0-9a-f]+\.chunk\.js$/);
      await page.getByRole('button', { name: '重新加载' }).click();
      assert.equal(await heading(page, '通知公告'), '通知公告');
    },
  },
  {
    name: 'the menu works by keyboard',
    async run({ page, base }) {
      await open(page, base, '/about/honor');
      await heading(page);
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.textContent), '跳到主要内容');
      const news = page.getByRole('button', { name: '新闻中心' });
      await news.focus();
      await page.keyboard.press('Enter');
      assert.equal(await news.getAttribute('aria-expanded'), 'true');
      await page.keyboard.press('Escape');
      assert.equal(await news.getAttribute('aria-expanded'), 'false');
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(() => document.activeElement?.textContent === '公司要闻');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      assert.equal(await heading(page, '媒体报道'), '媒体报道');
    },
  },
  {
    name: 'on a phone the menu opens from its button',
    viewport: { width: 390, height: 844 },
    async run({ page, base, artifacts }) {
      await open(page, base, '/news_center/company_announcement/1');
      await heading(page);
      const toggle = page.getByRole('button', { name: '菜单' });
      assert.ok(await toggle.isVisible());
      assert.ok(!(await page.getByRole('button', { name: '业务板块' }).isVisible()));
      await toggle.click();
      await page.getByRole('button', { name: '业务板块' }).click();
      await page.getByRole('link', { name: '海外仓', exact: true }).click();
      assert.equal(await heading(page, '海外仓'), '海外仓');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px)`);
      await page.screenshot({ path: join(artifacts, 'phone-business.png') });
    },
  },
  {
    name: 'an article full of script, handlers, javascript: and data: links, SVG and overlays renders inert',
    async run({ page, base, consoleErrors }) {
      await page.addInitScript(() => {
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
      });
      await open(page, base, `/article/${HOSTILE_ARTICLE.id}`);
      const title = await heading(page);
      assert.ok(title.includes('<script>'), `the title is text: ${title}`);
      await page.getByText('正文之后').waitFor();
      // Click what a visitor could click; nothing runs.
      for (const id of ['#xss-link', '#xss-data']) {
        if (await page.locator(id).count()) await page.locator(id).click({ timeout: 2000 }).catch(() => {});
      }
      await page.waitForTimeout(500);
      assert.equal(await page.evaluate(() => window.__xss), undefined, 'a payload ran');
      const body = page.locator('.article__body');
      assert.equal(await body.locator('script, iframe, object, style, form, svg').count(), 0);
      assert.equal(await body.locator('[onerror], [onload], [style]').count(), 0);
      const hrefs = await body.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      assert.ok(hrefs.every((h) => !h || !/^(javascript|data):/i.test(h)), hrefs.join(' '));
      // Nothing covers the page: the header is what sits at its top.
      const onTop = await page.evaluate(() => document.elementFromPoint(window.innerWidth / 2, 10)?.closest('.site-header') != null);
      assert.ok(onTop, 'the header is on top, not an overlay');
      assert.ok(await page.locator('.site-header').isVisible(), 'the page is not hidden');
      assert.deepEqual(await page.evaluate(() => window.__violations), []);
      assert.deepEqual(consoleErrors.filter((e) => !/Failed to load resource/.test(e)), []);
    },
  },
];
