import { findByUrl, useGetCategoriesQuery } from '../../../features/categories';
import { messages } from '../../../lib/locale';
import { pageHref } from '../../../lib/page-href';
import { NewsColumn, moreText } from './news-lines';
import { DISCLOSURE, disclosureLists, type HomeList } from './home-lists';
import { useCategoryArticles } from './use-category-articles';

const text = messages({
  zh: { title: '信息公开' },
  en: { title: 'Information Disclosure' },
});

/** One list of 信息公开 (重大事项, 财务信息, 招标采购): its newest lines. */
function DisclosureColumn({ source, fallback }: { source: HomeList; fallback: string }) {
  const { route } = source;
  const list = useCategoryArticles(source);
  if (!list.category && !list.loading) return null;
  return (
    <NewsColumn
      id={`home-disclosure-${route.split('/').pop()}`}
      title={list.category?.name ?? fallback}
      route={route}
      articles={list.articles}
      loading={list.loading}
      lines={5}
      className="home-column--disclosure"
    />
  );
}

/**
 * 信息公开: the lists of the state-owned enterprise's disclosures (the route table's list pages
 * under `/disclosure` the CMS has), side by side; none when it has none.
 */
export function DisclosureBlock() {
  const { data: tree = [], isLoading } = useGetCategoriesQuery();
  const group = findByUrl(tree, DISCLOSURE);
  const lists = disclosureLists(tree, isLoading);
  if (!isLoading && (!group || lists.length === 0)) return null;
  const title = group?.name ?? text().title;
  const more = moreText();
  return (
    <section className="disclosure-block" aria-labelledby="home-disclosure-title">
      <div className="container">
        <div className="section-head">
          <h2 id="home-disclosure-title">{title}</h2>
          <a href={pageHref(DISCLOSURE)} className="more">
            {more.more}
            <span className="visually-hidden">{more.of(title)}</span>
          </a>
        </div>
        <div className="disclosure-block__columns">
          {lists.map((list) => (
            <DisclosureColumn key={list.route} source={list} fallback={list.name} />
          ))}
        </div>
      </div>
    </section>
  );
}
