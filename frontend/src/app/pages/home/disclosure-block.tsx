import { findByUrl, useGetCategoriesQuery } from '../../../features/categories';
import { pageHref } from '../../../lib/page-href';
import { NewsColumn } from './news-lines';
import { DISCLOSURE, disclosureLists, type HomeList } from './home-lists';
import { useCategoryArticles } from './use-category-articles';


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
  return (
    <section className="disclosure-block" aria-labelledby="home-disclosure-title">
      <div className="container">
        <div className="section-head">
          <h2 id="home-disclosure-title">{group?.name ?? '信息公开'}</h2>
          <a href={pageHref(DISCLOSURE)} className="more">
            更多<span className="visually-hidden">{group?.name ?? '信息公开'}</span>
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
