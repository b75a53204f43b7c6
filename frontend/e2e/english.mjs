// The portal in English (`[languages.en]` of the shipped config: reference-cms's English content by
// `locale=en`): every English page at 1366 and 390 px in English, interface and content, with its
// `hreflang` pair and the switch to Chinese; the switch keeps a visitor on the same page, or takes
// them to the other language's home where that language lacks it; a portal without English shows
// no switch and has no English pages.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

import { api, takenOver } from './support.mjs';
import { axeFindings, inLanes, layoutFindings, settle } from './sweep.mjs';

const table = JSON.parse(readFileSync(new URL('../src/app/route-table.json', import.meta.url), 'utf8'));
const flat = (routes) => routes.flatMap((r) => [r, ...flat(r.routes ?? [])]);

/** A CJK character or a full-width or CJK punctuation mark. */
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

/**
 * The text of the page a visitor sees or hears that is not marked as Chinese: the body's text and
 * the labels and alternatives of its elements, less any element with `lang="zh-CN"` (the switch's
 * 中文, the footer's filing numbers, which are written in Chinese by law), and the title.
 */
function visibleText() {
  const parts = [document.title];
  const chinese = (el) => el.closest('[lang]')?.getAttribute('lang')?.startsWith('zh');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || chinese(el) || el.closest('script, style, template, noscript')) continue;
    if (!el.checkVisibility() && !el.closest('.visually-hidden, .sr-only, [hidden]')) continue;
    parts.push(node.textContent);
  }
  for (const el of document.body.querySelectorAll('[aria-label], [alt], [title], [placeholder]')) {
    if (chinese(el)) continue;
    for (const name of ['aria-label', 'alt', 'title', 'placeholder']) if (el.hasAttribute(name)) parts.push(el.getAttribute(name));
  }
  return parts.join('\n');
}

/** The English pages: every route whose section the English content has, the app's own pages, articles, a search, a missing page. */
async function englishRoutes(base) {
  const tree = await api(base, '/category/list?lang=en');
  const sections = new Set(flat((tree.content ?? tree).map((c) => ({ ...c, routes: c.subCategory }))).map((c) => c.url));
  const own = new Set(['home', 'sitemap', 'contact', 'accessibility', 'whistleblowing', 'legal', 'privacy']);
  const routes = flat(table.routes)
    .filter((r) => r.path && r.page && !r.sameAs && r.page !== 'login' && r.page !== 'partyDetail')
    .filter((r) => own.has(r.page) || sections.has(r.path))
    .map((r) => r.path);
  const news = await api(base, '/article/list?categoryId=21&page=1&size=10&lang=en');
  const articles = news.content.slice(0, 2).map((a) => `/article/${a.id}`);
  return { routes: [...routes, ...articles, '/search?q=train', '/no/such/page'], sections };
}

/** The widths each English page is checked at. */
const WIDTHS = [
  [1366, 900],
  [390, 844],
];

/**
 * Opens an English page once and checks it at each width (resized in place, as the sweep does: a
 * load per width cost this case three minutes of CI): its findings, empty when it holds.
 */
async function checkEnglish(page, base, route) {
  const findings = [];
  const [[width, height]] = WIDTHS;
  await page.setViewportSize({ width, height });
  const response = await page.goto(`${base}/portal/en${route}`);
  await takenOver(page);
  await page.locator('main h1').first().waitFor({ timeout: 10_000 });
  await page.waitForLoadState('networkidle');
  const missing = route === '/no/such/page';
  const url = `/portal/en${route}`;
  if (response.status() !== (missing ? 404 : 200)) findings.push(`${url}: HTTP ${response.status()}`);
  if ((await page.getAttribute('html', 'lang')) !== 'en') findings.push(`${url}: <html lang> is not en`);
  // Its pair in Chinese, named in the head.
  if (!missing) {
    const pair = await page.locator('link[rel=alternate][hreflang="zh-CN"]').getAttribute('href').catch(() => null);
    const self = await page.locator('link[rel=alternate][hreflang="en"]').getAttribute('href').catch(() => null);
    const path = route.split('?')[0];
    const pathOf = (href) => href?.split('?')[0];
    if (!pathOf(pair)?.endsWith(`/portal${path === '/' ? '/' : path}`)) findings.push(`${url}: hreflang zh-CN is ${pair}`);
    if (!pathOf(self)?.endsWith(`/portal/en${path === '/' ? '/' : path}`)) findings.push(`${url}: hreflang en is ${self}`);
  }
  // What is in sight, and the switch to Chinese, at each width.
  for (const [w, h] of WIDTHS) {
    await page.setViewportSize({ width: w, height: h });
    await settle(page);
    const at = `${w} ${url}`;
    const text = await page.evaluate(visibleText);
    const han = text.split('\n').filter((line) => CJK.test(line));
    if (han.length) findings.push(`${at}: Chinese on the English page: ${han.slice(0, 3).map((l) => JSON.stringify(l.trim().slice(0, 40))).join(', ')}`);
    const switches = page.locator('a.language-switch:visible');
    if ((await switches.count()) !== 1) findings.push(`${at}: ${await switches.count()} language switches in sight`);
    else if ((await switches.textContent()).trim() !== '中文') findings.push(`${at}: the switch says ${await switches.textContent()}`);
    for (const f of await page.evaluate(layoutFindings)) findings.push(`${at}: ${f}`);
    for (const f of await axeFindings(page)) if (/\((serious|critical)\)/.test(f)) findings.push(`${at}: ${f}`);
  }
  return findings;
}

