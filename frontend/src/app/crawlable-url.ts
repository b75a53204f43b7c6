// The address a visitor shares (复制链接, the QR code) and the page's canonical link: the gateway's
// crawlable page of what the app shows (`/portal/site/…`, gateway/src/crawl), which a WeChat or
// Open Graph preview and a search engine can read without JavaScript, rather than the hash route,
// whose fragment no server ever sees. Which routes have one is the route table's to say, as the
// gateway reads it (portal_routes.rs): a route whose page kind is one of its `contentPages` and
// that has no `sameAs`; besides those, the home page and articles (`/article/<id>`, and the
// party-style detail's `?id=`). Any other route (search, login, sitemap, not found…) has none.
import table from './route-table.json';
import { flattenRoutes, ROUTES, type RouteDef } from './routes';

const SITE = '/portal/site';
const CONTENT_PAGES: ReadonlySet<string> = new Set(table.contentPages);
const BY_PATH = new Map<string, RouteDef>(flattenRoutes(ROUTES).map((route) => [route.path!, route]));

/** The crawlable article page; ids as the gateway reads them (digits, at most 19, not 0). */
function articlePath(raw: string | null | undefined): string | null {
  const id = raw && /^\d{1,19}$/.test(raw) ? raw.replace(/^0+/, '') : '';
  return id ? `${SITE}/article/${id}.html` : null;
}

/**
 * The path of the crawlable page showing the app's route `path` with the hash's query `search`
 * (`?page=2` of a list, `?id=9` of a party-style detail), or null when there is none.
 */
export function crawlablePath(path: string, search = ''): string | null {
  const query = new URLSearchParams(search);
  const article = /^\/article\/([^/]*)$/.exec(path);
  if (article) return articlePath(article[1]);
  const route = BY_PATH.get(path);
  if (!route || route.sameAs) return null;
  if (route.page === 'home') return `${SITE}/index.html`;
  if (route.page === 'partyDetail') return articlePath(query.get('id'));
  if (!route.page || !CONTENT_PAGES.has(route.page)) return null;
  const page = Number(query.get('page'));
  return `${SITE}${path}.html${Number.isInteger(page) && page > 1 ? `?page=${page}` : ''}`;
}

/** The absolute address to share for `path` and `search`: the crawlable page's, else the app's own. */
export function shareUrl(path: string, search = '', location: Pick<Location, 'origin' | 'href'> = window.location): string {
  const crawlable = crawlablePath(path, search);
  return crawlable ? `${location.origin}${crawlable}` : location.href;
}
