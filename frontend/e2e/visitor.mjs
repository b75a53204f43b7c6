// Issue 16's cases: what visitors of a Chinese corporate portal expect — 无障碍 reading modes,
// Chinese paging, footer facts, mourning mode, print, share, per-article text size, swipes, and
// text pages with real length.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

import jsQR from 'jsqr';

import { SAME_AS_ROUTES, SPEC_ROUTES, api, hanCount, heading, open } from './support.mjs';

const ALL_ON = { size: 'xlarge', contrast: true, spacing: true };

/** Opens `route` with the reading choice already stored, as a returning visitor would. */
async function openWith(page, base, route, prefs) {
  await open(page, base, '/no/such/page');
  await page.evaluate((p) => localStorage.setItem('readingPrefs', JSON.stringify(p)), prefs);
  await open(page, base, route);
}

/** Sets one line of the e2e gateway's config copy and waits until `/site` shows the change. */
async function setSite(config, base, line, ready) {
  const text = readFileSync(config, 'utf8').replace(/^mourning = .*$/m, line);
  assert.match(text, new RegExp(`^${line.replace(/[[\]"]/g, '\\$&')}$`, 'm'), 'the config copy has a mourning line');
  writeFileSync(config, text);
  for (let i = 0; i < 100; i += 1) {
    if (ready(await api(base, '/site'))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the gateway did not reload "${line}" within 10 s`);
}

/** Beijing's date today, as the app decides mourning days. */
const chinaDate = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

export const visitorTests = [
  {
    name: '无障碍: text size, contrast and spacing change the page, survive a reload and apply before the first paint',
    async run({ page, base }) {
      await open(page, base, '/news_center/company_announcement/1');
      // The list's own lines, which arrive after the heading, carry the measured styles.
      const listed = () => page.locator('main .article-item__summary').first().waitFor();
      await listed();
      const style = () =>
        page.evaluate(() => ({
          root: getComputedStyle(document.documentElement).fontSize,
          lead: getComputedStyle(document.querySelector('main .lead')).color,
          line: getComputedStyle(document.querySelector('main .article-item__summary')).lineHeight,
          summary: parseFloat(getComputedStyle(document.querySelector('main .article-item__summary')).fontSize),
        }));
      const before = await style();
      assert.equal(before.root, '16px');
      // By keyboard: the toggle is reachable, opens the panel, every option is a button.
      const toggle = page.locator('.site-header__tools summary.reading__toggle');
      await toggle.focus();
      await page.keyboard.press('Enter');
      const panel = page.locator('.site-header__tools').getByRole('group', { name: '关怀版设置' });
      await panel.getByRole('button', { name: '大', exact: true }).click();
      assert.equal((await style()).root, '19px');
      await panel.getByRole('button', { name: '特大' }).click();
      const xl = await style();
      assert.equal(xl.root, '24px');
      assert.ok(xl.summary > before.summary * 1.3, `text follows the root size: ${before.summary} → ${xl.summary}`);
      await panel.getByRole('button', { name: '高对比度' }).click();
      const contrast = await style();
      assert.notEqual(contrast.lead, before.lead);
      assert.equal(contrast.lead, 'rgb(26, 26, 26)');
      await panel.getByRole('button', { name: '加大行距' }).click();
      const spaced = await style();
      assert.ok(parseFloat(spaced.line) / spaced.summary >= 2.1, `line height ${spaced.line} at ${spaced.summary}px`);
      // Visible focus on the options (the focus ring is a box shadow).
      // Tab from the last option pressed: the next one shows a focus ring (a box shadow).
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.textContent), '大鼠标');
      assert.notEqual(await page.evaluate(() => getComputedStyle(document.activeElement).boxShadow), 'none');
      await page.keyboard.press('Escape');
      assert.equal(await toggle.evaluate((el) => el.parentElement.open), false);
      assert.ok(await toggle.evaluate((el) => el === document.activeElement));

      // A reload keeps every choice, and the first paint already has them: the attributes are set
      // by index.html before any script of the app has run.
      await page.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState === 'interactive') {
            window.__atParse = ['data-text-size', 'data-contrast', 'data-spacing'].map((a) => document.documentElement.getAttribute(a));
          }
        });
      });
      await page.reload();
      await listed();
      assert.deepEqual(await page.evaluate(() => window.__atParse), ['xlarge', 'high', 'wide']);
      assert.deepEqual(await style(), spaced);
      const reopened = page.locator('.site-header__tools summary.reading__toggle');
      await reopened.click();
      await panel.getByRole('button', { name: '重置' }).click();
      assert.deepEqual(await style(), before);
    },
  },
  {
    name: '无障碍: with all modes on, the carousel, the phone menu and the lightbox still work',
    viewport: { width: 390, height: 844 },
    async run({ page, base }) {
      await openWith(page, base, '/', ALL_ON);
      const slide = page.locator('[aria-roledescription="slide"]:not([hidden]) h3');
      const first = await slide.textContent();
      await page.getByRole('button', { name: '下一张' }).click();
      assert.notEqual(await slide.textContent(), first);
      // Phones show the 关怀版 entry above the header, without opening the menu.
      await page.locator('.site-header__tools summary.reading__toggle').click();
      await page.locator('.site-header__tools').getByRole('button', { name: '大', exact: true }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: '菜单' }).click();
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize), '19px');
      await page.locator('#site-nav').getByRole('button', { name: '业务板块' }).click();
      await page.locator('#site-nav').getByRole('link', { name: '海外仓', exact: true }).click();
      await heading(page, '海外仓');
      await open(page, base, '/about/honor');
      await page.getByRole('button', { name: /^查看大图/ }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    },
  },
  {
    name: 'paging in Chinese with the shipped config, and 跳至 N 页 on a long list',
    async run({ page, base }) {
      const site = await api(base, '/site');
      assert.equal(site.paginationLocale, 'zh-CN');
      const media = await api(base, '/article/list?categoryId=22&page=1&size=10');
      await open(page, base, '/news_center/media_coverage/2');
      await heading(page);
      const nav = page.getByRole('navigation', { name: '分页' });
      await nav.getByText(`共 ${media.totalElements} 条`).waitFor();
      assert.equal(await nav.getByText('上一页').getAttribute('aria-disabled'), 'true');
      await nav.getByRole('link', { name: '下一页' }).click();
      await nav.locator('a[aria-current="page"][aria-label="第 2 页"]').waitFor();
      // Two pages: no jump. Seven pages (工会活动 with the e2e archive): a jump.
      assert.equal(await nav.getByRole('spinbutton').count(), 0);
      const union = await api(base, '/article/list?categoryId=42&page=6&size=10');
      assert.ok(union.totalPages >= 6);
      await open(page, base, '/party-construction/trade-union-activities');
      await heading(page);
      await page.getByRole('spinbutton', { name: '跳至页码' }).fill('6');
      await page.getByRole('button', { name: '确定' }).click();
      await page.getByRole('link', { name: union.content[0].title }).waitFor();
      await page.locator('a[aria-current="page"][aria-label="第 6 页"]').waitFor();
    },
  },
  {
    name: 'the footer: 公安备案 with its emblem and link, 网站地图 listing every menu route, 联系我们',
    async run({ page, base }) {
      const site = await api(base, '/site');
      const tree = (await api(base, '/category/list')).content;
      await open(page, base, '/about/company_profile');
      await heading(page);
      const footer = page.locator('footer');
      const filing = footer.getByRole('link', { name: site.policeFilingNumber });
      assert.equal(await filing.getAttribute('href'), site.policeFilingUrl);
      assert.equal(await footer.locator('.site-footer__filing svg').count(), 1);
      await footer.getByRole('link', { name: '网站地图' }).click();
      await heading(page, '网站地图');
      await page.locator('main .sitemap a[href="/portal/business/China-Europe_train"]').waitFor();
      const hrefs = new Set(await page.locator('main .sitemap a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))));
      const menu = [];
      const walk = (list) => list.filter((c) => !c.hidden).forEach((c) => (menu.push(c.url), walk(c.subCategory ?? [])));
      walk(tree);
      assert.ok(menu.length > 20);
      for (const url of menu) assert.ok(hrefs.has(`/portal${url}`), `网站地图 lacks ${url}`);
      for (const url of ['/', '/accessibility', '/contact']) assert.ok(hrefs.has(`/portal${url}`), `网站地图 lacks ${url}`);
      // A duplicate the spec keeps is listed nowhere: its page is listed under its own route.
      for (const [url] of SAME_AS_ROUTES) assert.ok(!hrefs.has(`/portal${url}`), `网站地图 lists ${url}`);
      await page.locator('main .sitemap').getByRole('link', { name: '中欧班列' }).click();
      await heading(page, '中欧班列');
      await page.locator('footer').getByRole('link', { name: '联系我们' }).click();
      await heading(page, '联系我们');
      await page.locator('main').getByText(site.address).waitFor();
      assert.equal(await page.locator('main').getByRole('link', { name: site.phone }).getAttribute('href'), `tel:${site.phone.replace(/[^\d+]/g, '')}`);
    },
  },
  {
    name: '哀悼模式: a config reload turns every page grey and stops the carousel, for a switch or a listed day',
    // Every page turns grey while it runs: no other test beside it.
    alone: true,
    async run({ page, base, config }) {
      const grey = () => page.evaluate(() => getComputedStyle(document.documentElement).filter);
      await open(page, base, '/');
      await page.getByRole('button', { name: /暂停/ }).waitFor();
      assert.equal(await grey(), 'none');
      try {
        await setSite(config, base, 'mourning = true', (s) => s.mourning === true);
        await page.reload();
        await page.getByRole('button', { name: /播放/ }).waitFor();
        assert.equal(await grey(), 'grayscale(1)');
        // The next visit is grey from its first paint, before the app has run: the server's markup
        // says so (its head's portal-mourning), whatever this browser last stored.
        await page.evaluate(() => localStorage.removeItem('siteMourning'));
        await page.addInitScript(() => {
          document.addEventListener('readystatechange', () => {
            if (document.readyState === 'interactive') {
              window.__greyAtParse = document.head.querySelector('meta[name="portal-mourning"]') !== null;
              window.__appAtParse = document.documentElement.hasAttribute('data-app');
            }
          });
        });
        await page.reload();
        await page.getByRole('button', { name: /播放/ }).waitFor();
        assert.deepEqual(await page.evaluate(() => [window.__greyAtParse, window.__appAtParse]), [true, false]);
        assert.equal(await grey(), 'grayscale(1)');
        const slide = page.locator('[aria-roledescription="slide"]:not([hidden]) h3');
        const shown = await slide.textContent();
        await page.waitForTimeout(6500);
        assert.equal(await slide.textContent(), shown, 'the carousel stays still');
        await open(page, base, '/news_center/notice');
        await heading(page);
        assert.equal(await grey(), 'grayscale(1)');
        // A yearly day that is today in Beijing, then one that is not. Each is judged once the app
        // has the new `/site` answer (it stores the setting then), not by the first paint's guess.
        const settled = (days) =>
          page.waitForFunction((want) => localStorage.getItem('siteMourning') === want, JSON.stringify(days));
        const today = chinaDate().slice(5);
        await setSite(config, base, `mourning = ["${today}"]`, (s) => Array.isArray(s.mourning) && s.mourning[0] === today);
        await page.reload();
        await settled([today]);
        assert.equal(await grey(), 'grayscale(1)');
        const other = today === '01-01' ? '01-02' : '01-01';
        await setSite(config, base, `mourning = ["${other}"]`, (s) => Array.isArray(s.mourning) && s.mourning[0] === other);
        await page.reload();
        await settled([other]);
        assert.equal(await grey(), 'none');
      } finally {
        await setSite(config, base, 'mourning = false', (s) => s.mourning === false);
      }
    },
  },
  {
    name: '打印本页 prints the article alone: title, meta, body and attachments, no header, menu or footer',
    async run({ page, base }) {
      const detail = await api(base, '/article/detail?id=2302');
      await open(page, base, '/article/2302');
      await heading(page, detail.title);
      await page.emulateMedia({ media: 'print' });
      for (const gone of ['header.site-header', 'footer', 'nav.breadcrumb, .breadcrumb', '.article__tools', '.article__siblings', '.skip-link']) {
        for (const el of await page.locator(gone).all()) assert.ok(!(await el.isVisible()), `${gone} is printed`);
      }
      for (const kept of ['main h1', '.article__meta', '.article__body', '.attachments']) {
        assert.ok(await page.locator(kept).first().isVisible(), `${kept} is not printed`);
      }
      await page.locator('.attachments').getByText(detail.attachments[0].name).waitFor();
      // The printed address is the article's real URL, which a reader can type and the gateway renders.
      assert.equal(await page.locator('.article__print-url').textContent(), `本文链接：${base}/portal/article/2302`);
      // The printed page begins with the article: nothing above its breadcrumb's place.
      const top = await page.locator('main h1').evaluate((h) => h.getBoundingClientRect().top + window.scrollY);
      assert.ok(top < 120, `the title starts ${top}px down the printed page`);
      await page.emulateMedia({ media: 'screen' });
      assert.ok(await page.locator('header.site-header').isVisible());
      assert.ok(!(await page.locator('.article__print-url').isVisible()));
    },
  },
  {
    name: "分享: the link is copied, and the QR code (loaded only when asked for) decodes to the article's URL",
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
    async run({ page, base, browser }) {
      const qrChunks = [];
      page.on('request', (r) => /\/qr-code\.[0-9a-f]+\.chunk\.js$/.test(r.url()) && qrChunks.push(r.url()));
      await open(page, base, '/article/2101');
      await heading(page);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(qrChunks, [], 'the QR code library is not part of the page until asked for');
      const url = `${base}/portal/article/2101`;
      await page.getByRole('button', { name: '复制链接' }).click();
      await page.getByRole('status').getByText('链接已复制').waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);
      await page.getByRole('button', { name: '二维码' }).click();
      const qr = page.getByRole('img', { name: '本文链接的二维码' });
      await qr.waitFor();
      assert.equal(qrChunks.length, 1);
      // Decode what is on the screen: the screenshot's pixels, read in a page of its own (the
      // portal's policy allows no data: image), then jsQR.
      const png = await qr.screenshot();
      const scratch = await browser.newPage();
      const pixels = await scratch.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const canvas = Object.assign(document.createElement('canvas'), { width: img.width, height: img.height });
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        return { width: img.width, height: img.height, data: Array.from(ctx.getImageData(0, 0, img.width, img.height).data) };
      }, png.toString('base64'));
      await scratch.close();
      const code = jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height);
      assert.ok(code, 'a QR code is found in the screenshot');
      assert.equal(code.data, url);
      // Escape puts it away and focus back on its button.
      await page.keyboard.press('Escape');
      await qr.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement.textContent), '二维码');
    },
  },
  {
    name: "分享: the copied link and the canonical name the page's URL, whose HTML has the article's title and share card; a list's page and a search keep their query",
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
    async run({ page, base }) {
      const canonical = () => page.evaluate(() => [...document.querySelectorAll('link[rel="canonical"]')].map((l) => l.href));
      const detail = await api(base, '/article/detail?id=2101');
      await open(page, base, '/article/2101');
      const title = await heading(page, detail.title);
      await page.getByRole('button', { name: '复制链接' }).click();
      await page.getByRole('status').getByText('链接已复制').waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(copied, `${base}/portal/article/2101`);
      assert.deepEqual(await canonical(), [copied]);
      // What a WeChat or Open Graph preview reads: the page itself, no JavaScript run.
      const answer = await page.request.get(copied, { maxRedirects: 0 });
      assert.equal(answer.status(), 200);
      const html = await answer.text();
      assert.ok(html.includes(`<title>${title}`), 'the page is titled with the article');
      assert.ok(html.includes(`<link rel="canonical" href="${copied}"`), 'and names itself canonical');
      assert.ok(html.includes(`<meta property="og:title" content="${title}"`), 'with its share card');
      // A list's page past the first (工会活动 has the e2e archive), then a search, reached by the
      // spec's hash routes from inside the app.
      await page.evaluate(() => (window.location.hash = '#/party-construction/trade-union-activities?page=2'));
      await page.waitForFunction(() =>
        document.querySelector('link[rel="canonical"]')?.href.endsWith('/portal/party-construction/trade-union-activities?page=2'),
      );
      assert.equal((await page.request.get((await canonical())[0], { maxRedirects: 0 })).status(), 200);
      await page.evaluate(() => (window.location.hash = '#/search?q=%E7%8F%AD%E5%88%97'));
      await page.waitForFunction(() => document.querySelector('link[rel="canonical"]')?.href === window.location.href);
      assert.equal((await canonical()).length, 1);
    },
  },
  {
    name: 'per-article text size 大 中 小 changes the body only',
    async run({ page, base }) {
      await open(page, base, '/article/2101');
      await heading(page);
      const size = (sel) => page.locator(sel).first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      const medium = await size('.article__body');
      const title = await size('main h1');
      const sizes = page.getByRole('radiogroup', { name: '正文字号' });
      assert.equal(await sizes.getByRole('radio', { name: '正文字号中' }).isChecked(), true);
      await sizes.getByRole('radio', { name: '正文字号大' }).click();
      assert.ok((await size('.article__body')) > medium);
      await sizes.getByRole('radio', { name: '正文字号小' }).click();
      assert.ok((await size('.article__body')) < medium);
      // The arrow keys move the choice, as in any radio group.
      await page.keyboard.press('ArrowLeft');
      assert.equal(await sizes.getByRole('radio', { name: '正文字号中' }).isChecked(), true);
      assert.equal(await size('.article__body'), medium);
      assert.equal(await size('main h1'), title);
    },
  },
  {
    name: 'the carousel turns on a swipe on a touch screen',
    viewport: { width: 390, height: 844 },
    context: { hasTouch: true, isMobile: true },
    async run({ page, base, context }) {
      await open(page, base, '/');
      const slide = page.locator('[aria-roledescription="slide"]:not([hidden])');
      await slide.waitFor();
      const label = () => slide.getAttribute('aria-label');
      const n = await page.locator('[aria-roledescription="slide"]').count();
      assert.ok(n >= 3, `${n} slides`);
      assert.equal(await label(), `第 1 张，共 ${n} 张`);
      const box = await slide.locator('img').boundingBox();
      // Across the picture above the caption's text and link.
      const y = box.y + box.height * 0.1;
      const cdp = await context.newCDPSession(page);
      const swipe = async (from, to) => {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
        for (let i = 1; i <= 5; i += 1) {
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from + ((to - from) * i) / 5, y }] });
        }
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      };
      await swipe(320, 80);
      assert.equal(await label(), `第 2 张，共 ${n} 张`);
      await swipe(80, 320);
      await swipe(80, 320);
      assert.equal(await label(), `第 ${n} 张，共 ${n} 张`);
      // A short move is no swipe: the slide stays (or, taken as a tap on the picture, opens its story).
      await swipe(200, 180);
      await page.waitForTimeout(300);
      const path = await page.evaluate(() => window.location.pathname);
      if (path === '/portal/') assert.equal(await label(), `第 ${n} 张，共 ${n} 张`);
      else assert.match(path, /^\/portal\/article\/\d+$/);
    },
  },
  {
    name: 'every text page carries 400 Chinese characters of its own and a figure that loads',
    async run({ page, base }) {
      const TEXT_SECTIONS = ['/about/', '/business/', '/business_overview/', '/liaison/', '/social_responsibility/'];
      // The video, the certificates and the org chart are their own pictures; 领导信息 has no portraits
      // (a text page of posts, careers and duties, as SOE portals publish it).
      const EXCEPT = ['/about/promotional-video', '/about/honor', '/about/organizational_structure', '/about/leadership'];
      const routes = SPEC_ROUTES.filter((r) => TEXT_SECTIONS.some((s) => r.startsWith(s)) && !EXCEPT.includes(r));
      assert.ok(routes.length >= 18, routes.join(' '));
      const thin = [];
      for (const route of routes) {
        await open(page, base, route);
        await heading(page);
        const body = page.locator('main .article__body');
        await body.waitFor();
        await page.waitForLoadState('networkidle');
        const count = hanCount(await body.innerText());
        const figures = await body.locator('img').evaluateAll((imgs) => imgs.filter((i) => i.complete && i.naturalWidth > 0).length);
        if (count < 400 || figures < 1) thin.push(`${route}: ${count} characters, ${figures} figures`);
      }
      assert.deepEqual(thin, []);
    },
  },
  {
    name: 'the SOE service entries (issue 34): each present and reached in at most two clicks from home; a search for 举报 finds 信访举报',
    async run({ page, base }) {
      const site = await api(base, '/site');
      const home = async () => {
        await open(page, base, '/');
        await heading(page);
      };
      // One click: 信访举报 and 联系我们 from every footer.
      await home();
      const footer = page.locator('footer');
      await footer.getByRole('link', { name: '信访举报' }).click();
      await heading(page, '信访举报');
      await page.locator('main').getByRole('link', { name: site.whistleblowing.phone }).waitFor();
      await home();
      await footer.getByRole('link', { name: '联系我们' }).click();
      await heading(page, '联系我们');
      const main = page.locator('main');
      await main.locator('.contact-page__hotline', { hasText: site.hotline }).waitFor();
      for (const d of [...site.contact.departments, site.contact.media]) await main.getByText(d.name, { exact: true }).waitFor();
      const map = main.getByRole('img', { name: site.contact.mapAlt });
      await map.scrollIntoViewIfNeeded();
      await page.waitForFunction((alt) => [...document.images].some((i) => i.alt === alt && i.complete && i.naturalWidth > 0), site.contact.mapAlt);
      // On the home page itself: 友情链接, 微信公众号 (its code drawn), 信息公开, 媒体聚焦, 宣传视频.
      await home();
      const friends = footer.getByRole('navigation', { name: '友情链接' });
      assert.equal(await friends.getByRole('link').count(), site.links.length);
      const qr = footer.getByRole('img', { name: `微信公众号“${site.wechat.name}”的二维码` });
      await qr.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => [...document.querySelectorAll('footer img')].every((i) => i.complete && i.naturalWidth > 0));
      for (const name of ['信息公开', '媒体聚焦', '宣传视频']) {
        await page.locator('main h2', { hasText: name }).first().waitFor();
      }
      // Every notice title on the home page is whole: no line of the column is cut.
      const cut = await page.locator('#home-notices-title').locator('xpath=ancestor::section[1]').locator('.home-lines a').evaluateAll((as) =>
        as.filter((a) => a.scrollWidth > a.clientWidth + 1 || a.textContent !== a.title).map((a) => a.title),
      );
      assert.deepEqual(cut, []);
      // Two clicks: 宣传视频 from its module; 领导信息 through its group; 业务概览 from a business page.
      await page.locator('.home-video__link').click();
      await heading(page, '宣传视频');
      await home();
      await page.locator('.home-business').getByRole('link', { name: /中欧班列/ }).click();
      await heading(page, '中欧班列');
      await page.getByRole('navigation', { name: '业务概览' }).getByRole('link', { name: '运营线路' }).click();
      await heading(page, '运营线路');
      await home();
      // The menu's 走进云川 opens its sub-menu (a disclosure button); 领导信息 is in it.
      await page.locator('#site-nav').getByRole('button', { name: '走进云川', exact: true }).click();
      await page.locator('#site-nav').getByRole('link', { name: '领导信息', exact: true }).click();
      await heading(page, '领导信息');
      // 举报 in the search box: 服务直达 leads to the page.
      await home();
      await page.getByRole('search', { name: '站内搜索' }).getByRole('searchbox').fill('举报');
      await page.getByRole('search', { name: '站内搜索' }).getByRole('button', { name: '搜索' }).click();
      const shortcuts = page.getByRole('region', { name: '服务直达' });
      await shortcuts.getByRole('link', { name: '信访举报' }).click();
      await heading(page, '信访举报');
    },
  },
  {
    name: '客户服务: the home page’s band and the menu lead to the company’s systems and to 班列线路与时刻 at 1366 and 390 px; both site maps list them',
    async run({ page, base, consoleErrors }) {
      const site = await api(base, '/site');
      assert.ok(site.services.length >= 3, 'the demo lists its services');
      const external = site.services.filter((s) => /^https?:/.test(s.url));
      const hrefOf = (s) => (s.url.startsWith('/') ? `/portal${s.url}` : s.url);
      for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
        await page.setViewportSize(viewport);
        await open(page, base, '/');
        // The band, in the server's markup: every entry a plain link to where it lives.
        const band = page.getByRole('region', { name: '客户服务' });
        for (const s of site.services) {
          assert.equal(await band.getByRole('link', { name: new RegExp(s.name) }).getAttribute('href'), hrefOf(s), `${viewport.width}: ${s.name}`);
        }
        const box = await band.boundingBox();
        assert.ok(box.width <= viewport.width, `the band fits ${viewport.width} px`);
        // The menu's 客户服务 (the phone's behind 菜单): the CMS's page, then each system.
        if (viewport.width < 600) await page.getByRole('button', { name: '菜单' }).click();
        const nav = page.locator('#site-nav');
        const group = nav.getByRole('button', { name: '客户服务', exact: true });
        await group.click();
        const entries = nav.locator(`#${await group.getAttribute('aria-controls')} a`);
        const names = (await entries.allTextContents()).map((t) => t.trim());
        assert.deepEqual(names, ['班列线路与时刻', ...external.map((s) => s.name)]);
        for (const s of external) {
          assert.equal(await nav.getByRole('link', { name: s.name, exact: true }).getAttribute('href'), s.url);
        }
        await nav.getByRole('link', { name: '班列线路与时刻', exact: true }).click();
        await heading(page, '班列线路与时刻');
        // The CMS's timetable: its lines with their days and cut-offs, whole on the screen.
        const table = page.locator('.article__body table').first();
        assert.match(await table.locator('caption').textContent(), /去程班列/);
        assert.ok((await table.locator('tbody tr').count()) >= 5, 'the outbound lines');
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), viewport.width, 'nothing wider than the screen');
      }
      const sitemap = await (await page.request.get(`${base}/portal/sitemap.xml`)).text();
      assert.ok(sitemap.includes(`${base}/portal/services/timetable</loc>`), 'sitemap.xml lists 班列线路与时刻');
      await open(page, base, '/sitemap');
      const map = page.locator('main .sitemap');
      for (const s of site.services) {
        assert.equal(await map.getByRole('link', { name: s.name, exact: true }).first().getAttribute('href'), hrefOf(s), `网站地图: ${s.name}`);
      }
      assert.deepEqual(consoleErrors, []);
    },
  },
];
