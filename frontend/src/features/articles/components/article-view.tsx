import './article-view.css';

import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';

import { Lightbox, type LightboxImage } from '../../../components/lightbox';
import { VideoPlayer } from '../../../components/video-player';
import { formatNumber, messages } from '../../../lib/locale';
import { articleHref } from '../../../lib/page-href';
import { download } from '../../../lib/request';
import type { Article } from '../api';
import { sizeLabel } from '../format';
import { imageOf } from './article-meta';
import { ArticleTools, type ArticleSize } from './article-tools';
import { idOf, type Id } from '../../../lib/id';

const text = messages({
  zh: {
    scrollHint: (what: 'table' | 'chart') => `左右滑动查看完整${what === 'table' ? '表格' : '架构图'}`,
    orgChart: (n: number | null) => (n === null ? '组织架构图' : `组织架构图 ${n}`),
    table: (name: string | undefined) => (name ? `表格：${name}` : '表格'),
    tableNumbered: (n: number, name: string | undefined) => `表格 ${n}${name ? `：${name}` : ''}`,
    viewLarger: (alt: string) => `查看大图：${alt}`,
    published: '发布时间：',
    source: '来源：',
    author: '作者：',
    editor: '责任编辑：',
    views: (n: number) => `浏览：${formatNumber(n)} 次`,
    attachments: '附件',
    size: (size: string) => `（${size}）`,
    printUrl: '本文链接：',
    siblings: '上一篇与下一篇',
    prev: '上一篇：',
    next: '下一篇：',
    none: '没有了',
  },
  en: {
    scrollHint: (what: 'table' | 'chart') => `Swipe sideways to see the whole ${what}`,
    orgChart: (n: number | null) => (n === null ? 'Organisation chart' : `Organisation chart ${n}`),
    table: (name: string | undefined) => (name ? `Table: ${name}` : 'Table'),
    tableNumbered: (n: number, name: string | undefined) => `Table ${n}${name ? `: ${name}` : ''}`,
    viewLarger: (alt: string) => `View larger image: ${alt}`,
    published: 'Published: ',
    source: 'Source: ',
    author: 'Author: ',
    editor: 'Editor: ',
    views: (n: number) => `Views: ${formatNumber(n)}`,
    attachments: 'Attachments',
    size: (size: string) => ` (${size})`,
    printUrl: 'Link to this article: ',
    siblings: 'Previous and next articles',
    prev: 'Previous: ',
    next: 'Next: ',
    none: 'None',
  },
});

interface ArticleViewProps {
  article: Article;
  /** Whether to show the title block (a single-page category shows its own heading). */
  withHeader?: boolean;
  hrefOf?: (id: Id) => string;
  /** The page's address to share and print (its real URL, `ContentPageProps.shareUrl`). */
  shareUrl: string;
}


// Wide content in an article body (issue 34). The CMS's HTML is reworked as a string, so the
// gateway's render (no DOM there) and the browser's draw the same markup, and a reader without
// JavaScript gets it too:
// - a table is wrapped in a box that scrolls sideways, a named region and a keyboard stop, with a
//   cue above it (its line is kept, the cue shown only while the box does scroll: the effect below);
// - the organisation chart is such a box too (it lays itself out to fit, article-view.css);
// - a chart (an SVG drawn 600 px wide or more, in a figure outside a gallery) is marked `chart`: it
//   scales to its column and opens in the 大图 view.
// The gateway has sanitised the HTML (ammonia): well-formed, attribute values quoted. This reads its
// tags only to find those elements; the text it writes into attributes is escaped.

const TAG = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function attrOf(attrs: string, name: string): string | undefined {
  const found = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(attrs);
  return found ? (found[1] ?? found[2] ?? found[3]) : undefined;
}

const hasClass = (attrs: string, name: string) => (attrOf(attrs, 'class') ?? '').split(/\s+/).includes(name);

