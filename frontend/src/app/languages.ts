// The page in the portal's other language: where the language switch and the page's `hreflang`
// links lead. The portal is in Chinese, its own language, and in English when the gateway is
// configured with it (`/site`'s `languages`); each language's sections are the CMS's in it.
import { findByUrl, type Category } from '../features/categories';
import type { Language } from '../lib/api-types';
import { locale, type Locale } from '../lib/locale';
import { pageHref } from '../lib/page-href';
import { routeTrail, shownRoute } from './routes';

/** The other language the portal is in (none when it is in its own only). */
export function otherLanguage(languages: readonly Language[] | undefined): Locale | undefined {
  return languages?.find((l) => l.code !== locale())?.code;
}

/**
 * The address of the page at app path `path` in language `of`, or null when that language has no
 * such page: a section its CMS content lacks (`tree`, the tree in that language; while it is not
 * known, none is assumed missing). An article is the same article (a CMS's languages share its
 * ids: Strapi's `documentId`, reference-cms); a search keeps its words; a list starts at its first
 * page, which the other language numbers as it does.
 */
export function pageIn(of: Locale, path: string, search: string, tree: readonly Category[] | undefined): string | null {
  if (path.startsWith('/article/')) return pageHref(path, of);
  if (path === '/search') {
    const q = new URLSearchParams(search).get('q');
    return `${pageHref(path, of)}${q ? `?${new URLSearchParams({ q }).toString()}` : ''}`;
  }
  const route = routeTrail(path).at(-1);
  if (!route) return null;
  if (tree && tree.length > 0 && route.page !== 'home' && !shownRoute(route, tree, findByUrl)) return null;
  return pageHref(path, of);
}
