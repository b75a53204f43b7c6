// Issue 25: the page the gateway draws (gateway/src/first_paint) is the app's first paint.
import assert from 'node:assert/strict';
import { SAME_AS_ROUTES, takenOver } from './support.mjs';

/** What the first paint shows, by box: the header, the menu, 头条 and the first photo. */
const BOXES = ['.site-header', '.brand', '.menu__list', '.home-lead__title', '.carousel__slide.is-active img', '.carousel__controls'];

const boxesOf = (page) =>
  page.evaluate((selectors) => {
    const out = {};
    for (const s of selectors) {
      const r = document.querySelector(s)?.getBoundingClientRect();
      out[s] = r ? [r.x, r.y, r.width, r.height].map((v) => Math.round(v)) : null;
    }
    return out;
  }, BOXES);

const BOOTED = /\/portal\/api\/(site|category\/list)$|\/portal\/api\/article\/list\?categoryId=\d+&page=1&size=(12|8)$/;

export const firstPaintTests = [
  {
    name: 'the server-drawn first paint: the app takes over in the same boxes, asking the API for nothing the page holds',
    async run({ page, browser, base }) {
      for (const viewport of [
        { width: 1366, height: 768 },
        // Tall enough that the whole drawn top and what follows it are on screen.
        { width: 1350, height: 1200 },
        { width: 412, height: 823 },
      ]) {
        // The page exactly as the gateway drew it: the app's scripts never arrive (JavaScript
        // stays on, so the page is the one a visitor sees before they run, <noscript> hidden).
        const drawn = await browser.newContext({ viewport, locale: 'zh-CN' });
        const still = await drawn.newPage();
        await still.route(/\/portal\/assets\/(runtime|main)\.[0-9a-f]+\.js$/, (route) => route.abort());
        await still.goto(`${base}/portal/`);
        await still.locator('.carousel__slide.is-active img').evaluate((img) => img.decode());
        const before = await boxesOf(still);
        // The page is taller than the screen from the first paint, as it is once the app adds the
        // sections below: a desktop's scrollbar is there from the start and moves nothing when they
        // come (headless Chromium draws no scrollbar, so the height is what is checked).
        assert.ok(
          await still.evaluate(() => document.documentElement.scrollHeight > window.innerHeight),
          `the drawn home page is taller than the ${viewport.height} px screen`,
        );
        await drawn.close();
        for (const [selector, box] of Object.entries(before)) assert.ok(box, `${selector} is drawn by the gateway (${viewport.width} px)`);

        // With JavaScript: the app's first render replaces it.
        await page.setViewportSize(viewport);
        const asked = [];
        const documents = [];
        const onRequest = (r) => {
          if (BOOTED.test(r.url())) asked.push(r.url());
          if (r.resourceType() === 'document') documents.push(r.url());
        };
        page.on('request', onRequest);
        await page.addInitScript(() => {
          window.__shifts = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(`${base}/portal/`);
        await page.waitForSelector('.route-announcer', { state: 'attached' });
        await page.waitForLoadState('networkidle');
        const after = await boxesOf(page);
        page.off('request', onRequest);
        assert.deepEqual(after, before, `the app draws the same boxes as the gateway (${viewport.width} px): ${JSON.stringify(after)} vs ${JSON.stringify(before)}`);
        assert.deepEqual(asked, [], 'the answers the page holds are not asked for again');
        assert.equal(documents.length, 1, 'one document load');
        assert.equal(await page.evaluate(() => window.__shifts), 0, 'no layout shift');
        // The drawn photo is the largest paint, and the app's scripts are asked for only after it
        // (else the app's copy of the photo, painted later, would be the largest paint).
        const order = await page.evaluate(async () => {
          const lcp = await new Promise((resolve) =>
            new PerformanceObserver((list) => resolve(list.getEntries().at(-1))).observe({ type: 'largest-contentful-paint', buffered: true }),
          );
          const main = performance.getEntriesByType('resource').find((r) => /\/assets\/main\.[0-9a-f]+\.js$/.test(r.name));
          return { url: lcp.url, paint: lcp.startTime, asked: main?.startTime };
        });
        assert.match(order.url, /\/portal\/api\/files\//, `the largest paint is the drawn photo: ${JSON.stringify(order)}`);
        assert.ok(order.asked >= order.paint, `main.js is asked for after the photo's paint: ${JSON.stringify(order)}`);
        // The drawn controls are the app's now: the carousel pauses.
        await page.getByRole('button', { name: /暂停/ }).first().click();
        await page.getByRole('button', { name: /播放/ }).first().waitFor();
      }
    },
  },
  {
    name: 'a deep link paints the page the gateway drew for it (never the home page), and the app takes over in the same boxes',
    async run({ page, browser, base }) {
      const article = (await (await fetch(`${base}/portal/api/article/list?page=1&size=1`)).json()).result.content[0];
      const tree = (await (await fetch(`${base}/portal/api/category/list`)).json()).result.content;
      const notice = tree.flatMap((c) => [c, ...(c.subCategory ?? [])]).find((c) => c.url === '/news_center/notice');
      const profile = tree.flatMap((c) => [c, ...(c.subCategory ?? [])]).find((c) => c.url === '/about/company_profile');
      const boxes = ['.section-nav', '.breadcrumb', 'main h1', '.article__meta', '.article__tools', '.article__body > p', '.content-page__header .lead', '.article-item'];
      const boxesHere = (p) =>
        p.evaluate((selectors) => {
          const out = {};
          for (const s of selectors) {
            const r = document.querySelector(s)?.getBoundingClientRect();
            if (r) out[s] = [r.x, r.y, r.width, r.height].map((v) => Math.round(v));
          }
          return out;
        }, boxes);
      for (const viewport of [
        { width: 412, height: 823 },
        { width: 1366, height: 768 },
      ]) {
        for (const [hash, heading] of [
          [`#/article/${article.id}`, article.title],
          ['#/news_center/notice?page=2', notice.name],
          ['#/about/company_profile', profile.name],
        ]) {
          // What is on screen before the app's scripts run (they never arrive here).
          const drawn = await browser.newContext({ viewport, locale: 'zh-CN' });
          const still = await drawn.newPage();
          await still.route(/\/portal\/assets\/(runtime|main)\.[0-9a-f]+\.js$/, (route) => route.abort());
          await still.goto(`${base}/portal/${hash}`, { waitUntil: 'load' });
          await still.locator('main[data-drawn] h1').waitFor();
          assert.equal(await still.locator('main[data-drawn] h1').textContent(), heading, `${hash}: the gateway drew the page`);
          assert.equal(await still.locator('.boot-home').count(), 0, `${hash}: in place of the home page`);
          assert.ok(await still.locator('.brand__name').isVisible(), `${hash}: under the header`);
          const before = await boxesHere(still);
          await drawn.close();

          // With JavaScript: the drawn page is the largest paint, the app's scripts are asked for
          // after it, and the app's first render draws the same boxes (no skeleton in between).
          await page.setViewportSize(viewport);
          await page.goto('about:blank');
          await page.addInitScript(() => {
            window.__shifts = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value;
            }).observe({ type: 'layout-shift', buffered: true });
            // A placeholder in between (a skeleton, a busy region) moves nothing but is a flash.
            window.__placeholders = [];
            new MutationObserver((records) => {
              for (const r of records)
                for (const n of r.addedNodes)
                  if (n.nodeType === 1 && (n.matches('[class*=skeleton], [aria-busy=true]') || n.querySelector('[class*=skeleton], [aria-busy=true]')))
                    window.__placeholders.push(n.outerHTML.slice(0, 120));
            }).observe(document, { childList: true, subtree: true });
          });
          await page.goto(`${base}/portal/${hash}`);
          await page.waitForSelector('.route-announcer', { state: 'attached' });
          await page.waitForLoadState('networkidle');
          assert.equal(await page.locator('main[data-drawn]').count(), 0, `${hash}: the app's page replaced the drawn one`);
          const after = await boxesHere(page);
          for (const [selector, box] of Object.entries(before)) {
            assert.deepEqual(after[selector], box, `${hash} (${viewport.width} px): ${selector} where the gateway drew it`);
          }
          assert.equal(await page.evaluate(() => window.__shifts), 0, `${hash} (${viewport.width} px): no layout shift`);
          assert.deepEqual(await page.evaluate(() => window.__placeholders), [], `${hash} (${viewport.width} px): no placeholder between the drawn page and the app's`);
          const order = await page.evaluate(async () => {
            const lcp = await new Promise((resolve) =>
              new PerformanceObserver((list) => resolve(list.getEntries()[0])).observe({ type: 'largest-contentful-paint', buffered: true }),
            );
            const main = performance.getEntriesByType('resource').find((r) => /\/assets\/main\.[0-9a-f]+\.js$/.test(r.name));
            return { paint: lcp.startTime, asked: main?.startTime };
          });
          assert.ok(order.asked >= order.paint, `${hash}: main.js is asked for after the drawn page's paint: ${JSON.stringify(order)}`);
        }
      }
      // 字号大 pressed on the drawn page, before the app's scripts are in, is pressed again on the
      // app's page once it has taken over (a visitor's early press is not lost).
      let release;
      const held = new Promise((resolve) => (release = resolve));
      const app = /\/portal\/assets\/main\.[0-9a-f]+\.js$/;
      await page.route(app, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('about:blank');
      await page.goto(`${base}/portal/#/article/${article.id}`);
      await page.locator('main[data-drawn]').getByRole('button', { name: '正文字号大' }).click();
      release();
      await takenOver(page);
      await page.locator('.article__body--large').waitFor();
      assert.equal(await page.getByRole('button', { name: '正文字号大' }).getAttribute('aria-pressed'), 'true', 'the app shows 大 chosen');
      await page.unroute(app);
      // And the app's own controls work: back to 中.
      await page.getByRole('button', { name: '正文字号中' }).click();
      await page.locator('.article__body--medium').waitFor();

      // A page the gateway does not draw (a single page with a video): the home page stays hidden, the header shows.
      const drawn = await browser.newContext({ locale: 'zh-CN' });
      const still = await drawn.newPage();
      await still.route(/\/portal\/assets\/(runtime|main)\.[0-9a-f]+\.js$/, (route) => route.abort());
      await still.goto(`${base}/portal/#/about/promotional-video`, { waitUntil: 'load' });
      assert.equal(await still.locator('main[data-drawn]').count(), 0, 'a page with a video is not drawn');
      assert.ok(!(await still.locator('.boot-home').isVisible()), 'the home page is not shown on a deep link');
      assert.ok(await still.locator('.brand__name').isVisible(), 'the header is');
      await still.goto(`${base}/portal/#/`, { waitUntil: 'load' });
      await still.reload({ waitUntil: 'load' });
      assert.ok(await still.locator('.boot-home .home-lead').isVisible(), 'the home page shows at #/');
      await drawn.close();
    },
  },
  {
    name: 'a search begun on the drawn page before the app runs is kept: the keyword stays in the app\'s box with the focus, one submitted shows its results',
    async run({ page, base }) {
      const app = /\/portal\/assets\/main\.[0-9a-f]+\.js$/;
      const box = page.locator('.site-header__tools form[role=search] input[name=q]');
      for (const submit of [false, true]) {
        // The app's scripts are held back until the visitor has typed on the drawn header.
        let release;
        const held = new Promise((resolve) => (release = resolve));
        await page.route(app, async (route) => {
          await held;
          await route.continue();
        });
        await page.goto('about:blank');
        await page.goto(`${base}/portal/#/`);
        await page.locator('main.boot-home').waitFor();
        await box.click();
        await page.keyboard.type('班列');
        if (submit) await page.keyboard.press('Enter');
        release();
        await takenOver(page);
        await page.unroute(app);
        if (submit) {
          await page.locator('.search-results li a').first().waitFor();
          assert.equal(await page.locator('main form[role=search] input').inputValue(), '班列');
          assert.equal(new URL(page.url()).search, '', 'the drawn form did not submit the page (to /portal/?q=)');
        } else {
          // The app puts it there once its box is in (an effect after the takeover): waited for.
          await page.waitForFunction(() => document.querySelector('.site-header__tools form[role=search] input[name=q]')?.value === '班列', null, { timeout: 10_000 });
          assert.ok(await box.evaluate((input) => document.activeElement === input), 'with the focus');
          await page.keyboard.type('运输');
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => decodeURIComponent(location.hash) === '#/search?q=班列运输');
        }
      }
    },
  },
  {
    name: 'a deep link asks for its page chunk and its first answer beside the app\'s scripts, and the app takes that answer (one request)',
    async run({ page, base }) {
      const tree = (await (await fetch(`${base}/portal/api/category/list`)).json()).result.content;
      const notice = tree.flatMap((c) => [c, ...(c.subCategory ?? [])]).find((c) => c.url === '/news_center/notice');
      const article = (await (await fetch(`${base}/portal/api/article/list?page=1&size=1`)).json()).result.content[0];
      // The page's deep-link map (webpack's FirstPaintAssets) names the routes with a page of their
      // own, not those the app redirects (sameAs): their page is another route's.
      const served = await (await fetch(`${base}/portal/`)).text();
      const map = JSON.parse(/<script type="application\/json" id="portal-deep-link">([^<]*)<\/script>/.exec(served)[1]);
      assert.equal(map.r['/news_center/notice'], 'news', 'a list route is in the map');
      assert.ok(SAME_AS_ROUTES.length > 0);
      for (const [path] of SAME_AS_ROUTES) assert.equal(map.r[path], undefined, `${path} redirects: not in the map`);
      for (const [hash, answer, chunk, shown] of [
        [`#/article/${article.id}`, `/portal/api/article/detail?id=${article.id}`, /page-article\.[0-9a-f]+\.chunk\.js$/, article.title],
        ['#/news_center/notice?page=2', `/portal/api/article/list?categoryId=${notice.id}&page=2&size=10`, /page-news\.[0-9a-f]+\.chunk\.js$/, notice.name],
      ]) {
        // Who asked for each URL (Chrome's initiator): the page's own head script, or the app.
        const asked = [];
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Network.enable');
        cdp.on('Network.requestWillBeSent', ({ request, initiator }) => {
          const frames = [initiator.stack, initiator.stack?.parent].flatMap((s) => s?.callFrames ?? []);
          asked.push({ url: request.url.replace(base, ''), by: frames[0]?.url.replace(base, '') ?? initiator.type });
        });
        await page.goto('about:blank');
        await page.goto(`${base}/portal/${hash}`);
        await page.getByRole('heading', { level: 1, name: shown }).first().waitFor();
        await page.waitForLoadState('networkidle');
        await cdp.detach();
        const list = asked.map((a) => `${a.url} (${a.by})`).join(' ');
        const byPage = (test) => asked.some((a) => test(a.url) && a.by.split('#')[0] === '/portal/');
        assert.ok(byPage((u) => u === answer), `${hash}: the page's head script asks for ${answer}: ${list}`);
        assert.ok(byPage((u) => chunk.test(u)), `${hash}: and for the page's chunk: ${list}`);
        assert.equal(asked.filter((a) => a.url === answer).length, 1, `${hash}: the app takes the preloaded answer: ${list}`);
      }
    },
  },
];
