import { Breadcrumb } from '../../components/breadcrumb';
import type { ContentPageProps } from '../../features/articles';
import { findByUrl, useGetCategoriesQuery } from '../../features/categories';
import { ROUTES, routeTrail } from '../routes';

/** A group route without a page of its own: its name and the way into its sections. */
export default function GroupPage({ path, title, breadcrumb, category }: ContentPageProps) {
  const route = routeTrail(path, ROUTES).at(-1);
  const children = (route?.routes ?? []).filter((r) => r.path && !r.hideInMenu);
  // Each section's own line from the CMS (its category's description), under its name.
  const { data: tree = [] } = useGetCategoriesQuery();
  return (
    <section className="content-page group-page">
      <Breadcrumb items={breadcrumb} />
      <h1>{category?.name ?? title}</h1>
      {category?.description && <p className="lead">{category.description}</p>}
      {children.length > 0 ? (
        <ul className="tile-list">
          {children.map((r) => {
            const description = findByUrl(tree, r.path!)?.description;
            return (
              <li key={r.path}>
                <a className="tile" href={`#${r.path}`}>
                  {r.name}
                  {description && <span>{description}</span>}
                </a>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="empty">本栏目内容正在建设中，敬请期待。</p>
      )}
    </section>
  );
}