/** Removes (or puts back) `[languages.en]` and its tables in the e2e config copy; waits for `/site` to say so. */
async function setEnglish(config, base, on, original) {
  const text = on ? original : original.replace(/^\[languages\.en[^\n]*\][\s\S]*?(?=^\[(?!languages))/m, '');
  if (!on) assert.ok(!/^\[languages/m.test(text), 'the config copy lost its languages');
  writeFileSync(config, text);
  for (let i = 0; i < 100; i += 1) {
    const site = await api(base, '/site');
    if ((site.languages.length > 0) === on) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the gateway did not reload English ${on ? 'on' : 'off'} within 10 s`);
}

export const englishTests = [
  {
    long: true,
    name: 'English: every English page at 1366 and 390 px is in English (interface and content), names its Chinese pair (hreflang) and offers the switch; nothing past the screen, axe without a serious finding',
    async run({ browser, base, artifacts }) {
      const { routes } = await englishRoutes(base);
      assert.ok(routes.length >= 25, `${routes.length} English routes`);
      const findings = (await inLanes(browser, routes, (page, route) => checkEnglish(page, base, route))).flat();
      writeFileSync(`${artifacts}/english-findings.txt`, findings.join('\n'));
      assert.deepEqual(findings, [], `${findings.length} findings, all in reports/e2e/english-findings.txt`);
    },
  },
  {
    name: 'English: the switch keeps a visitor on the same page in the other language, or takes them to its home where it lacks the page',
    async run({ page, base }) {
      // Chinese → English, a section the English content has.
      await page.goto(`${base}/portal/about/company_profile`);
      await takenOver(page);
      const english = page.locator('a.language-switch:visible');
      assert.equal((await english.textContent()).trim(), 'English');
      await english.click();
      await page.waitForURL(`${base}/portal/en/about/company_profile`);
      await takenOver(page);
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      assert.equal((await page.locator('main h1').first().textContent()).trim(), (await api(base, '/category/list?lang=en')).content.find((c) => c.url === '/about').subCategory.find((c) => c.url === '/about/company_profile').name);
      // In-app links stay in English (opened in place), the menu's and the breadcrumb's alike.
      const inEnglish = await page.locator('header a[href^="/portal/"], main a[href^="/portal/"]').evaluateAll((links) =>
        links.filter((a) => !a.classList.contains('language-switch') && !a.getAttribute('href').startsWith('/portal/en') && !a.getAttribute('href').startsWith('/portal/api/')).map((a) => a.getAttribute('href')),
      );
      assert.deepEqual(inEnglish, [], 'links of an English page lead to English pages');
      // English → Chinese: the same page.
      await page.locator('a.language-switch:visible').click();
      await page.waitForURL(`${base}/portal/about/company_profile`);
      await takenOver(page);
      assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
      // An article in both: the same article.
      await page.goto(`${base}/portal/article/2101`);
      await takenOver(page);
      assert.equal(await page.locator('a.language-switch:visible').getAttribute('href'), '/portal/en/article/2101');
      // A section English lacks (清正廉洁): the English home.
      await page.goto(`${base}/portal/party-construction/clean-honest`);
      await takenOver(page);
      assert.equal(await page.locator('a.language-switch:visible').getAttribute('href'), '/portal/en/');
      assert.equal(await page.locator('link[rel=alternate][hreflang="en"]').count(), 0, 'no English pair named for a page English lacks');
      // On a phone the switch is in sight without opening the menu.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/portal/en/news_center/company_announcement/1`);
      await takenOver(page);
      const phone = page.locator('a.language-switch:visible');
      assert.equal(await phone.count(), 1);
      const box = await phone.boundingBox();
      assert.ok(box && box.y + box.height <= 844 && box.x + box.width <= 390, `the switch on a phone: ${JSON.stringify(box)}`);
    },
  },
  {
    // The config change turns English off for every page while it runs: no other test beside it.
    alone: true,
    name: 'English: a portal without English content configured shows no switch and has no English pages',
    async run({ page, base, config }) {
      const original = readFileSync(config, 'utf8');
      // The sitemap as kept with English on: the reload below must not leave it listing English.
      assert.ok((await (await fetch(`${base}/portal/sitemap.xml`)).text()).includes('/portal/en/'));
      try {
        await setEnglish(config, base, false, original);
        // A new site etag: pages rendered before are not the pages now.
        await page.goto(`${base}/portal/about/company_profile`);
        await takenOver(page);
        assert.equal(await page.locator('a.language-switch').count(), 0);
        assert.equal(await page.locator('link[rel=alternate][hreflang]').count(), 0);
        const english = await page.goto(`${base}/portal/en/about/company_profile`);
        assert.equal(english.status(), 404);
        assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
        const sitemap = await (await fetch(`${base}/portal/sitemap.xml`)).text();
        assert.ok(!sitemap.includes('/portal/en/') && !sitemap.includes('hreflang'));
      } finally {
        await setEnglish(config, base, true, original);
      }
    },
  },
];
