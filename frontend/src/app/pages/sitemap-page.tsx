import { Breadcrumb } from '../../components/breadcrumb';
import type { MenuItem } from '../../components/menu/types';
import type { ContentPageProps } from '../../features/articles';
import { categoriesToMenu, findByUrl, useGetCategoriesQuery } from '../../features/categories';
import { useGetSiteQuery } from '../../features/site';
import { hasChannel } from '../../components/whistleblowing';
import { menuFromRoutes } from '../layout/menu-items';
import { ROUTES, flattenRoutes, routeName, shownRoute } from '../routes';
import { reachableServices, withServices } from '../services';
import { messages } from '../../lib/locale';
import { linkHref, pageHref } from '../../lib/page-href';

const text = messages({
  zh: { title: '网站地图', menu: '栏目导航', more: '其他页面' },
  en: { title: 'Sitemap', menu: 'Sections', more: 'Other pages' },
});

function Tree({ items }: { items: MenuItem[] }) {
  return (
    <ul>
      {items.map((item) => (
        <li key={item.key}>
          {item.url ? <a href={linkHref(item.url)}>{item.name}</a> : <span>{item.name}</span>}
          {item.children.length > 0 && <Tree items={item.children} />}
        </li>
      ))}
    </ul>
  );
}

/** 网站地图: the menu as the header shows it (客户服务's systems with it), then every other page of the route table. */
export default function SitemapPage({ breadcrumb }: ContentPageProps) {
  const { data: tree, isError } = useGetCategoriesQuery();
  const { data: site } = useGetSiteQuery();
  const sections = tree && tree.length > 0 && !isError ? categoriesToMenu(tree) : menuFromRoutes(ROUTES);
  const menu = withServices(sections, reachableServices(site?.services ?? [], tree));
  const listed = new Set<string>();
  const walk = (items: MenuItem[]) => {
    for (const item of items) {
      listed.add(item.url);
      walk(item.children);
    }
  };
  walk(menu);
  // Every other page of the route table the portal has: a content route only with its category.
  const others = flattenRoutes(ROUTES).filter(
    (r) =>
      r.path &&
      !listed.has(r.path) &&
      !r.unlisted &&
      !r.sameAs &&
      (!tree || isError || shownRoute(r, tree, findByUrl)) &&
      (r.page !== 'whistleblowing' || hasChannel(site?.whistleblowing)),
  );
  const t = text();
  return (
    <section className="content-page sitemap-page">
      <Breadcrumb items={breadcrumb} />
      <h1>{t.title}</h1>
      <div className="sitemap">
        <section aria-labelledby="sitemap-menu">
          <h2 id="sitemap-menu">{t.menu}</h2>
          <Tree items={menu} />
        </section>
        <section aria-labelledby="sitemap-more">
          <h2 id="sitemap-more">{t.more}</h2>
          <ul>
            {others.map((r) => (
              <li key={r.path}>
                <a href={pageHref(r.path ?? '/')}>{routeName(r)}</a>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </section>
  );
}
