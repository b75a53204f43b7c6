import { useId } from 'react';

import { useGetArticlesQuery, type Article } from '../api';
import { dateOf } from '../format';
import { relatedArgs } from '../loads';
import { messages } from '../../../lib/locale';
import type { Id } from '../../../lib/id';

const text = messages({
  zh: { title: '相关文章' },
  en: { title: 'Related articles' },
});

/** How many related articles an article lists. */
export const RELATED_COUNT = 5;

// Publish times are ISO-like strings: their order as text is their order in time.
const newestFirst = (a: { publishTime?: string }, b: { publishTime?: string }) => {
  const [x, y] = [a.publishTime ?? '', b.publishTime ?? ''];
  return x === y ? 0 : x < y ? 1 : -1;
};

/**
 * 相关文章 under an article: the newest of its category, itself left out, at most five. It asks for
 * the list's first page as the list asks for it, so an article opened from that list finds it in
 * the cache. Nothing while it loads or when the category has no other article.
 */
export function RelatedArticles({ article, hrefOf }: { article: Article; hrefOf: (id: Id) => string }) {
  const id = useId();
  const { data } = useGetArticlesQuery(relatedArgs(article.categoryId));
  const related = (data?.content ?? [])
    .filter((a) => a.id !== article.id)
    .sort(newestFirst)
    .slice(0, RELATED_COUNT);
  if (related.length === 0) return null;
  return (
    <section className="related" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{text().title}</h2>
      <ul className="related__list">
        {related.map((a) => (
          <li key={a.id}>
            <a href={hrefOf(a.id)}>{a.title}</a>
            {a.publishTime && <time dateTime={dateOf(a.publishTime)}>{dateOf(a.publishTime)}</time>}
          </li>
        ))}
      </ul>
    </section>
  );
}