/** The text of a piece of HTML, its entities read and its spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === '#') return String.fromCodePoint(code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : Number(code.slice(1)));
      return ENTITY[code.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

const escapeAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A chart: an SVG drawn for a wide page (its width attribute); scaled to a phone it wants the 大图 view. */
const isChart = (imgAttrs: string) => /\.svg([?#]|$)/i.test(attrOf(imgAttrs, 'src') ?? '') && Number(attrOf(imgAttrs, 'width')) >= 600;

/**
 * A table that can be read a row at a time (`table-scroll--stack`): one header row of `th` naming
 * its columns, no merged cell, no table inside, every body row as many cells as columns. Its body
 * cells are given their column's name (`data-label`), which article-view.css shows beside each value
 * when the text is large and the table would not fit its column (issue 47: at 特大 a wide table's
 * last column was a sideways scroll on every row). Returns the table's HTML so labelled and its
 * column count, or nothing for any other table (it keeps scrolling).
 */
export function labelledTable(table: string): { html: string; columns: number } | undefined {
  if (/\s(?:colspan|rowspan)\s*=/i.test(table) || (table.match(/<table\b/gi) ?? []).length !== 1) return undefined;
  const head = /<thead\b[^>]*>([\s\S]*?)<\/thead>/i.exec(table);
  if (!head || (head[1].match(/<tr\b/gi) ?? []).length !== 1) return undefined;
  const labels = [...head[1].matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/gi)].map((m) => textOf(m[1]));
  if (labels.length < 2 || labels.some((l) => l === '')) return undefined;
  const bodyFrom = head.index + head[0].length;
  let body = table.slice(bodyFrom);
  let rows = 0;
  let fits = true;
  body = body.replace(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi, (row: string) => {
    let cell = 0;
    const labelled = row.replace(/<(td|th)\b/gi, (open: string) => {
      const label = labels[cell];
      cell += 1;
      return label === undefined ? open : `${open} data-label="${escapeAttr(label)}"`;
    });
    rows += 1;
    if (cell !== labels.length) fits = false;
    return labelled;
  });
  if (!fits || rows === 0) return undefined;
  return { html: table.slice(0, bodyFrom) + body, columns: labels.length };
}

/** The cue above a box that scrolls sideways: kept hidden (its line kept too) until the box scrolls. */
const scrollHint = (id: string, what: 'table' | 'chart') =>
  `<p class="scroll-hint" id="${id}" aria-hidden="true">${escapeAttr(text().scrollHint(what))}</p>`;

/**
 * The article's HTML with its tables and organisation charts in scroll boxes and its charts marked;
 * `idPrefix` makes the cues' ids unique in the page (React's useId: the same on the server and in
 * the browser).
 */
export function enhanceBody(html: string, idPrefix: string): string {
  const say = text();
  const edits: { at: number; remove: number; insert: string }[] = [];
  const open: { name: string; at: number; tag: string; attrs: string; gallery: boolean; chart?: boolean }[] = [];
  const tables: { start: number; end: number; caption?: string; heading?: string }[] = [];
  let table: { start: number; caption?: string; heading?: string } | null = null;
  let tableDepth = 0;
  let captionFrom = -1;
  let headingFrom = -1;
  let lastHeading: string | undefined;
  let boxes = 0;
  let charts = 0;
  for (const match of html.matchAll(TAG)) {
    const [tag, closing, rawName, attrs = ''] = match;
    if (rawName === undefined) continue; // a comment
    const name = rawName.toLowerCase();
    const at = match.index;
    const after = at + tag.length;
    if (!closing) {
      const inGallery = open.some((e) => e.gallery);
      if (name === 'table') {
        if (tableDepth === 0) table = { start: at, heading: lastHeading };
        tableDepth += 1;
      } else if (name === 'caption' && tableDepth === 1) {
        captionFrom = after;
      } else if (/^h[2-6]$/.test(name)) {
        headingFrom = after;
      } else if (name === 'img' && !inGallery && isChart(attrs)) {
        const figure = [...open].reverse().find((e) => e.name === 'figure');
        if (figure) figure.chart = true;
      } else if (name === 'div' && hasClass(attrs, 'org-chart') && tableDepth === 0) {
        boxes += 1;
        charts += 1;
        const id = `${idPrefix}-scroll-${boxes}`;
        const label = say.orgChart(charts > 1 ? charts : null);
        edits.push({ at, remove: 0, insert: scrollHint(id, 'chart') });
        edits.push({ at: at + 4, remove: 0, insert: ` role="region" tabindex="0" aria-label="${escapeAttr(label)}" data-scroll-hint="${id}"` });
      }
      if (!VOID.has(name) && !tag.endsWith('/>')) open.push({ name, at, tag, attrs, gallery: hasClass(attrs, 'gallery') });
      continue;
    }
    const index = open.map((e) => e.name).lastIndexOf(name);
    const closed = index >= 0 ? open.splice(index) : [];
    const element = closed[0];
    if (name === 'figure' && element?.chart) {
      // The sanitiser writes every attribute value in double quotes.
      const tagWithClass = /\sclass="/i.test(element.tag)
        ? element.tag.replace(/(\sclass=")([^"]*)"/i, (_, lead: string, value: string) => `${lead}${value} chart"`)
        : `${element.tag.slice(0, 7)} class="chart"${element.tag.slice(7)}`;
      edits.push({ at: element.at, remove: element.tag.length, insert: tagWithClass });
    } else if (name === 'caption' && tableDepth === 1 && table && captionFrom >= 0) {
      table.caption = textOf(html.slice(captionFrom, at)) || undefined;
      captionFrom = -1;
    } else if (/^h[2-6]$/.test(name) && headingFrom >= 0) {
      lastHeading = textOf(html.slice(headingFrom, at)) || undefined;
      headingFrom = -1;
    } else if (name === 'table' && tableDepth > 0) {
      tableDepth -= 1;
      if (tableDepth === 0 && table) {
        tables.push({ ...table, end: after });
        table = null;
      }
    }
  }
  // Each table's region is named on its own (axe: landmark-unique): its caption, else the heading
  // it follows, else its number among the article's tables.
  const named = new Set<string>();
  tables.forEach((t, i) => {
    const name = t.caption ?? t.heading;
    let label = say.table(name);
    if (named.has(label) || (!name && tables.length > 1)) label = say.tableNumbered(i + 1, name);
    named.add(label);
    boxes += 1;
    const id = `${idPrefix}-scroll-${boxes}`;
    // Labelled only when no other edit falls inside it (a chart in a cell): edits keep the original's offsets.
    const inside = edits.some((e) => e.at > t.start && e.at < t.end);
    const stack = inside ? undefined : labelledTable(html.slice(t.start, t.end));
    const kind = stack ? ` table-scroll--stack table-scroll--${stack.columns >= 6 ? 'wide' : stack.columns >= 4 ? 'mid' : 'narrow'}` : '';
    edits.push({
      at: t.start,
      remove: 0,
      insert: `${scrollHint(id, 'table')}<div class="table-scroll${kind}" role="region" tabindex="0" aria-label="${escapeAttr(label)}" data-scroll-hint="${id}">`,
    });
    if (stack) edits.push({ at: t.start, remove: t.end - t.start, insert: stack.html });
    edits.push({ at: t.end, remove: 0, insert: '</div>' });
  });
  // Applied from the end, so each edit's offset is still the original's; at one offset, in the order made.
  return edits
    .map((edit, order) => ({ ...edit, order }))
    .sort((a, b) => b.at - a.at || b.order - a.order)
    .reduce((out, e) => out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove), html);
}

/** A caption's lines: a `<br>` in it starts a new one (the 大图 view shows them as lines too). */
function captionLines(caption: Element | null | undefined, fallback: string): string[] {
  if (!caption) return [fallback];
  const lines = [''];
  caption.childNodes.forEach((node) => {
    if (node.nodeName === 'BR') lines.push('');
    else lines[lines.length - 1] += node.textContent ?? '';
  });
  const kept = lines.map((line) => line.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return kept.length ? kept : [fallback];
}

/**
 * Where the page lives (`https://www.example.com`, or nothing when the site names no public
 * address), taken from the shared address: the share card's picture and the structured data name
 * absolute addresses from it.
 */
export function ArticleView({ article, withHeader = true, hrefOf = articleHref, shareUrl }: ArticleViewProps) {
  const [downloading, setDownloading] = useState<string | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const [gallery, setGallery] = useState<LightboxImage[]>([]);
  const [shown, setShown] = useState<number | null>(null);
  const [size, setSize] = useState<ArticleSize>('medium');
  const idPrefix = useId();
  const html = useMemo(() => enhanceBody(article.content ?? '', `body${idPrefix.replace(/[^a-zA-Z0-9_-]/g, '')}`), [article.content, idPrefix]);

  // A scroll box shows its cue, is a keyboard stop (the arrow keys scroll it) and is described by
  // the cue only while it does scroll: on a wide screen the same table fits and is none of these.
  // Before the paint, and again whenever the box or its content changes size (a turned phone, 字号,
  // 关怀版's text size).
  useLayoutEffect(() => {
    const boxes = Array.from(body.current?.querySelectorAll<HTMLElement>('[data-scroll-hint]') ?? []);
    if (boxes.length === 0) return undefined;
    const mark = () =>
      boxes.forEach((box) => {
        const scrolls = box.scrollWidth > box.clientWidth + 1;
        const hint = box.dataset.scrollHint ? document.getElementById(box.dataset.scrollHint) : null;
        box.classList.toggle('is-scrolling', scrolls);
        hint?.classList.toggle('is-shown', scrolls);
        if (scrolls) {
          box.tabIndex = 0;
          if (hint) box.setAttribute('aria-describedby', hint.id);
        } else {
          box.removeAttribute('tabindex');
          box.removeAttribute('aria-describedby');
        }
      });
    mark();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(mark);
    boxes.forEach((box) => {
      observer.observe(box);
      if (box.firstElementChild) observer.observe(box.firstElementChild);
    });
    return () => observer.disconnect();
  }, [html]);

  // Links to another article arrive as its real URL (the gateway leads links to the CMS's own
  // article pages there): a page with its own article addresses (党建风采) points them there.
  useEffect(() => {
    if (hrefOf === articleHref) return;
    body.current?.querySelectorAll<HTMLAnchorElement>('a[href^="/portal/article/"]').forEach((link) => {
      const id = idOf(/^\/portal\/article\/([^/?#]+)$/.exec(link.getAttribute('href') ?? '')?.[1]);
      if (id !== null) link.setAttribute('href', hrefOf(id));
    });
  }, [html, hrefOf]);

  // Gallery images and charts open in the 大图 view (the lightbox), by mouse or keyboard: a
  // certificate larger than its thumbnail, a chart as large as the screen allows (on a phone held
  // upright, turned to use the screen's length).
  useEffect(() => {
    const images = Array.from(body.current?.querySelectorAll<HTMLImageElement>('.gallery img, figure.chart img') ?? []);
    setGallery(
      images.map((img) => ({
        src: img.currentSrc || img.src,
        alt: img.alt,
        caption: captionLines(img.closest('figure')?.querySelector('figcaption'), img.alt),
        width: Number(img.getAttribute('width')) || undefined,
        height: Number(img.getAttribute('height')) || undefined,
      })),
    );
    const cleanups = images.map((img, i) => {
      img.tabIndex = 0;
      img.setAttribute('role', 'button');
      img.setAttribute('aria-label', text().viewLarger(img.alt));
      const open = () => setShown(i);
      const onKey = (e: KeyboardEvent) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          open();
        }
      };
      img.addEventListener('click', open);
      img.addEventListener('keydown', onKey);
      return () => {
        img.removeEventListener('click', open);
        img.removeEventListener('keydown', onKey);
      };
    });
    return () => cleanups.forEach((c) => c());
  }, [html]);
  const fetchAttachment = async (url: string, name: string) => {
    setDownloading(url);
    await download(url, name);
    setDownloading(null);
  };
  const t = text();
  const image = imageOf(article, shareUrl);
  const structured = {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: article.title,
    ...(article.publishTime ? { datePublished: `${article.publishTime.replace(' ', 'T')}+08:00` } : {}),
    ...(article.author ? { author: { '@type': 'Person', name: article.author } } : {}),
    ...(image ? { image: [image] } : {}),
    mainEntityOfPage: shareUrl,
  };
  return (
    <>
      {/* Structured data for search engines: data, not a script (`<` escaped, so no text of the
          CMS can end the block). */}
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(structured).replace(/</g, '\\u003c') }} />
      {withHeader && (
        <header className="article__header">
          <h1>{article.title}</h1>
          <p className="article__meta">
            {article.publishTime && (
              <span>
                {t.published}
                <time dateTime={article.publishTime.replace(' ', 'T')}>{article.publishTime}</time>
              </span>
            )}
            {article.source && (
              <span>
                {t.source}
                {article.source}
              </span>
            )}
            {article.author && (
              <span>
                {t.author}
                {article.author}
              </span>
            )}
            {article.editor && (
              <span>
                {t.editor}
                {article.editor}
              </span>
            )}
            {article.views !== undefined && <span>{t.views(article.views)}</span>}
          </p>
        </header>
      )}
      <ArticleTools size={size} onSize={setSize} url={shareUrl} />
      {article.video && <VideoPlayer src={article.video} poster={article.cover} title={article.title} captions={article.captions} />}
      {/* The gateway sanitises article HTML (ammonia) before it reaches the browser. */}
      <div ref={body} className={`article__body article__body--${size}`} dangerouslySetInnerHTML={{ __html: html }} />
      {gallery.length > 0 && <Lightbox images={gallery} index={shown} onIndex={setShown} />}
      {article.attachments && article.attachments.length > 0 && (
        <section className="attachments" aria-labelledby="attachments-title">
          <h2 id="attachments-title">{t.attachments}</h2>
          <ul>
            {article.attachments.map((a) => (
              <li key={a.url}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => fetchAttachment(a.url, a.name)}
                  disabled={downloading === a.url}
                >
                  {a.name}
                </button>
                {a.size !== undefined && <span className="muted">{t.size(sizeLabel(a.size))}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {/* Paper has no address bar: the printout says where the article lives. */}
      <p className="article__print-url">
        {t.printUrl}
        {shareUrl}
      </p>
      {(article.prev || article.next) && (
        <nav className="article__siblings" aria-label={t.siblings}>
          <p>
            {t.prev}
            {article.prev ? <a href={hrefOf(article.prev.id)}>{article.prev.title}</a> : <span className="muted">{t.none}</span>}
          </p>
          <p>
            {t.next}
            {article.next ? <a href={hrefOf(article.next.id)}>{article.next.title}</a> : <span className="muted">{t.none}</span>}
          </p>
        </nav>
      )}
    </>
  );
}
