// Issue 24's 关怀版 (工信部《互联网网站适老化通用设计规范》): the entry on desktops and phones, text at
// 1.5x and page zoom without a clipped headline, a sideways scroll or a ragged card row, the skip
// link out of sight until focused, the toolbar by keyboard, 大鼠标, 十字线 and 语音朗读 under the
// strict CSP, choices applied before the first content paint, the statement, and axe in every mode.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';


import { api, heading, open, overflowing, takenOver } from './support.mjs';

const table = JSON.parse(readFileSync(new URL('../src/app/route-table.json', import.meta.url), 'utf8'));
const flat = (routes) => routes.flatMap((r) => [r, ...flat(r.routes ?? [])]);
/** The first route of the table that a page of `kind` shows. */
const routeOf = (kind) => flat(table.routes).find((r) => r.page === kind && r.path && !r.sameAs).path;

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];
const STANDARD = {};
const LARGEST = { size: 'xlarge' };
const ZOOMED = { zoom: 150 };
const MAXIMUM = { size: 'xlarge', zoom: 150 };
/** Stores a reading choice in the context's storage, as a returning visitor's would be. */
async function store(page, base, prefs) {
  await open(page, base, '/');
  await page.evaluate((p) => localStorage.setItem('readingPrefs', JSON.stringify(p)), prefs);
}

/** Opens `route` and waits for its content: the heading, then the network at rest. */
async function visit(page, base, route) {
  await open(page, base, route);
  await heading(page);
  await page.waitForLoadState('networkidle');
}

/**
 * The headline, home page, list, article and page-category routes: the route table's first route of
 * each kind, a group page for its tiles, and the article with the longest title of the first list.
 */
async function layoutRoutes(base) {
  const tree = (await api(base, '/category/list')).content;
  const news = routeOf('news');
  const find = (list) => list.map((c) => (c.url === news ? c : find(c.subCategory ?? []))).find(Boolean);
  const list = (await api(base, `/article/list?categoryId=${find(tree).id}&page=1&size=20`)).content;
  const longest = list.reduce((a, b) => (b.title.length > a.title.length ? b : a));
  return ['/', news, `/article/${longest.id}`, routeOf('single'), routeOf('group')];
}

/**
 * Headlines cut or run out of their box: for each visible h1/h2/h3, card title, news line and list
 * title, every line box of its text lies inside the element and inside every ancestor that clips
 * (no ellipsis, no line-clamp, no fixed height cutting it), its own box does not scroll, and a text
 * longer than its box has taken as many lines as it needs.
 */
export function clippedHeadlines() {
  const SELECTOR = [
    'main h1', 'main h2', 'main h3', '.brand__name', '.tile', '.tile strong', '.partner-list a',
    '.news-lines a', '.article-item__title a', '.article__body .cards h2', '.menu__top',
  ].join(', ');
  const out = [];
  const clips = (el) => {
    const boxes = [];
    for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') boxes.push([p, p.getBoundingClientRect()]);
    }
    return boxes;
  };
  for (const el of document.querySelectorAll(SELECTOR)) {
    if (el.closest('.visually-hidden, [hidden], [aria-hidden="true"]')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || !el.textContent.trim()) continue;
    const name = `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${el.textContent.trim().slice(0, 16)}"`;
    const cs = getComputedStyle(el);
    const block = cs.display !== 'inline';
    if (block && el.scrollWidth > el.clientWidth + 1) out.push(`${name}: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`);
    if (block && cs.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1) out.push(`${name}: cut at ${el.clientHeight}px of ${el.scrollHeight}`);
    if (cs.textOverflow === 'ellipsis' && cs.overflowX !== 'visible') out.push(`${name}: ellipsis`);
    if (cs.webkitLineClamp && cs.webkitLineClamp !== 'none') out.push(`${name}: line-clamp ${cs.webkitLineClamp}`);
    // The line boxes of its text (text nodes only: an inline element's own boxes would count twice).
    const lines = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim() || node.parentElement.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      lines.push(...[...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0));
    }
    const container = block ? box : el.parentElement.getBoundingClientRect();
    const outside = lines.find((r) => r.left < container.left - 1 || r.right > container.right + 1);
    if (outside) out.push(`${name}: text runs to ${Math.round(outside.right)} past its box ${Math.round(container.right)}`);
    for (const [p, clip] of clips(el)) {
      const cut = lines.find((r) => r.left < clip.left - 1 || r.right > clip.right + 1 || r.top < clip.top - 1 || r.bottom > clip.bottom + 1);
      if (cut) {
        out.push(`${name}: cut by ${p.tagName.toLowerCase()}.${String(p.className).split(' ')[0]}`);
        break;
      }
    }
    // Long text wraps: its lines together are as wide as the text, and none is wider than the box.
    const tops = new Set(lines.map((r) => Math.round(r.top / 4)));
    const total = lines.reduce((sum, r) => sum + r.width, 0);
    if (total > container.width + 2 && tops.size < 2) out.push(`${name}: ${Math.round(total)}px of text on one line of ${Math.round(container.width)}px`);
  }
  return out;
}

