import './article-view.css';

import { useEffect, useLayoutEffect, useRef, useState } from 'react';

import { Lightbox, type LightboxImage } from '../../../components/lightbox';
import { VideoPlayer } from '../../../components/video-player';
import { articleHref } from '../../../lib/page-href';
import { download } from '../../../lib/request';
import type { Article } from '../api';
import { sizeLabel } from '../format';
import { ArticleTools, type ArticleSize } from './article-tools';

interface ArticleViewProps {
  article: Article;
  /** Whether to show the title block (a single-page category shows its own heading). */
  withHeader?: boolean;
  hrefOf?: (id: number) => string;
  /** The page's address to share and print (its real URL, `ContentPageProps.shareUrl`). */
  shareUrl: string;
}


/**
 * A chart: an SVG drawn for a wide page (its width attribute), in a figure and not a gallery's.
 * Scaled to a phone's width its labels would be a few pixels high; it keeps a legible width
 * (article-view.css) and its box scrolls sideways instead.
 */
function isChart(img: HTMLImageElement): boolean {
  const src = img.getAttribute('src') ?? '';
  return /\.svg([?#]|$)/i.test(src) && Number(img.getAttribute('width')) >= 600 && !img.closest('.gallery');
}

/** The text of the heading a body element comes after (its own section's), if any. */
function precedingHeading(element: Element): string | undefined {
  for (let node = element.previousElementSibling; node; node = node.previousElementSibling) {
    if (/^H[2-6]$/.test(node.tagName)) return node.textContent?.trim() || undefined;
  }
  return undefined;
}

/**
 * Where the page lives (`https://www.example.com`, or nothing when the site names no public
 * address), taken from the shared address: the share card's picture and the structured data name
 * absolute addresses from it.
 */
function imageOf(article: Pick<Article, 'cover'>, shareUrl: string): string | undefined {
  if (!article.cover) return undefined;
  // Resolved as a browser would: a root-relative cover against the page, a protocol-relative one
  // (`//cdn…`) with the page's scheme, an absolute one as it is.
  try {
    return new URL(article.cover, shareUrl).href;
  } catch {
    return article.cover;
  }
}

/**
 * An article's share card and description in the page's head. Rendered by the route, outside the
 * article page's lazy chunk: React puts hoisted tags a lazy boundary hydrates into the head a
 * second time.
 */
export function ArticleMeta({ article, shareUrl }: { article: Pick<Article, 'summary' | 'cover'>; shareUrl: string }) {
  const image = imageOf(article, shareUrl);
  return (
    <>
      {article.summary && <meta name="description" content={article.summary} />}
      {article.summary && <meta property="og:description" content={article.summary} />}
      {image && <meta property="og:image" content={image} />}
    </>
  );
}

export function ArticleView({ article, withHeader = true, hrefOf = articleHref, shareUrl }: ArticleViewProps) {
  const [downloading, setDownloading] = useState<string | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const [gallery, setGallery] = useState<LightboxImage[]>([]);
  const [shown, setShown] = useState<number | null>(null);
  const [size, setSize] = useState<ArticleSize>('medium');

  // Charts get their scrolling box before the first paint (its hint must not push the text down later).
  useLayoutEffect(() => {
    body.current?.querySelectorAll<HTMLImageElement>('figure img').forEach((img) => {
      if (!isChart(img) || img.parentElement?.classList.contains('figure-scroll')) return;
      const wrapper = document.createElement('div');
      wrapper.className = 'figure-scroll';
      img.replaceWith(wrapper);
      wrapper.appendChild(img);
      const hint = document.createElement('p');
      hint.className = 'figure-scroll__hint';
      hint.setAttribute('aria-hidden', 'true');
      hint.textContent = '← 左右滑动查看完整图表 →';
      wrapper.after(hint);
    });
  }, [article.content]);

  // Wide tables and charts scroll sideways on small screens: keyboard users must reach them too.
  // Tables get a scrolling wrapper, so the table keeps its own semantics; in a layout effect, as the
  // charts (a plain effect would let the table overflow the page for a frame).
  useLayoutEffect(() => {
    body.current?.querySelectorAll<HTMLTableElement>('table').forEach((table) => {
      if (table.parentElement?.classList.contains('table-scroll')) return;
      const wrapper = document.createElement('div');
      wrapper.className = 'table-scroll';
      table.replaceWith(wrapper);
      wrapper.appendChild(table);
    });
    // Each region's name is its own (axe: landmark-unique): a table's caption, else the heading it
    // follows, else its number among the article's tables.
    const tables = Array.from(body.current?.querySelectorAll<HTMLElement>('.table-scroll') ?? []);
    const named = new Set<string>();
    body.current?.querySelectorAll<HTMLElement>('.table-scroll, .org-chart').forEach((region) => {
      region.tabIndex = 0;
      region.setAttribute('role', 'region');
      let label = '组织架构图';
      if (region.classList.contains('table-scroll')) {
        const caption = region.querySelector('caption')?.textContent?.trim();
        const heading = precedingHeading(region);
        label = caption ? `表格：${caption}` : heading ? `表格：${heading}` : '表格';
        if (named.has(label) || (label === '表格' && tables.length > 1)) label = `表格 ${tables.indexOf(region) + 1}${label === '表格' ? '' : label.slice(2)}`;
      }
      named.add(label);
      region.setAttribute('aria-label', label);
    });
  }, [article.content]);

  // A chart's box is a stop for the keyboard (it scrolls by the arrow keys) only while it scrolls:
  // on a wide screen the chart fits and the box is no stop. Before the paint, as its hint shows then.
  useLayoutEffect(() => {
    const boxes = Array.from(body.current?.querySelectorAll<HTMLElement>('.figure-scroll') ?? []);
    if (boxes.length === 0) return undefined;
    const mark = () =>
      boxes.forEach((box) => {
        const scrolls = box.scrollWidth > box.clientWidth + 1;
        box.classList.toggle('is-scrolling', scrolls);
        if (scrolls) {
          box.tabIndex = 0;
          box.setAttribute('role', 'region');
          box.setAttribute('aria-label', `图表：${box.querySelector('img')?.alt ?? ''}（可左右滚动）`);
        } else {
          box.removeAttribute('tabindex');
          box.removeAttribute('role');
          box.removeAttribute('aria-label');
        }
      });
    mark();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(mark);
    boxes.forEach((box) => observer.observe(box));
    return () => observer.disconnect();
  }, [article.content]);

  // Links to another article arrive as its real URL (the gateway leads links to the CMS's own
  // article pages there): a page with its own article addresses (党建风采) points them there.
  useEffect(() => {
    if (hrefOf === articleHref) return;
    body.current?.querySelectorAll<HTMLAnchorElement>('a[href^="/portal/article/"]').forEach((link) => {
      const id = /^\/portal\/article\/(\d+)$/.exec(link.getAttribute('href') ?? '')?.[1];
      if (id) link.setAttribute('href', hrefOf(Number(id)));
    });
  }, [article.content, hrefOf]);

  // Gallery images in the CMS's HTML open in the lightbox, by mouse or keyboard.
  useEffect(() => {
    const images = Array.from(body.current?.querySelectorAll<HTMLImageElement>('.gallery img') ?? []);
    setGallery(
      images.map((img) => ({
        src: img.currentSrc || img.src,
        alt: img.alt,
        caption: img.closest('figure')?.querySelector('figcaption')?.textContent ?? img.alt,
      })),
    );
    const cleanups = images.map((img, i) => {
      img.tabIndex = 0;
      img.setAttribute('role', 'button');
      img.setAttribute('aria-label', `查看大图：${img.alt}`);
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
  }, [article.content]);
  const fetchAttachment = async (url: string, name: string) => {
    setDownloading(url);
    await download(url, name);
    setDownloading(null);
  };
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
                发布时间：<time dateTime={article.publishTime.replace(' ', 'T')}>{article.publishTime}</time>
              </span>
            )}
            {article.source && <span>来源：{article.source}</span>}
            {article.author && <span>作者：{article.author}</span>}
            {article.editor && <span>责任编辑：{article.editor}</span>}
            {article.views !== undefined && <span>浏览：{article.views} 次</span>}
          </p>
        </header>
      )}
      <ArticleTools size={size} onSize={setSize} url={shareUrl} />
      {article.video && <VideoPlayer src={article.video} poster={article.cover} title={article.title} captions={article.captions} />}
      {/* The gateway sanitises article HTML (ammonia) before it reaches the browser. */}
      <div ref={body} className={`article__body article__body--${size}`} dangerouslySetInnerHTML={{ __html: article.content ?? '' }} />
      {gallery.length > 0 && <Lightbox images={gallery} index={shown} onIndex={setShown} />}
      {article.attachments && article.attachments.length > 0 && (
        <section className="attachments" aria-labelledby="attachments-title">
          <h2 id="attachments-title">附件</h2>
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
                {a.size !== undefined && <span className="muted">（{sizeLabel(a.size)}）</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {/* Paper has no address bar: the printout says where the article lives. */}
      <p className="article__print-url">本文链接：{shareUrl}</p>
      {(article.prev || article.next) && (
        <nav className="article__siblings" aria-label="上一篇与下一篇">
          <p>
            上一篇：{article.prev ? <a href={hrefOf(article.prev.id)}>{article.prev.title}</a> : <span className="muted">没有了</span>}
          </p>
          <p>
            下一篇：{article.next ? <a href={hrefOf(article.next.id)}>{article.next.title}</a> : <span className="muted">没有了</span>}
          </p>
        </nav>
      )}
    </>
  );
}
