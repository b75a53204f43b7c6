// Issue 34's sweep: nothing cut off on a phone or in 关怀版. Every page of the route table, an
// article with a chart, a table and a picture, the search page and the not-found page, at 1366, 768,
// 390 and 320 px, and in 关怀版 at every text size and zoom at 320 px (特大 and 特大 at 150 % at 390 px
// too), checked for:
//
// (a) nothing wider than the screen: every element's box lies inside the viewport's width, unless it
//     is inside a box that scrolls sideways and says so (the contract below). The page itself never
//     scrolls sideways, and body's `overflow-x: hidden` does not count as a box: what it hides is cut.
// (b) no text over other text: the line boxes of every visible text node (Range.getClientRects),
//     clipped by the boxes that clip them, overlap no other node's.
// (c) the organisation chart: every box of it can be scrolled into view inside its scroll box.
// (d) axe: no violation of WCAG 2.1 A/AA or axe's best practice at 1366 and 390 px.
//
// A box that scrolls sideways says so (the contract, docs/frontend.md "Wide content"): the keyboard
// reaches it (it is a stop itself, tabindex 0, so the arrow keys scroll it; or it holds links or
// buttons, which scroll into view as Tab reaches them), a named landmark holds it (the box itself as
// role="region" with a name, or the named navigation it is part of), and its aria-describedby (or its
// landmark's) names a cue the visitor can see: on screen, inside the viewport, with a text that says
// 滑动 or 滚动 (on an English page, swipe or scroll), which a screen reader reads as the description.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { HOSTILE_ARTICLE, api, sweep, takenOver } from './support.mjs';

const table = JSON.parse(readFileSync(new URL('../src/app/route-table.json', import.meta.url), 'utf8'));
const flat = (routes) => routes.flatMap((r) => [r, ...flat(r.routes ?? [])]);

/**
 * What each page is checked in, in order: the standard page from wide to narrow, then 关怀版 at every
 * text size and zoom on a 320 px phone, and its largest text, alone and at the largest zoom (the root
 * at 36 px), at 390 px too; then 高对比度 alone, and every reading aid at once (特大, 高对比度, 宽行距, as a
 * visitor who needs them all sets them) at 1280 and 320 px. Axe where `axe` says: the standard page at
 * 1366 and 390 px, 关怀版's 大, 特大 and 150 % zoom at 320 px, 高对比度 at 1366 and all aids at 1280.
 * Each route is loaded once and every mode is applied in place (these were three sweeps of their
 * own, each loading every route again).
 */
const PHONE = { width: 390, height: 844 };
const SMALL = { width: 320, height: 640 };
/** The 关怀版 modes a visitor picks alone (大, 特大, 页面缩放 150 %), where axe runs too. */
const AXED_CARE = new Set(['large@100', 'xlarge@100', 'standard@150']);
const CARE = ['standard', 'large', 'xlarge']
  .flatMap((size) => [100, 125, 150].map((zoom) => ({ size, zoom })))
  .filter(({ size, zoom }) => size !== 'standard' || zoom !== 100)
  .map((prefs) => ({
    mode: `关怀版${{ standard: '标准', large: '大', xlarge: '特大' }[prefs.size]}${prefs.zoom === 100 ? '' : `+${prefs.zoom}%`}`,
    prefs,
    widths: (prefs.size === 'xlarge' && prefs.zoom !== 125 ? [PHONE, SMALL] : [SMALL]).map((width) =>
      width === SMALL && AXED_CARE.has(`${prefs.size}@${prefs.zoom}`) ? { ...width, axe: true } : width,
    ),
  }));
const MODES = [
  { mode: '标准', prefs: null, widths: [{ width: 1366, height: 900, axe: true }, { width: 768, height: 1024 }, { ...PHONE, axe: true }, SMALL] },
  ...CARE,
  { mode: '高对比度', prefs: { contrast: true }, widths: [{ width: 1366, height: 900, axe: true }] },
  { mode: '全部辅助', prefs: { size: 'xlarge', contrast: true, spacing: true }, widths: [{ width: 1280, height: 800, axe: true }, SMALL] },
];

/**
 * The article bodies the pages do not show by route: one with a chart (an SVG of 600 px or wider in
 * a figure), a table and a picture if the content has one, else the first with each. Looked up in
 * the lists' first pages, so new content is swept as it comes.
 */
