import { useEffect, useRef, useState } from 'react';

import { Lightbox, type LightboxImage } from '../../../components/lightbox';
import { VideoPlayer } from '../../../components/video-player';
import { download } from '../../../lib/request';
import type { Article } from '../api';
import { sizeLabel } from '../format';
import { ArticleTools, type ArticleSize } from './article-tools';

interface ArticleViewProps {
  article: Article;
  /** Whether to show the title block (a single-page category shows its own heading). */
  withHeader?: boolean;
  hrefOf?: (id: number) => string;
}

const articleHref = (id: number) => `#/article/${id}`;

export function ArticleView({ article, withHeader = true, hrefOf = articleHref }: ArticleViewProps) {
  const [downloading, setDownloading] = useState<string | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const [gallery, setGallery] = useState<LightboxImage[]>([]);
  const [shown, setShown] = useState<number | null>(null);
  const [size, setSize] = useState<ArticleSize>('medium');

  // Wide tables and charts scroll sideways on small screens: keyboard users must reach them too.
  // Tables get a scrolling wrapper, so the table keeps its own semantics.
  useEffect(() => {
    body.current?.querySelectorAll<HTMLTableElement>('table').forEach((table) => {
      if (table.parentElement?.classList.contains('table-scroll')) return;
      const wrapper = document.createElement('div');
      wrapper.className = 'table-scroll';
      table.replaceWith(wrapper);
      wrapper.appendChild(table);
    });
    body.current?.querySelectorAll<HTMLElement>('.table-scroll, .org-chart').forEach((region) => {
      region.tabIndex = 0;
      region.setAttribute('role', 'region');
      region.setAttribute('aria-label', region.classList.contains('org-chart') ? '组织架构图' : '表格');
    });
  }, [article.content]);

  // Links to another article arrive as its real URL (the gateway leads links to the CMS's own
  // article pages there): inside the app they open the article in place.
  useEffect(() => {
    body.current?.querySelectorAll<HTMLAnchorElement>('a[href^="/portal/site/article/"]').forEach((link) => {
      const id = /^\/portal\/site\/article\/(\d+)\.html$/.exec(link.getAttribute('href') ?? '')?.[1];
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
  return (
    <>
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
            {article.views !== undefined && <span>浏览：{article.views} 次</span>}
          </p>
        </header>
      )}
      <ArticleTools size={size} onSize={setSize} />
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
      <p className="article__print-url">本文链接：{window.location.href}</p>
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
