// Issue 4's cases: real content on every route, media, accessibility, layouts, screenshots.
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { SAME_AS_ROUTES, SPEC_ROUTES, api, heading, open, sweep } from './support.mjs';

/** A string from the API that the route's page must show (the per-route pass, pages.mjs). */
export async function expectedText(base, tree, route) {
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
    name: 'the home page: 头条, photo news, 要闻 beside 通知公告, 专题专栏, 党建, business, figures, partners',
    async run({ page, base }) {
      const tree = (await api(base, '/category/list')).content;
      const byUrl = (url, list = tree) => {
        for (const c of list) {
          if (c.url === url) return c;
          const hit = byUrl(url, c.subCategory ?? []);
          if (hit) return hit;
        }
        return undefined;
      };
      const news = await api(base, `/article/list?categoryId=${byUrl('/news_center/company_announcement/1').id}&page=1&size=12`);
      const notices = await api(base, `/article/list?categoryId=${byUrl('/news_center/notice').id}&page=1&size=8`);
      const lead = news.content.find((a) => a.lead) ?? news.content[0];
      assert.ok(news.content.some((a) => a.lead), 'the demo CMS flags a lead story');
      await page.addInitScript(() => {
        window.__shift = { total: 0, sources: [] };
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            if (e.hadRecentInput) continue;
            window.__shift.total += e.value;
            // What moved, where from and to, and when: a failure says which module did not hold its room.
            for (const s of e.sources) {
              const rect = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
              const node = s.node?.nodeType === 1 ? `${s.node.nodeName}.${s.node.className}` : (s.node?.parentElement ? `text in ${s.node.parentElement.nodeName}.${s.node.parentElement.className}` : '?');
              window.__shift.sources.push(`${node} ${rect(s.previousRect)} → ${rect(s.currentRect)} at ${Math.round(e.startTime)} ms (${e.value.toFixed(5)}; app ${document.documentElement.hasAttribute('data-app') ? 'running' : 'not yet running'})`);
            }
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await open(page, base, '/');

      // 头条: the flagged story, linked to its article.
      const leadLink = page.locator('.home-lead h2 a');
      await leadLink.waitFor();
      assert.equal(await leadLink.textContent(), lead.title);
      assert.equal(await leadLink.getAttribute('href'), `/portal/article/${lead.id}`);
      // Every module held its room while its data came: nothing moved.
      await page.locator('.home-lines li').first().waitFor();
      const shift = await page.evaluate(() => window.__shift);
      assert.equal(shift.total, 0, `layout shift on a cold load: ${shift.sources.join('; ')}`);

      // 图片新闻: the other stories with covers, captioned and linked; turns and pauses.
      const withCovers = news.content.filter((a) => a.cover && a.id !== lead.id);
      assert.ok(withCovers.length >= 3, `${withCovers.length} covers`);
      const carousel = page.getByRole('region', { name: '图片新闻' });
      const shown = () => carousel.locator('[aria-roledescription="slide"]:not([hidden]) h3').textContent();
      assert.equal(await shown(), withCovers[0].title);
      const link = carousel.locator('[aria-roledescription="slide"]:not([hidden]) a');
      assert.equal(await link.getAttribute('href'), `/portal/article/${withCovers[0].id}`);
      assert.equal(await link.locator('img').getAttribute('src'), withCovers[0].cover);
      await page.getByRole('button', { name: '下一张' }).click();
      assert.equal(await shown(), withCovers[1].title);
      await page.getByRole('button', { name: /暂停/ }).click();
      await page.getByRole('button', { name: /播放/ }).waitFor();

      // 要闻 and 通知公告 side by side on a desktop: one row, the lead not repeated.
      const newsColumn = page.getByRole('region', { name: '公司要闻' });
      const noticeColumn = page.getByRole('region', { name: '通知公告' });
      await noticeColumn.getByText(notices.content[0].title).waitFor();
      const [a, b] = [await newsColumn.boundingBox(), await noticeColumn.boundingBox()];
      assert.equal(Math.round(a.y), Math.round(b.y), 'side by side');
      assert.ok(b.x > a.x + a.width - 1, 'notices right of the news');
      assert.equal(await newsColumn.getByRole('link', { name: lead.title, exact: true }).count(), 0);
      // No line of a notice's title is cut across: each is shown whole or not at all (the review saw
      // the top half of a third line under the ellipsis of a clamped title).
      const lines = await noticeColumn.locator('.home-lines a').evaluateAll((links) =>
        links.map((a) => {
          // Where what is shown ends: the lowest bottom the link or anything in it clips at.
          const clips = [a, ...a.querySelectorAll('*')].filter((el) => getComputedStyle(el).overflowY !== 'visible');
          const shownTo = Math.min(...clips.map((el) => el.getBoundingClientRect().bottom));
          const range = document.createRange();
          range.selectNodeContents(a);
          const rects = [...range.getClientRects()].filter((r) => r.height > 0 && r.width > 0);
          return {
            title: a.textContent,
            cut: rects.some((r) => r.top < shownTo - 0.5 && r.bottom > shownTo + 0.5),
            hidden: rects.some((r) => r.top >= shownTo - 0.5),
          };
        }),
      );
      assert.deepEqual(lines.filter((l) => l.cut).map((l) => l.title), [], 'a line cut across');
      assert.ok(lines.some((l) => l.hidden), `a long title is clamped here: ${JSON.stringify(lines)}`);

      // 专题专栏: the topics the CMS lists under /topics, each to its landing page.
      const topics = byUrl('/topics').subCategory.filter((c) => !c.hidden);
      const strip = page.getByRole('region', { name: '专题专栏' });
      assert.deepEqual(
        await strip.locator('a').evaluateAll((links) => links.map((l) => l.getAttribute('href'))),
        topics.slice(0, 3).map((t) => `/portal${t.url}`),
      );
      await strip.getByRole('link', { name: new RegExp(topics[0].name) }).click();
      await page.getByRole('heading', { level: 1, name: topics[0].name }).waitFor();
      const topicList = await api(base, `/article/list?categoryId=${topics[0].id}&page=1&size=10`);
      await page.locator('main').getByText(topicList.content[0].title).first().waitFor();
      await page.goBack();

      // 党建: the party's activities and 清正廉洁.
      const party = page.getByRole('region', { name: '党建工会' });
      await party.getByRole('region', { name: '党建活动' }).locator('li a').first().waitFor();
      await party.getByRole('region', { name: '清正廉洁' }).locator('li a').first().waitFor();

      assert.equal(await page.locator('.home-business .tile').count(), 5);
      // The operator's figures and partners, from [site] of the shipped config.
      const site = await api(base, '/site');
      assert.equal(await page.locator('.home-figures li').count(), site.figures.length);
      assert.equal(await page.locator('.partner-list li').count(), site.partners.length);
    },
  },
  {
    name: 'one section structure: the menu is the same without JavaScript, every entry leads to content, duplicates redirect, 404s',
    async run({ page, base, browser }) {
      // The page as a visitor without JavaScript reads it.
      const plain = await browser.newContext({ javaScriptEnabled: false });
      const reader = await plain.newPage();
      await reader.goto(`${base}/portal/`);
      const menuOf = (p) => p.locator('nav[aria-label="主导航"]').locator('.menu__top, .menu__sub a').allTextContents();
      const served = (await menuOf(reader)).map((t) => t.trim());
      await plain.close();
      await open(page, base, '/');
      const nav = page.locator('nav[aria-label="主导航"]');
      await nav.locator('.menu__top').first().waitFor();
      const app = (await menuOf(page)).map((t) => t.trim());
      assert.deepEqual(app, served, 'the app shows the menu the server rendered');
      assert.ok(app.includes('信息公开') && app.includes('社会责任报告'), app.join(' '));

      // Every entry of the menu leads to a page of ≥ 400 characters of text, or to a list.
      const all = await nav.locator('a').evaluateAll((links) => links.map((l) => l.getAttribute('href')));
      // 客户服务's systems live elsewhere: each is an address the config lists (`[site.services]`).
      const services = (await api(base, '/site')).services.map((s) => s.url);
      const hrefs = all.filter((href) => href.startsWith('/portal/'));
      assert.deepEqual(all.filter((href) => !href.startsWith('/portal/')), services.filter((url) => !url.startsWith('/')));
      for (const href of hrefs) {
        await open(page, base, href.slice('/portal'.length));
        await heading(page);
        await page
          .locator('main .article__body, main .article-list > li, main .tile-list > li')
          .first()
          .waitFor({ timeout: 10_000 });
        const { chars, items } = await page.evaluate(() => ({
          chars: (document.querySelector('main .article__body')?.textContent ?? '').replace(/\s/g, '').length,
          // A list of articles or sections, or a list in the page's text (荣誉资质's gallery, the
          // organisation chart's departments).
          items: document.querySelectorAll('main .article-list > li, main .tile-list > li, main .article__body li').length,
        }));
        assert.ok(chars >= 400 || items >= 3, `${href}: ${chars} characters, ${items} items`);
      }

      // The group landing pages: every section, the ones the menu hides too, with its line and
      // what it holds (a page's summary; a list's newest items and count), in the server's page.
      await open(page, base, '/social_responsibility');
      await heading(page, '社会责任');
      const cards = page.locator('main .section-cards > li');
      await cards.first().waitFor();
      const names = (await cards.locator('h2 a').allTextContents()).map((n) => n.trim());
      for (const name of ['社会责任报告', '安全生产与环保', '乡村振兴与帮扶', '员工关爱', '社会影响']) {
        assert.ok(names.includes(name), `${name} on the landing page: ${names.join(' | ')}`);
      }
      assert.equal(await cards.locator('.section-card__summary').count(), names.length, 'each page section summarised');
      assert.equal(await page.getByText('本栏目内容正在建设中').count(), 0);
      const landing = await (await page.request.get(`${base}/portal/news_center`)).text();
      const notices = await api(base, `/article/list?categoryId=${(await api(base, '/category/list')).content.flatMap((c) => c.subCategory ?? []).find((c) => c.url === '/news_center/notice').id}&page=1&size=10`);
      assert.ok(landing.includes(notices.content[0].title.replace(/&/g, '&amp;')), '新闻中心 lists the newest notice');
      assert.ok(landing.includes(`共 ${notices.totalElements} 条`), '新闻中心 says how many notices there are');

      // The spec's duplicate routes go to the page they duplicate.
      for (const [from, to] of SAME_AS_ROUTES) {
        await open(page, base, from);
        await page.waitForURL(`${base}/portal${to}`);
        await heading(page);
      }

      // Unknown addresses: a 404, in Chinese, with the way home.
      for (const path of ['/portal/foo', '/portal/site/no/such/page.html']) {
        const response = await page.goto(`${base}${path}`);
        assert.equal(response.status(), 404, path);
        await page.getByRole('heading', { level: 1, name: '页面不存在' }).waitFor();
        await page.getByRole('link', { name: '返回首页' }).waitFor();
      }
      // An article that does not exist, at its address or its old crawlable one.
      for (const path of ['/portal/article/99999999', '/portal/site/article/99999999.html']) {
        const response = await page.goto(`${base}${path}`);
        assert.equal(response.status(), 404, path);
        await page.getByRole('heading', { level: 1, name: '文章不存在' }).waitFor();
      }
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
      await page.getByRole('link', { name: '第 2 页' }).click();
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
      assert.equal(await page.getByRole('link', { name: '第 2 页' }).getAttribute('aria-current'), 'page');
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
      // H.264 in MP4: what Safari and WeChat's browser play as well as Chromium and Firefox (a WebM
      // played nowhere on an iPhone, issue 47).
      assert.match(await video.evaluate((v) => v.currentSrc), /\.mp4$/);
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
    // Whether a layout holds (nothing past the screen at 1366, 768, 390 and 320 px) is the sweep's
    // (sweep.mjs), which loads every route once for all its checks; this only keeps the pictures.
    name: 'screenshots of the home page, a list and an article at 1366x768 and 390x844 are saved',
    async run({ page, base, artifacts }) {
      for (const [width, height] of [
        [1366, 768],
        [390, 844],
      ]) {
        await page.setViewportSize({ width, height });
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