async function featureArticles(base) {
  const tree = (await api(base, '/category/list')).content;
  const lists = flat(tree.map((c) => ({ ...c, routes: c.subCategory }))).filter((c) => c.type === 'list');
  const wanted = {
    chart: (html) => /<figure[^>]*>(?:(?!<\/figure>)[\s\S])*<img[^>]*src="[^"]+\.svg"[^>]*width="(?:[6-9]\d\d|\d{4,})"/.test(html),
    table: (html) => /<table[\s>]/.test(html),
    picture: (html) => /<img[^>]*src="[^"]+\.(?:jpe?g|png|webp|avif|svg)"/.test(html),
  };
  const first = {};
  let checked = 0;
  for (const category of lists) {
    // A list the CMS refuses (an error answer has no result) has nothing to offer here.
    for (const item of (await api(base, `/article/list?categoryId=${category.id}&page=1&size=20`))?.content ?? []) {
      // The XSS case's article (the e2e stack's own) is no page a visitor meets.
      if (checked >= 80 || item.id === HOSTILE_ARTICLE.id) continue;
      checked += 1;
      const html = (await api(base, `/article/detail?id=${item.id}`))?.content ?? '';
      const has = Object.keys(wanted).filter((k) => wanted[k](html));
      if (has.length === 3) return [item.id];
      for (const k of has) first[k] ??= item.id;
    }
  }
  return [...new Set(Object.values(first))];
}

/** Every page of the route table (a duplicate `sameAs` route redirects to one of them), and the rest. */
async function everyRoute(base) {
  const party = (await api(base, '/article/list?categoryId=43&page=1&size=1')).content[0];
  const pages = flat(table.routes)
    .filter((r) => r.path && r.page && !r.sameAs && r.page !== 'login')
    .map((r) => (r.page === 'partyDetail' ? `${r.path}?id=${party.id}` : r.path));
  const articles = (await featureArticles(base)).map((id) => `/article/${id}`);
  return [...pages, ...articles, `/search?q=${encodeURIComponent('班列')}`, '/no/such/page'];
}

/**
 * Two frames: what a resize sets off (ResizeObserver callbacks, a re-render) has been laid out.
 * Each wait is bounded: `page.evaluate` has no timeout of its own, and a clean clone's CI
 * (2026-12-06) saw this case wait 80 minutes, until the run was killed, on a page whose frames or
 * fonts never came; a second frame that does not come within a second lets the checks run anyway.
 */
