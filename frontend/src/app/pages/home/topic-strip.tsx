import { findByUrl, useGetCategoriesQuery } from '../../../features/categories';
import { messages } from '../../../lib/locale';
import { pageHref } from '../../../lib/page-href';

const text = messages({
  zh: { title: '专题专栏' },
  en: { title: 'Special Topics' },
});

/** The route whose list categories are the 专题专栏 (the upstream contract: `docs/integrators.md`). */
export const TOPICS_ROUTE = '/topics';
const MAX_TOPICS = 3;

/** 专题专栏: up to three topics, each a banner to its landing page; none when the CMS has none. */
export function TopicStrip() {
  const { data: tree = [] } = useGetCategoriesQuery();
  const topics = (findByUrl(tree, TOPICS_ROUTE)?.subCategory ?? []).filter((c) => !c.hidden).slice(0, MAX_TOPICS);
  if (topics.length === 0) return null;
  return (
    <section className="container topic-strip" aria-labelledby="home-topics-title">
      <h2 id="home-topics-title">{text().title}</h2>
      <ul className={`topic-strip__list topic-strip__list--${topics.length}`}>
        {topics.map((t, i) => (
          <li key={t.id}>
            <a className={`topic-card topic-card--${i + 1}`} href={pageHref(t.url)}>
              <strong className="topic-card__name">{t.name}</strong>
              {t.description && <span className="topic-card__text">{t.description}</span>}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
