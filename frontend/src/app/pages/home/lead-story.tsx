import type { ArticleSummary } from '../../../features/articles';
import { messages } from '../../../lib/locale';
import { articleHref, dayOf } from './use-category-articles';

const text = messages({
  zh: { label: '头条' },
  en: { label: 'Top story' },
});

/**
 * 头条: the newest article the CMS flags as the lead (`lead`), else the newest of the list.
 * Exported for its test; the list is the CMS's, newest first.
 */
export function pickLead(articles: readonly ArticleSummary[]): ArticleSummary | undefined {
  return articles.find((a) => a.lead === true) ?? articles[0];
}

/**
 * 图片新闻: the articles with a cover, newest first, up to `max`, less the 头条 (shown above them),
 * unless the 头条 is the only one with a cover: a home page without a picture for want of a second
 * pictured story hides the one picture it has.
 */
export function photoNews(articles: readonly ArticleSummary[], lead: ArticleSummary | undefined, max: number): ArticleSummary[] {
  const pictured = articles.filter((a) => a.cover);
  const others = pictured.filter((a) => a.id !== lead?.id);
  return (others.length > 0 ? others : pictured).slice(0, max);
}

export function LeadStory({ article, loading }: { article?: ArticleSummary; loading: boolean }) {
  if (!article) return loading ? <div className="home-lead" aria-hidden="true" /> : null;
  return (
    <section className="home-lead" aria-labelledby="home-lead-title">
      <p className="home-lead__label">{text().label}</p>
      <h2 id="home-lead-title" className="home-lead__title">
        <a href={articleHref(article.id)}>{article.title}</a>
      </h2>
      {article.summary && <p className="home-lead__summary">{article.summary}</p>}
      <time className="home-lead__date" dateTime={dayOf(article)}>
        {dayOf(article)}
      </time>
    </section>
  );
}