export const settle = (page) =>
  page.evaluate(async () => {
    const atMost = (ms, promise) => Promise.race([promise, new Promise((r) => setTimeout(r, ms))]);
    await atMost(5_000, document.fonts.ready);
    await atMost(1_000, new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  });

/**
 * The layout checks (a), (b) and (c), run in the page: a list of findings, empty when the page holds.
 * One function, for page.evaluate: nothing from outside.
 */
export function layoutFindings() {
  const vw = document.documentElement.clientWidth;
  const out = [];
  const styles = new Map();
  const style = (el) => {
    if (!styles.has(el)) styles.set(el, getComputedStyle(el));
    return styles.get(el);
  };
  const name = (el) => {
    const text = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 18);
    const cls = String(el.className?.baseVal ?? el.className).split(' ')[0];
    return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}${text ? ` "${text}"` : ''}`;
  };
  const scrollsX = (el) => ['auto', 'scroll'].includes(style(el).overflowX);
  const clips = (el) => el !== document.body && el !== document.documentElement && (style(el).overflowX !== 'visible' || style(el).overflowY !== 'visible');
  /**
   * The boxes that clip what `el` draws, nearest first: `el` itself, then the ancestors on its
   * containing-block chain whose overflow is not visible (an absolutely placed element escapes the
   * static ones between it and its positioned ancestor; a fixed one is clipped by the viewport
   * alone). Not body or html: their overflow is the viewport's, which (a) checks on its own.
   */
  const chains = new Map();
  const clippers = (el) => {
    if (chains.has(el)) return chains.get(el);
    const list = clips(el) ? [el] : [];
    const pos = style(el).position;
    if (pos !== 'fixed') {
      let parent = el.parentElement;
      if (pos === 'absolute') while (parent && parent !== document.body && style(parent).position === 'static') parent = parent.parentElement;
      if (parent && parent !== document.body && parent !== document.documentElement) list.push(...clippers(parent));
    }
    chains.set(el, list);
    return list;
  };
  // What is not drawn: out of sight by visibility, opacity or a clip path (the visually hidden).
  const unseen = new Map();
  const hidden = (el) => {
    if (!el || el === document.documentElement) return false;
    if (!unseen.has(el)) {
      const cs = style(el);
      // The content of a closed <details> (关怀版's panel) has boxes (content-visibility:
      // hidden lays it out for getClientRects) but is not drawn: checkVisibility says so.
      unseen.set(el, cs.display === 'none' || cs.opacity === '0' || cs.clipPath !== 'none' || !el.checkVisibility() || hidden(el.parentElement));
    }
    return unseen.get(el);
  };

  // The scroll-box contract (the header above): the keyboard reaches it, a named landmark holds it,
  // a visible cue describes it.
  const verdicts = new Map();
  const nameOf = (el) => (el.getAttribute('aria-label') || (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join('')).trim();
  const landmarkOf = (box) => {
    for (let el = box; el && el !== document.body; el = el.parentElement) {
      const role = el.getAttribute('role') ?? (el.tagName === 'NAV' ? 'navigation' : null);
      if ((role === 'region' || role === 'navigation') && nameOf(el)) return el;
    }
    return null;
  };
  const saysItScrolls = (box) => {
    if (verdicts.has(box)) return verdicts.get(box);
    const missing = [];
    if (box.tabIndex < 0 && !box.querySelector('a[href], button, input, select, textarea, [tabindex="0"]')) missing.push('the keyboard cannot scroll it');
    const landmark = landmarkOf(box);
    if (!landmark) missing.push('no named region or navigation holds it');
    const cues = [box, landmark]
      .filter(Boolean)
      .flatMap((el) => (el.getAttribute('aria-describedby') ?? '').split(/\s+/))
      .filter(Boolean)
      .map((id) => document.getElementById(id))
      .filter(Boolean);
    const seen = cues.find((cue) => {
      const r = cue.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && r.left >= -1 && r.right <= vw + 1 && !hidden(cue) && style(cue).visibility === 'visible' && /滑动|滚动|swipe|scroll/i.test(cue.textContent);
    });
    if (!seen) missing.push('no visible cue that says it scrolls (aria-describedby)');
    const verdict = missing.length ? missing.join(', ') : null;
    verdicts.set(box, verdict);
    return verdict;
  };
  /**
   * Where `el`'s box (or, `text`, a line of its text, which its own overflow clips) drawn at
   * `left`–`right` sticks out: null when in sight or in a box that says it scrolls.
   */
  const reported = new Set();
  const pastTheScreen = (el, left, right, text = false) => {
    if (right <= vw + 1 && left >= -1) return null;
    const clip = clippers(el).find((c) => text || c !== el);
    if (!clip) return `${name(el)} runs past the screen (${Math.round(left)}–${Math.round(right)} of ${vw})`;
    if (!scrollsX(clip)) return null; // clipped on purpose (visually hidden, a carousel's strip): the clipper is checked itself
    const c = clip.getBoundingClientRect();
    if (left < c.left + clip.clientLeft - clip.scrollLeft - 1) return `${name(el)} is cut off on the left of ${name(clip)}, where no scrolling reaches`;
    if (clip.scrollWidth <= clip.clientWidth + 1 || reported.has(clip)) return null;
    reported.add(clip);
    const verdict = saysItScrolls(clip);
    return verdict && `${name(clip)} scrolls sideways but says nothing: ${verdict}`;
  };

  // (a) Wider than the screen: the page, each element's box, and each line of text.
  if (document.documentElement.scrollWidth > vw + 1) out.push(`the page is ${document.documentElement.scrollWidth} px wide, more than the screen's ${vw}`);
  const flagged = new Set();
  for (const el of document.body.querySelectorAll('*')) {
    if ((el.parentElement && flagged.has(el.parentElement)) || hidden(el)) {
      if (el.parentElement && flagged.has(el.parentElement)) flagged.add(el);
      continue;
    }
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const finding = pastTheScreen(el, r.left, r.right);
    if (finding) {
      flagged.add(el);
      out.push(finding);
    }
  }

  // (b) Text over text, and (a) for text: each text node's line boxes, the height narrowed to the
  // glyphs' own band (0.8 em about the middle: a line box of Noto CJK is ~1.45 em, more than a tight
  // line-height, so the boxes of two lines of one heading touch without their glyphs doing so),
  // clipped by the boxes that clip the text and by the viewport's sides.
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || flagged.has(el) || hidden(el) || style(el).visibility !== 'visible') continue;
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE'].includes(el.tagName)) continue;
    const half = (parseFloat(style(el).fontSize) * 0.8) / 2;
    const clipBoxes = clippers(el).map((p) => {
      const pr = p.getBoundingClientRect();
      return { l: pr.left + p.clientLeft, t: pr.top + p.clientTop, r: pr.left + p.clientLeft + p.clientWidth, b: pr.top + p.clientTop + p.clientHeight };
    });
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width >= 1 && r.height >= 1);
    const drawn = [];
    for (const rect of rects) {
      if (rect.width < 1 || rect.height < 1) continue;
      const past = pastTheScreen(el, rect.left, rect.right, true);
      if (past && !flagged.has(el)) {
        flagged.add(el);
        out.push(`text of ${past}`);
      }
      const mid = (rect.top + rect.bottom) / 2;
      const band = Math.min(half, rect.height / 2);
      const box = { l: Math.max(rect.left, 0), r: Math.min(rect.right, vw), t: mid - band, b: mid + band, node };
      for (const c of clipBoxes) {
        box.l = Math.max(box.l, c.l);
        box.r = Math.min(box.r, c.r);
        box.t = Math.max(box.t, c.t);
        box.b = Math.min(box.b, c.b);
      }
      if (box.r - box.l > 1 && box.b - box.t > 1) {
        boxes.push(box);
        drawn.push(rect);
      }
    }
    // Squeezed to a character a line (issue 34: the company's name in 关怀版 filled two screens so).
    const fontSize = parseFloat(style(el).fontSize);
    if (node.textContent.trim().length >= 4 && drawn.length >= 4 && drawn.every((r) => r.width < fontSize * 1.6)) {
      out.push(`${name(el)}: ${drawn.length} lines of one character each`);
    }
  }
  boxes.sort((x, y) => x.t - y.t);
  const overlaps = new Set();
  for (let i = 0; i < boxes.length; i += 1) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length && boxes[j].t < a.b - 1; j += 1) {
      const b = boxes[j];
      if (a.node === b.node) continue;
      const w = Math.min(a.r, b.r) - Math.max(a.l, b.l);
      const h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
      if (w > 1 && h > 1) {
        const key = `${name(a.node.parentElement)} × ${name(b.node.parentElement)}`;
        if (!overlaps.has(key)) out.push(`text over text: ${key} at ${Math.round(a.l)},${Math.round(a.t + window.scrollY)}`);
        overlaps.add(key);
      }
    }
  }

  // (c) The organisation chart: each box lies where its scroll box can bring it.
  for (const chart of document.querySelectorAll('.org-chart')) {
    const items = [...chart.querySelectorAll('li > :first-child')];
    if (items.length === 0) out.push(`${name(chart)} has no boxes`);
    const cr = chart.getBoundingClientRect();
    const scroller = scrollsX(chart);
    const left = scroller ? cr.left + chart.clientLeft - chart.scrollLeft : 0;
    const right = scroller ? left + chart.scrollWidth : vw;
    const unreachable = items.filter((item) => {
      const r = item.getBoundingClientRect();
      return r.width < 1 || r.left < left - 1 || r.right > right + 1;
    });
    if (unreachable.length) out.push(`org chart: ${unreachable.length} of ${items.length} boxes out of reach: ${unreachable.slice(0, 4).map(name).join(', ')}`);
    if (cr.left < -1 || cr.right > vw + 1) out.push(`the org chart's box runs past the screen (${Math.round(cr.left)}–${Math.round(cr.right)})`);
  }
  return out.slice(0, 12);
}

