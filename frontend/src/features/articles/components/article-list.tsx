import type { ArticleSummary } from '../api';
import { messages } from '../../../lib/locale';
import { dateOf } from '../format';

const text = messages({
  zh: { empty: '该栏目暂无内容。', source: '来源：' },
  en: { empty: 'There is nothing in this section yet.', source: 'Source: ' },
});

interface ArticleListProps {
  articles: ArticleSummary[];
  hrefOf: (article: ArticleSummary) => string;
  onOpen?: () => void;
}

export function ArticleList({ articles, hrefOf, onOpen }: ArticleListProps) {
  const t = text();
  if (articles.length === 0) return <p className="empty">{t.empty}</p>;
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
              {article.source && (
                <span>
                  {t.source}
                  {article.source}
                </span>
              )}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
