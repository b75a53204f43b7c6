/**
 * The route table of spec §2, read from `route-table.json`: the one place the portal's routes are
 * written. The gateway reads the same file (`crates/core/src/portal_routes.rs`, with `include_str!`) for
 * the routes that show CMS content, and the end-to-end cases read it for the routes they visit, so
 * adding a route here adds it everywhere. JSON has no comments; the why of its entries is here:
 *
 * - `page` names the lazy page that renders a route (`router.tsx`); a group without a page shows the
 *   placeholder. Display names are the Chinese ones visitors see; `en` is each one's English, which
 *   an English page shows (`routeName`).
 * - `contentPages` lists the page kinds that show CMS content: a route of one of those kinds is found
 *   by the category whose `url` is its path, so the demo CMS (`reference-cms/content/categories.json`)
 *   has a category for each. The others (home, login, the party-style detail found by its article id,
 *   the footer's sitemap and contact pages) have none.
 * - `listPages`: the content pages that show a list of articles. A category of such a route is a
 *   list unless the CMS (or the gateway's `dialect.categories.types`) says otherwise; the gateway
 *   gives it that kind when the CMS gives none, so the pager, the feeds and the sitemap agree.
 * - `/services` (客户服务) is the replaced portal's customer-service group (path-less and empty there):
 *   its page and its menu entry list `[site.services]` (`services.tsx`), and 班列线路与时刻 is a page the
 *   CMS feeds (a table of the lines, their days and cut-offs).
 * - `/sitemap` and `/contact` are the footer's pages (not in spec §2): every page at a glance, and how
 *   to reach the company.
 * - `unlisted`: pages reached otherwise (a form, a link inside a page), left out of the sitemap.
 * - `sameAs`: a spec route whose page another route shows; it redirects there and is listed nowhere.
 * - `/disclosure` (信息公开) and `/topics` (专题专栏, the home page's strip; its list categories are the
 *   topics) are not in spec §2: the portals of China's state-owned enterprises carry both.
 * - `/accessibility` (无障碍声明) is the 关怀版 statement the 适老化 design rules ask for; `/legal`
 *   (法律声明) and `/privacy` (隐私政策) the statements every such portal links from its footer, in
 *   the name of the company `[site]` names (the privacy policy says what this portal itself records).
 *   None has an article in the CMS.
 * - `query`: the parameters each page reads of its address (`reads`, in the order its address writes
 *   them) and those its shared address and canonical link keep (`shares`): a page by its path
 *   (`/article/:id`, any one segment), every other page `otherwise`. The gateway keys a rendered
 *   page by exactly what it reads (`portal_routes::reads`); `page-query.ts` reads it for the app.
 * - `/whistleblowing` (信访举报) is the discipline office's channel from `[site.whistleblowing]`,
 *   linked from every footer as state-owned enterprises' portals do; without a channel it is 404.
 *
 * Kept by `routes.test.ts` (page kinds, nesting), `router.test.tsx` (every route renders its page)
 * and the gateway's `portal_routes::tests` (content routes = the demo CMS's category urls).
 */
import table from './route-table.json';
import { locale } from '../lib/locale';

export const PAGE_KEYS = [
  'home',
  'group',
  'single',
  'news',
  'partyConstruction',
  'party',
  'partyDetail',
  'login',
  'sitemap',
  'contact',
  'accessibility',
  'whistleblowing',
  'legal',
  'privacy',
] as const;

export type PageKey = (typeof PAGE_KEYS)[number];

export interface RouteDef {
  path?: string;
  name: string;
  /** The route's name on an English page (`name` is the Chinese). */
  en?: string;
  page?: PageKey;
  routes?: RouteDef[];
  hideInMenu?: boolean;
  /** An access key (spec §6); the route is hidden unless it is true. */
  access?: string;
  icon?: string;
  /** false: rendered without the shared layout (the home entry). */
  layout?: boolean;
  /** Not listed on the sitemap: reached otherwise (a form, a link inside a page). */
  unlisted?: boolean;
  /**
   * The route the spec keeps for a page that another route already shows (发展历程 under 走进我们
   * and at the top level): the app sends it on to that route, and neither menu, sitemap nor the
   * sitemap lists it, so each page exists once.
   */
  sameAs?: string;
}

/** The table as written; `routes.test.ts` checks every `page` is a `PageKey`. */
export const ROUTES: RouteDef[] = table.routes as RouteDef[];

/** The name a visitor reads of `route`: its English on an English page, else the Chinese `name`. */
export const routeName = (route: RouteDef): string => (locale() === 'en' && route.en ? route.en : route.name);

/** Every route with a path and a page, parents before children. */
export function flattenRoutes(routes: readonly RouteDef[], out: RouteDef[] = []): RouteDef[] {
  for (const route of routes) {
    if (route.path && route.page) out.push(route);
    if (route.routes) flattenRoutes(route.routes, out);
  }
  return out;
}

/** The route whose path is `path`, with its parent group. */
export function routeTrail(path: string, routes: readonly RouteDef[] = ROUTES, parents: RouteDef[] = []): RouteDef[] {
  for (const route of routes) {
    if (route.path === path) return [...parents, route];
    if (route.routes) {
      const found = routeTrail(path, route.routes, [...parents, route]);
      if (found.length) return found;
    }
  }
  return [];
}

const CONTENT_PAGES: ReadonlySet<string> = new Set(table.contentPages);

/**
 * Whether a visitor is led to `route` where the CMS decides what the portal has (tiles, group
 * pages, the site map, the footer): a content route only when the CMS has a category at it, so a
 * customer's portal shows its own sections and no demo section leads to a placeholder; any other
 * route (the site map, contact) always. `tree` is the CMS's category tree; `has(tree, path)` finds
 * a category by its `url` (`findByUrl`).
 */
export function shownRoute<T>(route: RouteDef, tree: T, has: (tree: T, path: string) => unknown): boolean {
  if (!route.path) return false;
  return !(route.page && CONTENT_PAGES.has(route.page)) || Boolean(has(tree, route.path));
}

/** The routes below `path` that the menu shows (the home page's news tabs and business tiles). */
export function childrenOf(path: string): RouteDef[] {
  const route = routeTrail(path).at(-1);
  return (route?.routes ?? []).filter((r) => r.path && !r.hideInMenu && !r.sameAs);
}
