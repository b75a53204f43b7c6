// What an inner page's 栏目导航 lists (issue 24): the pages of its section (its group), named as
// the CMS names them; the route table when the tree lacks the page (the CMS is down, or a route has
// no category yet). A section the menu hides (业务概览) still lists its pages on its own pages: a
// hidden page lists its hidden siblings too, a visible one only the visible.
import type { SectionLink } from '../components/section-nav';
import { findById, findByUrl, type Category } from '../features/categories';
import { routeName, routeTrail, type RouteDef } from './routes';
import { isTop, type Id } from '../lib/id';

export interface Section {
  name: string;
  url: string;
  items: SectionLink[];
}

const listed = (current: { hidden: boolean }, hidden: boolean) => !hidden || current.hidden;

function fromTree(tree: readonly Category[], category: Category): Section | undefined {
  const parent = isTop(category.parentId) ? undefined : findById(tree, category.parentId);
  if (!parent) return undefined;
  const current = { hidden: category.hidden === true };
  const items = (parent.subCategory ?? [])
    .filter((c) => c.url && listed(current, c.hidden === true))
    .map((c) => ({ name: c.name, url: c.url }));
  return { name: parent.name, url: parent.url, items };
}

function fromRoutes(path: string): Section | undefined {
  const trail = routeTrail(path);
  const route = trail.at(-1);
  const group = trail.at(-2);
  if (!route || !group) return undefined;
  const current = { hidden: route.hideInMenu === true };
  const items = (group.routes ?? [])
    .filter((r: RouteDef) => r.path && r.page && !r.sameAs && listed(current, r.hideInMenu === true))
    .map((r) => ({ name: routeName(r), url: r.path! }));
  return { name: routeName(group), url: group.path ?? '', items };
}

/** The section of the page at `path`, or undefined for a page in no section (联系我们, a group page). */
export function sectionOf(tree: readonly Category[], path: string): Section | undefined {
  const category = findByUrl(tree, path);
  return (category && fromTree(tree, category)) ?? fromRoutes(path);
}

/** The section of a category's list (an article's 栏目导航), and the list's route in it. */
export function sectionOfCategory(tree: readonly Category[], categoryId: Id): { section?: Section; current?: string } {
  const category = findById(tree, categoryId);
  if (!category?.url) return {};
  return { section: sectionOf(tree, category.url), current: category.url };
}
