// Where the portal's pages live: real URLs under `/portal` that the gateway renders
// (`/portal/news_center/notice?page=2`, `/portal/article/2101`), routed by wouter's browser
// location with this base. The spec's hash routes (`/portal/#/news_center/notice`) stay as
// aliases: index.html's head script sends such an address to its real URL before anything is
// painted, and a hash route met later (a link in an article body) is adopted in place.
import { navigate } from 'wouter/use-browser-location';

import { BASE, pageHref } from '../lib/page-href';

export { BASE, pageHref };

/** Paths under the base that are files or other faces, never app routes. */
const NOT_PAGES = /^\/portal\/(api|assets|admin|feed|files)(\/|$)|^\/portal\/(sitemap\.xml|favicon\.\w+|robots\.txt)$|\.\w{1,5}$/;

/**
 * The app route (path and query, relative to the base) of a same-origin address, or null when it
 * is no page of the app (a file, the API, a feed, another origin, another path). A spec hash route
 * names the page whichever page's address carries it, as index.html's head script reads it: a
 * `#/about` link in an article's body resolves against the article's address.
 */
export function routeOfUrl(url: URL, origin: string): string | null {
  if (url.origin !== origin) return null;
  const hashRoute = hashRouteOf(url.hash);
  if (url.pathname === BASE) return hashRoute;
  if (!url.pathname.startsWith(`${BASE}/`) || NOT_PAGES.test(url.pathname)) return null;
  return hashRoute ?? `${url.pathname.slice(BASE.length)}${url.search}`;
}

/** The route a spec hash (`#/news_center/notice?page=2`) names, or null for any other hash. */
export function hashRouteOf(hash: string): string | null {
  return hash.startsWith('#/') ? hash.slice(1) : null;
}

/**
 * A hash route in the address bar (`/portal/#/article/2101`, reached by a link inside the app)
 * becomes its real URL, the history entry replaced: what the visitor sees, shares and reloads is
 * the page's own address.
 */
export function adoptHashRoute(): void {
  const route = hashRouteOf(window.location.hash);
  if (route) navigate(pageHref(route), { replace: true });
}
