import { Breadcrumb } from '../../components/breadcrumb';
import { useGetArticlesQuery, type ContentPageProps } from '../../features/articles';
import { useGetCategoriesQuery } from '../../features/categories';
import { useGetSiteQuery } from '../../features/site';
import { formatNumber, messages } from '../../lib/locale';
import { articleHref, pageHref } from '../../lib/page-href';
import { routeName } from '../routes';
import { SERVICES_PATH, ServiceList, reachableServices } from '../services';
import { groupSections, sectionArgs, type GroupSection } from './group-sections';

const text = messages({
  zh: {
    count: (n: number) => `共 ${formatNumber(n)} 条`,
    viewAll: '查看全部',
    learnMore: '了解更多',
    empty: '本栏目内容正在建设中，敬请期待。',
  },
  en: {
    count: (n: number) => `${formatNumber(n)} ${n === 1 ? 'item' : 'items'}`,
    viewAll: 'View all',
    learnMore: 'Learn more',
    empty: 'This section is under construction. Please check back soon.',
  },
});

/** Newest items a list's card shows. */
const NEWEST = 3;

/**
 * One section of the group, summarised from the CMS: its line (the category's description), and a
 * list's newest items with how many it has, or a page's picture and summary; each card leads on.
 */
function SectionCard({ route, category }: GroupSection) {
  const args = sectionArgs(category);
  const { data } = useGetArticlesQuery(args ?? { categoryId: 0, page: 1, size: 1 }, { skip: !args });
  const name = category?.name ?? routeName(route);
  const items = data?.content ?? [];
  const isList = category?.type === 'list';
  const entry = isList ? undefined : items[0];
  const t = text();
  return (
    <li className="section-card">
      {entry?.cover && <img className="section-card__picture" src={entry.cover} alt="" width={320} height={180} loading="lazy" decoding="async" />}
      <h2>
        <a href={pageHref(route.path)}>{name}</a>
      </h2>
      {category?.description && <p className="section-card__line">{category.description}</p>}
      {entry?.summary && entry.summary !== category?.description && <p className="section-card__summary">{entry.summary}</p>}
      {isList && items.length > 0 && (
        <>
          <ul className="section-card__newest">
            {items.slice(0, NEWEST).map((a) => (
              <li key={String(a.id)}>
                <a href={articleHref(a.id)}>{a.title}</a>
                {a.publishTime && <time dateTime={a.publishTime.slice(0, 10)}>{a.publishTime.slice(0, 10)}</time>}
              </li>
            ))}
          </ul>
          <p className="section-card__count">{t.count(data?.totalElements ?? items.length)}</p>
        </>
      )}
      <a className="section-card__more" href={pageHref(route.path)} aria-hidden="true" tabIndex={-1}>
        {isList ? t.viewAll : t.learnMore} ›
      </a>
    </li>
  );
}

/**
 * A group's landing page: its name and line from the CMS, then a card for every section below it
 * (the menu's hidden ones too: 社会责任's 社会影响, all of 业务概览), each summarising what the
 * section holds: a list's newest items and count, a page's picture and summary. 客户服务 lists the
 * configured services first. The spec's placeholder is left only for a group with no section at all.
 */
export default function GroupPage({ path, title, breadcrumb, category }: ContentPageProps) {
  const { data: tree = [] } = useGetCategoriesQuery();
  const { data: site } = useGetSiteQuery();
  const services = path === SERVICES_PATH ? reachableServices(site?.services ?? [], tree) : [];
  const sections = groupSections(path, tree).filter((s) => !services.some((service) => service.url === s.route.path));
  return (
    <section className="content-page group-page">
      <Breadcrumb items={breadcrumb} />
      <h1>{category?.name ?? title}</h1>
      {category?.description && <p className="lead">{category.description}</p>}
      {services.length > 0 && <ServiceList services={services} />}
      {sections.length > 0 ? (
        <ul className="section-cards">
          {sections.map((s) => (
            <SectionCard key={s.route.path} route={s.route} category={s.category} />
          ))}
        </ul>
      ) : (
        services.length === 0 && <p className="empty">{text().empty}</p>
      )}
    </section>
  );
}
