import { useState } from 'react';

import { download } from '../../../lib/request';
import type { Article } from '../api';
import { sizeLabel } from '../format';

interface ArticleViewProps {
  article: Article;
  /** Whether to show the title block (a single-page category shows its own heading). */
  withHeader?: boolean;
  hrefOf?: (id: number) => string;
}

export function ArticleView({ article, withHeader = true, hrefOf = (id) => `#/article/${id}` }: ArticleViewProps) {
  const [downloading, setDownloading] = useState<string | null>(null);
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
      {/* The gateway sanitises article HTML (ammonia) before it reaches the browser. */}
      <div className="article__body" dangerouslySetInnerHTML={{ __html: article.content ?? '' }} />
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
