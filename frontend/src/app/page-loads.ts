// Every page's loader (`loader.ts`): what the page at an address reads, by its route. The gateway's
// render asks for these before it renders (`src/server.tsx`), the browser before a visitor opens a
// page (`link-navigation.ts`). Each feature writes its own pages' queries (`features/*/loads.ts`),
// with the arguments its components use; this table only picks them by route, as `router.tsx`
// picks the page. `hydration.test.tsx` renders a page of every kind and finds each rendered once
// (nothing asked for that its loader did not name); the gateway's
// `operations::every_kind_of_page_is_rendered_once` counts the same on the real build.
import { articleLoads, listLoads, singleLoads } from '../features/articles';
import { categoriesApi, categoriesInSpec, categoriesSpec, findByUrl, type Category } from '../features/categories';
import { searchLoads } from '../features/search';
import { siteApi, siteSpec } from '../features/site';
import { idOf } from '../lib/id';
import { BASE, appPathOf } from '../lib/page-href';
import { otherLanguage } from './languages';
import { queryOf, readerOf, type PageQuery, type Reader } from './loader';
import { groupLoads } from './pages/group-sections';
import { homeLoads } from './pages/home/home-lists';
import { routeTrail } from './routes';

const ARTICLE = /^\/article\/([^/]+)$/;

/** What every page reads: the site's settings and the category tree (the header, the menu). */
const EVERY_PAGE: PageQuery[] = [
  queryOf(siteApi.endpoints.getSite, siteSpec, undefined),
  queryOf(categoriesApi.endpoints.getCategories, categoriesSpec, undefined),
];

/**
 * The queries of the page at `url` (`/portal/article/2101?listPage=2`; `/portal` may be left out)
 * that can be named with what `read` finds now: ask again once they are in for those that
 * depend on them (a list's category is found in the tree, an article's related list by the article).
 */
export function pageLoads(url: string, read: Reader): PageQuery[] {
  const { pathname, search } = new URL(url, 'http://portal.invalid');
  const path = (pathname.startsWith(BASE) ? appPathOf(pathname) : pathname) || '/';
  const tree = read(categoriesApi.endpoints.getCategories, undefined);
  const site = read(siteApi.endpoints.getSite, undefined);
  // The other language's tree, where the portal has one: the language switch offers its page.
  const other = site && otherLanguage(site.languages);
  return [
    ...EVERY_PAGE,
    ...(other ? [queryOf(categoriesApi.endpoints.getCategoriesIn, categoriesInSpec, other)] : []),
    ...(tree ? own(path, search, tree, read) : []),
  ];
}

/** Loader passes a prefetch makes: the deepest page names its queries in three. */
const PREFETCH_PASSES = 4;

/**
 * Fetches what the page at `route` (an app route, `/article/2101`) reads, as a visitor is about to
 * open it: the page then opens with its data in place, as the server would have rendered it.
 */
export async function prefetchPage(route: string, store: { dispatch: (action: never) => unknown; getState(): unknown }): Promise<void> {
  const started = new Set<string>();
  for (let pass = 0; pass < PREFETCH_PASSES; pass += 1) {
    const fresh = pageLoads(route, readerOf(store.getState())).filter((query) => !started.has(query.key));
    if (fresh.length === 0) return;
    const running = fresh.map((query) => {
      started.add(query.key);
      return query.start(store.dispatch, { subscribe: false });
    });
    await Promise.allSettled(running);
  }
}

function own(path: string, search: string, tree: readonly Category[], read: Reader): PageQuery[] {
  const article = ARTICLE.exec(path);
  if (article) return articleLoads(idOf(article[1]), read);
  if (path === '/search') return searchLoads(search);
  const category = findByUrl(tree, path);
  switch (routeTrail(path).at(-1)?.page) {
    case 'home':
      return homeLoads(tree);
    case 'group':
      return groupLoads(path, tree);
    case 'single':
      return singleLoads(category, search, read);
    case 'news':
    case 'partyConstruction':
    case 'party':
      return listLoads(category, search);
    case 'partyDetail':
      return articleLoads(idOf(new URLSearchParams(search).get('id')), read);
    default:
      return [];
  }
}
