import type { ArticleSummary } from '../api';
import { dateOf } from '../format';

interface ArticleListProps {
  articles: ArticleSummary[];
  hrefOf: (article: ArticleSummary) => string;
  onOpen?: () => void;
}

export function ArticleList({ articles, hrefOf, onOpen }: ArticleListProps) {
  if (articles.length === 0) return <p className="empty">该栏目暂无内容。</p>;
  // The first picture is on the first screen (on a phone, the full width: the page's largest
  // element), so it is fetched at once and first; the rest wait until they near the screen.
  const first = articles.findIndex((article) => article.cover);
  return (
    <ul className="article-list">
      {articles.map((article, i) => (
        <li key={article.id} className={`article-item${article.cover ? ' has-cover' : ''}`}>
          {article.cover && (
            <img
              className="article-item__cover"
              src={article.cover}
              alt=""
              width={192}
              height={108}
              loading={i === first ? 'eager' : 'lazy'}
              fetchPriority={i === first ? 'high' : 'auto'}
            />
          )}
          <div className="article-item__text">
            <h2 className="article-item__title">
              <a href={hrefOf(article)} onClick={onOpen}>
                {article.title}
              </a>
            </h2>
            {article.summary && <p className="article-item__summary">{article.summary}</p>}
            <p className="article-item__meta">
              <time dateTime={dateOf(article.publishTime)}>{dateOf(article.publishTime)}</time>
              {article.source && <span>来源：{article.source}</span>}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
