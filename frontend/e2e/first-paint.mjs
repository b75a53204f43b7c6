// Issue 25: the page the gateway draws (gateway/src/first_paint) is the app's first paint.
import assert from 'node:assert/strict';

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
    name: 'a deep link never shows the drawn home page, and the app starts from the page the gateway drew',
    async run({ page, browser, base }) {
      const list = (await (await fetch(`${base}/portal/api/article/list?page=1&size=1`)).json()).result.content[0];
      const deep = `${base}/portal/#/article/${list.id}`;
      // What is on screen before the app's scripts run (they never arrive here).
      const drawn = await browser.newContext({ locale: 'zh-CN' });
      const still = await drawn.newPage();
      await still.route(/\/portal\/assets\/(runtime|main)\.[0-9a-f]+\.js$/, (route) => route.abort());
      await still.goto(deep, { waitUntil: 'load' });
      assert.equal(await still.locator('.boot-home').count(), 1, 'the home page is in the page');
      assert.ok(!(await still.locator('.boot-home').isVisible()), 'but not shown on a deep link');
      assert.ok(await still.locator('.brand__name').isVisible(), 'the header is');
      await still.goto(`${base}/portal/#/`, { waitUntil: 'load' });
      await still.reload({ waitUntil: 'load' });
      assert.ok(await still.locator('.boot-home .home-lead').isVisible(), 'the home page shows at #/');
      await drawn.close();

      await page.goto(deep);
      await page.getByRole('heading', { level: 1, name: list.title }).waitFor();
      assert.equal(await page.locator('.boot-home').count(), 0, 'the app replaced the drawn page');
    },
  },
  {
    name: 'a deep link asks for its page chunk and its first answer beside the app\'s scripts, and the app takes that answer (one request)',
    async run({ page, base }) {
      const tree = (await (await fetch(`${base}/portal/api/category/list`)).json()).result.content;
      const notice = tree.flatMap((c) => [c, ...(c.subCategory ?? [])]).find((c) => c.url === '/news_center/notice');
      const article = (await (await fetch(`${base}/portal/api/article/list?page=1&size=1`)).json()).result.content[0];
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