/**
 * axe-core itself, the engine @axe-core/playwright drives (resolved from it, so the same version):
 * put into each page once and run there at each width. AxeBuilder injects it again for every
 * analysis and gathers every frame's partial results, which took 1.3–2.1 s a page here against
 * 0.3 s for a run in place (these pages have no frames); the rules and tags are the same.
 */
const fromAxeBuilder = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE = readFileSync(fromAxeBuilder.resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export async function axeFindings(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }))), AXE_TAGS);
  return violations.map((v) => `axe ${v.id} (${v.impact}): ${v.nodes.slice(0, 2).join(', ')}`);
}

/**
 * A returning visitor's 关怀版 choice, applied as another tab's would be: stored, then the `storage`
 * event, on which the app writes the same attributes on <html> its head script writes on a load
 * (features/reading/prefs.ts). One load of a page serves every mode; null is the standard page.
 */
async function choose(page, prefs) {
  await page.evaluate((p) => {
    if (p) localStorage.setItem('readingPrefs', p);
    else localStorage.removeItem('readingPrefs');
    window.dispatchEvent(new StorageEvent('storage', { key: 'readingPrefs' }));
  }, prefs && JSON.stringify(prefs));
}

/** `promise`, or an error naming where the sweep was when the page stopped answering (60 s). */
async function within(at, promise) {
  let timer;
  const stuck = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${at}: the page did not answer in 60 s`)), 60_000);
  });
  return Promise.race([promise, stuck]).finally(() => clearTimeout(timer));
}

/** Opens `route` (the standard page) and checks it in every mode at each of its widths. */
async function sweepRoute(page, base, route) {
  const findings = [];
  await page.setViewportSize({ width: MODES[0].widths[0].width, height: MODES[0].widths[0].height });
  await page.goto(`${base}/portal${route}`);
  await takenOver(page);
  await page.locator('main h1').first().waitFor({ timeout: 10_000 });
  await page.waitForLoadState('networkidle');
  for (const { mode, prefs, widths } of MODES) {
    await choose(page, prefs);
    for (const { width, height, axe } of widths) {
      await page.setViewportSize({ width, height });
      const at = `${mode} ${width} ${route}`;
      await within(at, settle(page));
      for (const f of await within(at, page.evaluate(layoutFindings))) findings.push(`${at}: ${f}`);
      if (axe) for (const f of await within(at, axeFindings(page))) findings.push(`${at}: ${f}`);
    }
  }
  await choose(page, null);
  return findings;
}

/** Lanes of their own (a context each: a lane's 关怀版 choice is not another's), taking routes in turn. */
export async function inLanes(browser, routes, visit, lanes = 2) {
  const results = new Array(routes.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      const context = await browser.newContext({ locale: 'zh-CN' });
      const page = await context.newPage();
      try {
        while (next < routes.length) {
          const i = next;
          next += 1;
          results[i] = await visit(page, routes[i]);
        }
      } finally {
        await context.close();
      }
    }),
  );
  return results;
}

export const sweepTests = [
  {
    // One of the longest cases (`long`: started first, so no worker is left alone with it at the end).
    long: true,
    // Starts before the search index is built (run.mjs); its search page waits for it.
    waitsForSearch: true,
    name: 'sweep: every route at 1366, 768, 390 and 320 px, in 关怀版 at every text size and zoom on phones, in 高对比度 and with every aid on: nothing past the screen outside a scroll box that says so, no text over text, every org-chart box in reach, axe clean',
    async run({ browser, base, artifacts, searchReady }) {
      const routes = await everyRoute(base);
      console.log(`       ${routes.length} routes, the articles ${routes.filter((r) => r.startsWith('/article/')).join(', ') || 'none'}`);
      const errors = [];
      const findings = (
        await inLanes(browser, routes, async (page, route) => {
          const onError = (e) => errors.push(`${route}: ${e}`);
          page.on('pageerror', onError);
          try {
            if (route.startsWith('/search')) await searchReady;
            return await sweepRoute(page, base, route);
          } finally {
            page.off('pageerror', onError);
          }
        })
      ).flat();
      // The whole list, for the reader of a failure (the harness prints a few lines of it).
      writeFileSync(join(artifacts, 'sweep-findings.txt'), findings.join('\n'));
      assert.ok(routes.length > 40, `${routes.length} routes`);
      assert.deepEqual(findings, [], `${findings.length} findings, all in reports/e2e/sweep-findings.txt`);
      assert.deepEqual(errors, []);
    },
  },
];
