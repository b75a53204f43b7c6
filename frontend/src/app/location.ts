// Where the portal's pages live: real URLs under `/portal` that the gateway renders
// (`/portal/news_center/notice?page=2`, `/portal/article/2101`), routed by wouter's browser
// location with this base. The spec's hash routes (`/portal/#/news_center/notice`) stay as
// aliases: index.html's head script sends such an address to its real URL before anything is
// painted, and a hash route met later (a link in an article body) is adopted in place.
import { navigate } from 'wouter/use-browser-location';

import { BASE, base, pageHref } from '../lib/page-href';
import { LOCALES, locale } from '../lib/locale';

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
  const own = base();
  if (url.pathname === own) return hashRoute;
  if (!url.pathname.startsWith(`${own}/`) || NOT_PAGES.test(url.pathname)) return null;
  // A page in another language is another document (its strings, its `<html lang>`): the
  // browser loads it.
  if (otherLanguage(url.pathname)) return null;
  return hashRoute ?? `${url.pathname.slice(own.length)}${url.search}`;
}

/** Whether `pathname` is a page of another language than the page's own (`/portal/en/…` from a Chinese page). */
function otherLanguage(pathname: string): boolean {
  return LOCALES.some((other) => {
    if (other === locale() || other === 'zh') return false;
    const prefix = `${BASE}/${other}`;
    return pathname === prefix || pathname.startsWith(`${prefix}/`);
  });
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