/**
 * Card rows of unequal height: in each grid of cards (a bordered or shadowed item, or an item's one
 * such child), the cards sharing a row (the same offsetTop) are as tall as each other within 1 px.
 */
export function raggedCardRows() {
  const out = [];
  const looksLikeCard = (el) => {
    const cs = getComputedStyle(el);
    return parseFloat(cs.borderTopWidth) > 0 || cs.boxShadow !== 'none' || cs.backgroundColor !== 'rgba(0, 0, 0, 0)';
  };
  for (const grid of document.querySelectorAll('main ul, main ol, main .tile-list, main .partner-list, main .cards')) {
    if (getComputedStyle(grid).display !== 'grid') continue;
    const rows = new Map();
    for (const item of grid.children) {
      if (item.getBoundingClientRect().height === 0) continue;
      const only = item.children.length === 1 ? item.children[0] : null;
      const card = looksLikeCard(item) ? item : only && looksLikeCard(only) ? only : null;
      if (!card) continue;
      const row = Math.round(item.offsetTop);
      rows.set(row, [...(rows.get(row) ?? []), card.getBoundingClientRect().height]);
    }
    for (const [top, heights] of rows) {
      if (Math.max(...heights) - Math.min(...heights) > 1) {
        out.push(`${grid.tagName.toLowerCase()}.${String(grid.className).split(' ')[0]} row at ${top}: heights ${heights.map(Math.round).join(', ')}`);
      }
    }
  }
  return out;
}

/** The skip link's box, and whether it can be seen (inside the viewport, larger than 1x1 px, on top). */
function skipLinkState() {
  const link = document.querySelector('.skip-link');
  const r = link.getBoundingClientRect();
  const inViewport = r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {
    box: [r.left, r.top, r.width, r.height].map(Math.round),
    visible: inViewport && r.width > 1 && r.height > 1 && !!top && link.contains(top),
    focused: document.activeElement === link,
  };
}

/** A Web Speech engine in the page, before the app's script: its voices, and what it was asked to say. */
function fakeSpeech(langs) {
  const voices = langs.map((lang) => ({ lang, name: `test ${lang}`, voiceURI: `test-${lang}`, default: false, localService: true }));
  window.__spoken = [];
  window.__cancelled = 0;
  window.SpeechSynthesisUtterance = class {
    constructor(text) {
      this.text = text;
      this.lang = '';
      this.voice = null;
      this.rate = 1;
    }
  };
  const engine = Object.assign(new EventTarget(), {
    getVoices: () => voices,
    speak: (u) => window.__spoken.push({ text: u.text, lang: u.lang, voice: u.voice?.name ?? null, utterance: u }),
    cancel: () => {
      window.__cancelled += 1;
    },
  });
  Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: engine });
}

