import type { MenuItem } from '../../components/menu/types';
import { routeName, type RouteDef } from '../routes';

/** The menu built from the route table (its names in the page's language), used when the category tree cannot be loaded. */
export function menuFromRoutes(routes: readonly RouteDef[]): MenuItem[] {
  const items: MenuItem[] = [];
  for (const route of routes) {
    if (!route.path || route.sameAs) continue;
    const children = menuFromRoutes((route.routes ?? []).filter((r) => !r.hideInMenu));
    if (route.hideInMenu && children.length === 0) continue;
    items.push({ key: route.path, name: routeName(route), url: route.path, children });
  }
  return items;
}
