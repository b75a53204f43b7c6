import { Breadcrumb } from '../../components/breadcrumb';
import type { ContentPageProps } from '../../features/articles';
import { findByUrl, useGetCategoriesQuery } from '../../features/categories';
import { useGetSiteQuery } from '../../features/site';
import { ROUTES, routeTrail, shownRoute } from '../routes';
import { SERVICES_PATH, ServiceList, reachableServices } from '../services';
import { pageHref } from '../../lib/page-href';

/**
 * A group's landing page: its name, its line from the CMS, and every section below it with the
 * section's own line, including the sections the menu hides (the spec hides 社会责任's 社会影响 and
 * all of 业务概览 from the menu: here is where a visitor finds them). The spec's placeholder is
 * left only for a group with no section at all.
 */
export default function GroupPage({ path, title, breadcrumb, category }: ContentPageProps) {
  const route = routeTrail(path, ROUTES).at(-1);
  // Each section's own line from the CMS (its category's description), under its name; only
  // the sections the CMS has.
  const { data: tree = [] } = useGetCategoriesQuery();
  const { data: site } = useGetSiteQuery();
  // 客户服务 lists the configured services first (with their icons), then any other section.
  const services = path === SERVICES_PATH ? reachableServices(site?.services ?? [], tree) : [];
  const children = (route?.routes ?? []).filter(
    (r) => !r.sameAs && shownRoute(r, tree, findByUrl) && !services.some((s) => s.url === r.path),
  );
  return (
    <section className="content-page group-page">
      <Breadcrumb items={breadcrumb} />
      <h1>{category?.name ?? title}</h1>
      {category?.description && <p className="lead">{category.description}</p>}
      {services.length > 0 && <ServiceList services={services} />}
      {children.length > 0 ? (
        <ul className="tile-list">
          {children.map((r) => {
            const description = findByUrl(tree, r.path!)?.description;
            return (
              <li key={r.path}>
                <a className="tile" href={pageHref(r.path ?? '/')}>
                  {r.name}
                  {description && <span>{description}</span>}
                </a>
              </li>
            );
          })}
        </ul>
      ) : (
        services.length === 0 && <p className="empty">本栏目内容正在建设中，敬请期待。</p>
      )}
    </section>
  );
}