/**
 * Breadcrumb entries broken across lines although each would fit a line of the breadcrumb's width
 * (the review, at 特大 on a phone: names broken beside 当前位置): an entry wraps whole to the next
 * line, and breaks inside only when it is longer than the breadcrumb. One function, for page.evaluate.
 */
function brokenCrumbs() {
  const out = [];
  for (const li of document.querySelectorAll('.breadcrumb li')) {
    const range = document.createRange();
    range.selectNodeContents(li);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (tops.size < 2) continue;
    // The breadcrumb's whole width: its entries may take a line below 当前位置 rather than break.
    const row = li.closest('.breadcrumb').getBoundingClientRect().width;
    const probe = li.cloneNode(true);
    Object.assign(probe.style, { position: 'absolute', visibility: 'hidden', whiteSpace: 'nowrap', width: 'max-content' });
    li.parentElement.appendChild(probe);
    const whole = probe.getBoundingClientRect().width;
    probe.remove();
    if (whole <= row) out.push(`breadcrumb "${li.textContent.trim()}" broken across ${tops.size} lines though it fits one (${Math.round(whole)} of ${Math.round(row)} px)`);
  }
  return out;
}

export const careTests = [
  {
    name: '关怀版: the entry is in sight on phones and desktops, and the toolbar works by keyboard',
    async run({ page, base, consoleErrors }) {
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await visit(page, base, routeOf('single'));
        const entry = page.locator('summary.reading__toggle');
        assert.equal(await entry.count(), 1, 'one entry');
        // Visible without opening the phone menu, inside the first screen.
        const box = await entry.boundingBox();
        assert.ok(box && (await entry.isVisible()) && box.y >= 0 && box.y + box.height <= viewport.height, `entry in sight at ${viewport.width}`);
        assert.ok(box.height >= 36, `entry ${box.height}px tall`);
        // Keyboard: Tab passes the skip link to the entry (a <summary>); Enter opens; every aid is a pressed/unpressed button in a named group.
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        assert.ok(await entry.evaluate((el) => el === document.activeElement), 'Tab reaches the entry second');
        await page.keyboard.press('Enter');
        assert.equal(await entry.evaluate((el) => el.parentElement.open), true, 'Enter opens the entry');
        const panel = page.getByRole('group', { name: '关怀版设置' });
        await panel.waitFor();
        for (const group of ['文字大小', '页面缩放', '辅助功能']) {
          const buttons = await panel.getByRole('group', { name: group }).getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-pressed')));
          assert.ok(buttons.length >= 3 && buttons.every((p) => p === 'true' || p === 'false'), `${group}: ${buttons}`);
        }
        assert.equal(await panel.getByRole('button', { name: '重置' }).count(), 1);
        const panelBox = await panel.boundingBox();
        assert.ok(panelBox.x >= 0 && panelBox.x + panelBox.width <= viewport.width, `panel inside the screen at ${viewport.width}`);
        // Tab into the panel, press 特大 by keyboard, Escape: closed, focus back on the entry.
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement.textContent), '特大');
        await page.keyboard.press('Space');
        assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize), '24px');
        await page.keyboard.press('Escape');
        assert.equal(await entry.evaluate((el) => el.parentElement.open), false, 'Escape closes the entry');
        assert.ok(await entry.evaluate((el) => el === document.activeElement), 'focus back on the entry');
        assert.equal(await panel.count(), 0, 'panel closed');
        // 重置 by keyboard too.
        await page.keyboard.press('Enter');
        await panel.getByRole('button', { name: '重置' }).focus();
        await page.keyboard.press('Enter');
        assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-text-size')), null);
        await page.keyboard.press('Escape');
        // Closed before the next press (a click while the close was still on its way reopened
        // nothing once, in a clean clone's CI).
        await page.getByRole('group', { name: '关怀版设置' }).waitFor({ state: 'hidden' });
      }
      // The statement, from the panel.
      await page.locator('summary.reading__toggle').click();
      await page.waitForFunction(() => document.querySelector('details.reading')?.open === true);
      // The panel's link (the footer has one too).
      await page.getByRole('group', { name: '关怀版设置' }).getByRole('link', { name: '无障碍声明' }).click();
      assert.equal(await heading(page, '无障碍声明'), '无障碍声明');
      assert.equal(await page.getByRole('group', { name: '关怀版设置' }).count(), 0, 'the panel closes on the way');
      assert.deepEqual(consoleErrors, []);
    },
  },
  {
    name: '关怀版: at 特大 and 150% zoom, at 390x844 and 1440x900, no headline is cut, nothing scrolls sideways and card rows are even',
    async run({ page, base }) {
      const routes = await layoutRoutes(base);
      const problems = [];
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        for (const [mode, prefs] of [['特大', LARGEST], ['缩放150%', ZOOMED], ['特大+缩放150%', MAXIMUM]]) {
          await store(page, base, prefs);
          for (const route of routes) {
            await visit(page, base, route);
            const at = `${viewport.width} ${mode} ${route}`;
            const root = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
            const expected = 16 * (prefs.size === 'xlarge' ? 1.5 : 1) * (prefs.zoom ? prefs.zoom / 100 : 1);
            if (root !== expected) problems.push(`${at}: root ${root}px, not ${expected}px`);
            const scroll = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
            if (scroll[0] > scroll[1]) problems.push(`${at}: scrollWidth ${scroll[0]} > ${scroll[1]}`);
            for (const o of await overflowing(page)) problems.push(`${at}: ${o}`);
            for (const c of await page.evaluate(clippedHeadlines)) problems.push(`${at}: ${c}`);
            for (const r of await page.evaluate(raggedCardRows)) problems.push(`${at}: ${r}`);
            for (const b of await page.evaluate(brokenCrumbs)) problems.push(`${at}: ${b}`);
          }
          // The phone menu open, with the search box's hint showing: still nothing past the edge.
          if (viewport.width < 768) {
            await page.getByRole('button', { name: '菜单' }).click();
            const search = page.locator('#site-nav').getByRole('search');
            await search.getByRole('button', { name: '搜索' }).click();
            await search.getByRole('alert').waitFor();
            for (const o of await overflowing(page)) problems.push(`${viewport.width} ${mode} phone menu open: ${o}`);
            if (await page.evaluate(() => scrollX !== 0)) problems.push(`${viewport.width} ${mode} phone menu open: scrolled sideways`);
          }
        }
      }
      assert.deepEqual(problems, []);
    },
  },
  {
    name: '关怀版: at 特大 a table too wide for its column is read a row at a time, each value beside its column’s name, none scrolls sideways',
    async run({ page, base }) {
      const problems = [];
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await store(page, base, LARGEST);
        // 班列线路与时刻 (six columns), 运营线路 (four).
        for (const route of ['/services/timetable', '/business_overview/operating_route']) {
          await visit(page, base, route);
          const boxes = await page.evaluate(() =>
            [...document.querySelectorAll('main .article__body .table-scroll')].map((box) => {
              const cell = box.querySelector('tbody td');
              return {
                scrolls: box.scrollWidth > box.clientWidth + 1,
                stacked: cell !== null && getComputedStyle(cell).display === 'block',
                label: cell ? getComputedStyle(cell, '::before').content : 'none',
              };
            }),
          );
          if (boxes.length === 0) problems.push(`${viewport.width} ${route}: no table`);
          boxes.forEach((b, i) => {
            if (b.scrolls) problems.push(`${viewport.width} ${route}: table ${i + 1} scrolls sideways`);
            if (b.stacked && !/：/.test(b.label)) problems.push(`${viewport.width} ${route}: table ${i + 1}'s rows stand alone without their columns' names`);
          });
        }
      }
      assert.deepEqual(problems, []);
    },
  },
  {
    name: '关怀版: at the standard size cards of a row are even and headlines are not cut either',
    async run({ page, base }) {
      const routes = await layoutRoutes(base);
      const problems = [];
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        for (const route of routes) {
          await visit(page, base, route);
          for (const c of await page.evaluate(clippedHeadlines)) problems.push(`${viewport.width} ${route}: ${c}`);
          for (const r of await page.evaluate(raggedCardRows)) problems.push(`${viewport.width} ${route}: ${r}`);
        }
      }
      assert.deepEqual(problems, []);
    },
  },
  {
    name: '关怀版: the skip link is out of sight until Tab focuses it, then in sight, and Enter moves focus to the content',
    async run({ page, base }) {
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        for (const prefs of [STANDARD, MAXIMUM, { size: 'xlarge', spacing: true, contrast: true }]) {
          await store(page, base, prefs);
          for (const route of ['/', routeOf('single')]) {
            await visit(page, base, route);
            const at = `${viewport.width} ${JSON.stringify(prefs)} ${route}`;
            const before = await page.evaluate(skipLinkState);
            assert.ok(!before.visible && (before.box[2] <= 1 || before.box[3] <= 1 || before.box[1] + before.box[3] <= 0), `${at}: shows before focus ${before.box}`);
            await page.keyboard.press('Tab');
            const focused = await page.evaluate(skipLinkState);
            assert.ok(focused.focused, `${at}: the first Tab focuses the skip link`);
            assert.ok(focused.visible && focused.box[2] > 40 && focused.box[3] > 20, `${at}: focused but not in sight ${focused.box}`);
            await page.keyboard.press('Enter');
            assert.equal(await page.evaluate(() => document.activeElement.id), 'main-content', `${at}: Enter moves focus to the content`);
            assert.ok(!(await page.evaluate(skipLinkState)).visible, `${at}: hidden again after use`);
          }
        }
      }
    },
  },
  {
    name: "关怀版: 大鼠标 uses the app's own cursor files under the CSP, 十字线 follows the pointer without catching it, both lazily",
    async run({ page, base, consoleErrors }) {
      await page.addInitScript(() => {
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      const chunks = [];
      page.on('request', (r) => /\/reading-(guide|speech)\.[0-9a-f]+\.chunk\.js$/.test(r.url()) && chunks.push(r.url().match(/reading-(\w+)/)[1]));
      await store(page, base, STANDARD);
      await visit(page, base, routeOf('single'));
      assert.deepEqual(chunks, [], 'nothing of 十字线 or 语音朗读 loads before it is asked for');
      await page.locator('summary.reading__toggle').click();
      await page.getByRole('button', { name: '大鼠标' }).click();
      const cursors = await page.evaluate(() => ({
        body: getComputedStyle(document.querySelector('main p')).cursor,
        link: getComputedStyle(document.querySelector('main a[href]')).cursor,
        button: getComputedStyle(document.querySelector('.reading__toggle')).cursor,
        input: getComputedStyle(document.querySelector('input')).cursor,
      }));
      assert.match(cursors.body, /url\("?[^)]*\/assets\/arrow\.[0-9a-f]+\.svg"?\) 6 4, auto/);
      assert.match(cursors.link, /\/assets\/hand\.[0-9a-f]+\.svg"?\) 21 2, pointer/);
      assert.match(cursors.button, /\/assets\/hand\./);
      assert.match(cursors.input, /\/assets\/text\./);
      for (const url of Object.values(cursors).map((c) => c.match(/url\("?([^")]+)/)[1])) {
        const r = await page.request.get(url);
        assert.equal(r.status(), 200, url);
        assert.match(r.headers()['content-type'], /^image\/svg\+xml\b/, url);
        assert.match(await r.text(), /width="48" height="48"/);
      }
      // 十字线: its chunk arrives now, the lines cross at the pointer, the page under them still takes clicks.
      await page.getByRole('button', { name: '十字线' }).click();
      const guide = page.locator('svg[data-reading-guide]');
      await guide.waitFor({ state: 'attached' });
      assert.deepEqual(chunks, ['guide']);
      assert.equal(await guide.getAttribute('aria-hidden'), 'true');
      await page.keyboard.press('Escape');
      await page.mouse.move(300, 400);
      await page.waitForFunction(() => document.querySelector('svg[data-reading-guide] line.reading-guide__line--h')?.getAttribute('y1') === '400');
      const drawn = await page.evaluate(() => {
        const svg = document.querySelector('svg[data-reading-guide]');
        const at = (axis, attr) => svg.querySelector(`.reading-guide__line--${axis}`).getAttribute(attr);
        return {
          pointerEvents: getComputedStyle(svg).pointerEvents,
          display: getComputedStyle(svg).display,
          h: at('h', 'y1'),
          v: at('v', 'x1'),
          under: document.elementFromPoint(300, 400)?.closest('svg[data-reading-guide]') === null,
          fixed: getComputedStyle(svg).position,
        };
      });
      assert.deepEqual(drawn, { pointerEvents: 'none', display: 'block', h: '400', v: '300', under: true, fixed: 'fixed' });
      // Kept: a reload draws it again and keeps the cursor.
      await page.reload();
      await takenOver(page);
      await heading(page);
      await page.mouse.move(120, 200);
      await page.waitForFunction(() => document.querySelector('svg[data-reading-guide] .reading-guide__line--v')?.getAttribute('x1') === '120');
      assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-cursor')), 'large');
      await page.locator('summary.reading__toggle').click();
      await page.getByRole('button', { name: '重置' }).click();
      await guide.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).cursor), 'auto');
      assert.deepEqual(await page.evaluate(() => window.__violations), []);
      assert.deepEqual(consoleErrors, []);
    },
  },
  {
    name: '关怀版: 语音朗读 is offered only with a Chinese voice, reads the main content in zh-CN and stops',
    async run({ page, base, context, consoleErrors }) {
      const chunks = [];
      page.on('request', (r) => /\/reading-speech\.[0-9a-f]+\.chunk\.js$/.test(r.url()) && chunks.push(r.url()));
      // An engine with English voices only: no 语音朗读.
      await page.addInitScript(fakeSpeech, ['en-US', 'en-GB']);
      await visit(page, base, routeOf('single'));
      await page.locator('summary.reading__toggle').click();
      await page.getByRole('button', { name: '十字线' }).waitFor();
      assert.equal(await page.getByRole('button', { name: '语音朗读' }).count(), 0);
      // With a Chinese voice (a fresh page, so the engine is the new one).
      const reader = await context.newPage();
      reader.on('request', (r) => /\/reading-speech\.[0-9a-f]+\.chunk\.js$/.test(r.url()) && chunks.push(r.url()));
      await reader.addInitScript(fakeSpeech, ['en-US', 'zh-CN']);
      await visit(reader, base, routeOf('single'));
      await reader.locator('summary.reading__toggle').click();
      const speak = reader.getByRole('button', { name: '语音朗读' });
      assert.equal(await speak.getAttribute('aria-pressed'), 'false');
      assert.equal(chunks.length, 0, 'the reading chunk waits for the first press');
      await speak.click();
      await reader.waitForFunction(() => window.__spoken.length > 0);
      assert.equal(chunks.length, 1);
      assert.equal(await speak.getAttribute('aria-pressed'), 'true');
      const spoken = await reader.evaluate(() => window.__spoken.map(({ text, lang, voice }) => ({ text, lang, voice })));
      const main = await reader.evaluate(() => document.getElementById('main-content').innerText.replace(/\s+/g, ''));
      assert.equal(spoken.map((s) => s.text).join('').replace(/\s+/g, ''), main, 'reads #main-content whole, in order');
      assert.ok(spoken.every((s) => s.lang === 'zh-CN' && s.voice === 'test zh-CN' && s.text.length <= 120), 'zh-CN pieces');
      const heading1 = await heading(reader);
      assert.ok(spoken[0].text.startsWith(heading1.slice(0, 2)) || spoken.some((s) => s.text.includes(heading1)), 'the heading is read');
      const cancelled = await reader.evaluate(() => window.__cancelled);
      await speak.click();
      assert.equal(await speak.getAttribute('aria-pressed'), 'false');
      assert.equal(await reader.evaluate(() => window.__cancelled), cancelled + 1, 'stop cancels the engine');
      // Read to the end: the button is unpressed again.
      // (The engine is handed every piece at once, so the last one asked for is the last of this read.)
      await reader.evaluate(() => {
        window.__spoken = [];
      });
      await speak.click();
      // The same text again: wait for all its pieces, then end the last; the button follows.
      await reader.waitForFunction((n) => window.__spoken.length >= n, spoken.length);
      await reader.evaluate(() => window.__spoken.at(-1).utterance.onend());
      await reader.waitForFunction(
        (name) => [...document.querySelectorAll('button')].find((b) => b.textContent.includes(name))?.getAttribute('aria-pressed') === 'false',
        '语音朗读',
      );
      await reader.close();
      assert.deepEqual(consoleErrors, []);
    },
  },
  {
    name: '关怀版: stored zoom, text size and cursor are on <html> before the first content is painted',
    async run({ page, base }) {
      await store(page, base, { ...MAXIMUM, cursor: true, contrast: true });
      // Records <html>'s attributes the moment anything is put into #root (the page the gateway
      // drew, as the parser reads it), and its text size once that has painted (the stylesheets
      // are in then: the text size is theirs).
      await page.addInitScript(() => {
        new MutationObserver((_, observer) => {
          const root = document.getElementById('root');
          if (!root || root.childElementCount === 0) return;
          observer.disconnect();
          const html = document.documentElement;
          window.__firstContent = {
            size: html.getAttribute('data-text-size'),
            zoom: html.getAttribute('data-zoom'),
            cursor: html.getAttribute('data-cursor'),
            contrast: html.getAttribute('data-contrast'),
          };
        }).observe(document, { childList: true, subtree: true });
        new PerformanceObserver((list, observer) => {
          if (!list.getEntriesByName('first-contentful-paint').length) return;
          observer.disconnect();
          window.__firstPaintFont = getComputedStyle(document.documentElement).fontSize;
        }).observe({ type: 'paint', buffered: true });
      });
      await visit(page, base, routeOf('news'));
      assert.deepEqual(await page.evaluate(() => ({ ...window.__firstContent, font: window.__firstPaintFont })), {
        size: 'xlarge',
        zoom: '150',
        cursor: 'large',
        contrast: 'high',
        font: '36px',
      });
    },
  },
  {
    name: "关怀版: 无障碍声明 names the company, the standards and the site's e-mail and phone",
    async run({ page, base }) {
      const site = await api(base, '/site');
      await visit(page, base, '/accessibility');
      const main = page.locator('main');
      const text = await main.innerText();
      for (const expected of [site.companyName, 'GB/T 37668', '适老化通用设计规范', 'WCAG', '2.1', '语音朗读', '十字线', '大鼠标', 'Esc']) {
        assert.ok(text.includes(expected), `the statement mentions ${expected}`);
      }
      assert.equal(await main.locator(`a[href="mailto:${site.email}"]`).count(), 1);
      assert.equal(await main.locator(`a[href^="tel:"]`, { hasText: site.phone }).count(), 1);
      assert.equal(await main.locator('a[href="/portal/contact"]').count(), 1);
    },
  },
];
