// Issue 4's cases: real content on every route, media, accessibility, layouts, screenshots.
import assert from 'node:assert/strict';
import { join } from 'node:path';

import AxeBuilder from '@axe-core/playwright';

import { SPEC_ROUTES, api, heading, open } from './support.mjs';

/** A string from the API that the route's page must show. */
async function expectedText(base, tree, route) {
  const path = route.split('?')[0];
  const find = (list) => {
    for (const c of list) {
      if (c.url === path) return c;
      const hit = find(c.subCategory ?? []);
      if (hit) return hit;
    }
    return undefined;
  };
  if (route.startsWith('/party/detail')) {
    return (await api(base, `/article/detail?id=${route.split('=')[1]}`)).title;
  }
  const category = find(tree);
  if (!category) return null;
  if (category.type === 'group') return category.name;
  const list = await api(base, `/article/list?categoryId=${category.id}&page=1&size=1`);
  const first = list.content[0];
  if (category.type === 'list') return first.title;
  const detail = await api(base, `/article/detail?id=${first.id}`);
  return detail.content.replace(/<[^>]+>/g, ' ').trim().split(/\s+/)[0].slice(0, 20);
}

export const contentTests = [
  {
    name: 'every route shows content that came from the API',
    async run({ page, base }) {
      const tree = (await api(base, '/category/list')).content;
      for (const route of SPEC_ROUTES) {
        if (route === '/') continue;
        const text = await expectedText(base, tree, route);
        assert.ok(text, `no API content for ${route}`);
        await open(page, base, route);
        await heading(page);
        await page.locator('main').getByText(text, { exact: false }).first().waitFor({ timeout: 10_000 });
      }
    },
  },
  {
    name: 'the home page: carousel, news tabs, business tiles, figures, partners',
    async run({ page, base }) {
      const notices = await api(base, '/article/list?categoryId=23&page=1&size=6');
      await open(page, base, '/');
      const carousel = page.locator('[aria-roledescription="carousel"]');
      await carousel.waitFor();
      const first = await carousel.locator('[aria-roledescription="slide"]:not([hidden]) h2').textContent();
      await page.getByRole('button', { name: '下一张' }).click();
      const second = await carousel.locator('[aria-roledescription="slide"]:not([hidden]) h2').textContent();
      assert.notEqual(first, second);
      await page.getByRole('button', { name: /暂停/ }).click();
      await page.getByRole('button', { name: /播放/ }).waitFor();
      for (const img of await carousel.locator('img').all()) assert.ok((await img.getAttribute('alt')).length > 4);
      await page.getByRole('tab', { name: '通知公告' }).click();
      await page.getByRole('tabpanel').getByText(notices.content[0].title).waitFor();
      await page.getByRole('tab', { name: '通知公告' }).press('ArrowLeft');
      assert.equal(await page.getByRole('tab', { name: '媒体报道' }).getAttribute('aria-selected'), 'true');
      assert.equal(await page.locator('.home-business .tile').count(), 5);
      assert.ok((await page.locator('.partner-list a').count()) >= 5);
    },
  },
  {
    name: 'the carousel does not move by itself under reduced motion',
    async run({ page, base }) {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await open(page, base, '/');
      await page.getByRole('button', { name: /播放/ }).waitFor();
    },
  },
  {
    name: 'back from a detail returns to the same page number and scroll position',
    async run({ page, base }) {
      const second = await api(base, '/article/list?categoryId=21&page=2&size=10');
      await open(page, base, '/news_center/company_announcement/1');
      await heading(page);
      await page.getByRole('button', { name: '第 2 页' }).click();
      const last = page.getByRole('link', { name: second.content.at(-1).title });
      await last.scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, 200);
      await page.waitForTimeout(200);
      const before = await page.evaluate(() => window.scrollY);
      assert.ok(before > 100, `scrolled down (${before})`);
      await last.click();
      await heading(page);
      await page.goBack();
      await last.waitFor();
      await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 5, before, { timeout: 5000 }).catch(async (e) => {
        throw new Error(`scroll ${await page.evaluate(() => window.scrollY)} != ${before}: ${e.message}`);
      });
      assert.equal(await page.getByRole('button', { name: '第 2 页' }).getAttribute('aria-current'), 'page');
    },
  },
  {
    name: 'attachments download through the request layer',
    async run({ page, base }) {
      const detail = await api(base, '/article/detail?id=2302');
      await open(page, base, '/article/2302');
      await heading(page);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: detail.attachments[0].name }).click(),
      ]);
      assert.equal(download.suggestedFilename(), detail.attachments[0].name);
    },
  },
  {
    name: 'the promotional video plays, and a missing video gets a Chinese message',
    async run({ page, context, base }) {
      await open(page, base, '/about/promotional-video');
      const video = page.locator('.video video');
      await video.waitFor();
      assert.ok(await video.getAttribute('poster'));
      await page.waitForFunction(() => document.querySelector('.video video')?.readyState >= 1, null, { timeout: 10_000 });
      await context.route(/\/portal\/api\/files\/videos\//, (route) => route.fulfill({ status: 404, body: '' }));
      await page.reload();
      await page.getByText('视频暂时无法播放。').waitFor();
    },
  },
  {
    name: 'the honours gallery opens in an accessible lightbox',
    async run({ page, base }) {
      await open(page, base, '/about/honor');
      const first = page.getByRole('button', { name: /^查看大图/ }).first();
      await first.waitFor();
      await first.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const caption = await dialog.locator('figcaption').textContent();
      await page.keyboard.press('ArrowRight');
      assert.notEqual(await dialog.locator('figcaption').textContent(), caption);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    },
  },
  {
    name: 'axe finds no serious or critical violation on any route',
    async run({ page, base }) {
      const problems = [];
      for (const route of [...SPEC_ROUTES, '/article/2101', '/no/such/page']) {
        await open(page, base, route);
        await heading(page);
        await page.waitForLoadState('networkidle');
        const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
          problems.push(`${route}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
        }
        const levels = await page.$$eval('main h1, main h2, main h3, main h4', (hs) => hs.map((h) => Number(h.tagName[1])));
        for (let i = 1; i < levels.length; i += 1) {
          if (levels[i] > levels[i - 1] + 1) problems.push(`${route}: heading h${levels[i - 1]} followed by h${levels[i]}`);
        }
        const noAlt = await page.$$eval('img:not([alt])', (imgs) => imgs.length);
        if (noAlt) problems.push(`${route}: ${noAlt} images without alt`);
      }
      assert.deepEqual(problems, []);
    },
  },
  {
    name: 'layouts hold at 1366x768 and 390x844 and screenshots are saved',
    async run({ page, base, artifacts }) {
      for (const [width, height] of [
        [1366, 768],
        [390, 844],
      ]) {
        await page.setViewportSize({ width, height });
        for (const route of SPEC_ROUTES) {
          await open(page, base, route);
          await heading(page);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `${route} at ${width}px scrolls sideways by ${overflow}px`);
        }
        for (const [name, route] of [
          ['home', '/'],
          ['list', '/news_center/company_announcement/1'],
          ['detail', '/article/2101'],
        ]) {
          await open(page, base, route);
          await heading(page);
          await page.waitForLoadState('networkidle');
          await page.screenshot({ path: join(artifacts, `${name}-${width}x${height}.png`), fullPage: true });
        }
      }
    },
  },
];
