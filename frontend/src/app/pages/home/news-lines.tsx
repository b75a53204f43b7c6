import type { ArticleSummary } from '../../../features/articles';
import { articleHref, dayOf } from './use-category-articles';
import { messages } from '../../../lib/locale';
import { pageHref } from '../../../lib/page-href';

/** The "more" link of a home module: `更多` seen, the module's name heard with it. */
export const moreText = messages({
  zh: { more: '更多', of: (title: string) => title },
  en: { more: 'More', of: (title: string) => ` ${title}` },
});

interface NewsColumnProps {
  id: string;
  title: string;
  /** The list's own page (更多). */
  route: string;
  articles: ArticleSummary[];
  loading: boolean;
  /** Lines the column holds: its height is kept while they load (no layout shift). */
  lines: number;
  className?: string;
}

/** A headed column of dated headlines, as the home page's 要闻, 通知公告 and 党建 lists show them. */
export function NewsColumn({ id, title, route, articles, loading, lines, className = '' }: NewsColumnProps) {
  const more = moreText();
  return (
    <section className={`home-column ${className}`} aria-labelledby={id} aria-busy={loading}>
      <div className="section-head">
        <h2 id={id}>{title}</h2>
        <a href={pageHref(route)} className="more">
          {more.more}
          <span className="visually-hidden">{more.of(title)}</span>
        </a>
      </div>
      <ul className={`home-lines home-lines--${lines}`}>
        {articles.slice(0, lines).map((a) => (
          <li key={a.id}>
            <a href={articleHref(a.id)} title={a.title}>
              {/* The text in a box of its own: clamped, it ends at its last whole line, while the
                  link keeps its padding (the touch target) below it. Clamping the link itself
                  showed the top half of a third line in its padding. */}
              <span className="home-lines__title">{a.title}</span>
            </a>
            <time dateTime={dayOf(a)}>{dayOf(a).slice(5)}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}
