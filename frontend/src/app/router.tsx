import { useCallback, useLayoutEffect, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation, useParams, useSearch } from 'wouter';

import type { Crumb } from '../components/breadcrumb';
import { InnerLayout } from '../components/inner-layout';
import { SectionNav } from '../components/section-nav';
import { hasChannel } from '../components/whistleblowing';
import { PageSkeleton, type SkeletonKind } from '../components/skeleton';
import { ArticleMeta, useGetArticleQuery, usePrefetchArticle, type ContentPageProps, type PageExtras } from '../features/articles';
import { accessFor, allowedRoutes, useInitialState } from '../features/access';
import { findById, findByUrl, selectMenu, useGetCategoriesQuery, type Category } from '../features/categories';
import { parseSearch, type SearchPageProps } from '../features/search';
import { useGetSiteQuery, type Site } from '../features/site';
import { lazyPage, type LazyPage } from '../lib/lazy-page';
import { idOf, type Id } from '../lib/id';
import { locale, messages } from '../lib/locale';
import { Canonical } from './canonical';
import { shareUrl } from './share-url';
import { Layout } from './layout/layout';
import { composeTitle, PageTitle, useCompanyName, withPageNumber } from './page-title';
import { useResponseStatus } from '../lib/response-status';
import { RouteAnnouncer } from './route-announcer';
import routeTable from './route-table.json';
import { ROUTES, flattenRoutes, routeName, routeTrail, shownRoute, type PageKey, type RouteDef } from './routes';
import { sectionOf, sectionOfCategory, type Section } from './sections';

const text = messages({
  zh: {
    description: (company: string, page: string) => `${company}${page}`,
    articleMissing: '文章不存在',
    articleFailed: '文章加载失败',
    partyDetail: '党建风采详情',
    article: '文章详情',
    search: '站内搜索',
    results: (keyword: string) => `“${keyword}”的搜索结果`,
    notFound: '页面不存在',
  },
  en: {
    description: (company: string, page: string) => `${page} – ${company}`,
    articleMissing: 'Article not found',
    articleFailed: 'The article failed to load',
    partyDetail: 'Party Building Article',
    article: 'Article',
    search: 'Site Search',
    results: (keyword: string) => `Search results for “${keyword}”`,
    notFound: 'Page not found',
  },
});

/** While a content page's script loads: the placeholder the page itself shows while its data loads. */
const skeleton = (kind: SkeletonKind) =>
  function PageFallback(props: ContentPageProps) {
    const list = kind === 'list' || props.category?.type === 'list';
    return (
      <PageSkeleton
        kind={kind === 'article' ? 'article' : list ? 'list' : 'single'}
        breadcrumb={props.breadcrumb}
        title={props.category?.name ?? props.title}
        lead={list ? props.category?.description : undefined}
        leadPending={props.categoriesLoading}
      />
    );
  };

// One chunk per page, named twice: its import's webpackChunkName (which webpack reads) and the
// name the page's head gives it (`PageChunk`; a page-chunks test compares the two).
const PAGES: Record<PageKey, LazyPage<ContentPageProps>> = {
  home: lazyPage('page-home', () => import(/* webpackChunkName: "page-home" */ './pages/home-page')),
  group: lazyPage('page-group', () => import(/* webpackChunkName: "page-group" */ './pages/group-page')),
  single: lazyPage('page-single', () => import(/* webpackChunkName: "page-single" */ '../features/articles/pages/single-page'), skeleton('single')),
  news: lazyPage('page-news', () => import(/* webpackChunkName: "page-news" */ '../features/articles/pages/news-list-page'), skeleton('list')),
  partyConstruction: lazyPage(
    'page-party-construction',
    () => import(/* webpackChunkName: "page-party-construction" */ '../features/articles/pages/party-construction-page'),
    skeleton('list'),
  ),
  party: lazyPage('page-party', () => import(/* webpackChunkName: "page-party" */ '../features/articles/pages/party-page'), skeleton('list')),
  partyDetail: lazyPage(
    'page-party-detail',
    () => import(/* webpackChunkName: "page-party-detail" */ '../features/articles/pages/party-detail-page'),
    skeleton('article'),
  ),
  login: lazyPage('page-login', () => import(/* webpackChunkName: "page-login" */ '../features/site/login-page')),
  sitemap: lazyPage('page-sitemap', () => import(/* webpackChunkName: "page-sitemap" */ './pages/sitemap-page')),
  contact: lazyPage('page-contact', () => import(/* webpackChunkName: "page-contact" */ './pages/contact-page')),
  accessibility: lazyPage('page-accessibility', () => import(/* webpackChunkName: "page-accessibility" */ './pages/accessibility-page')),
  whistleblowing: lazyPage('page-whistleblowing', () => import(/* webpackChunkName: "page-whistleblowing" */ './pages/whistleblowing-page')),
  legal: lazyPage('page-legal', () => import(/* webpackChunkName: "page-legal" */ './pages/legal-page')),
  privacy: lazyPage('page-privacy', () => import(/* webpackChunkName: "page-privacy" */ './pages/privacy-page')),
};
const ArticlePage = lazyPage('page-article', () => import(/* webpackChunkName: "page-article" */ '../features/articles/pages/article-page'), skeleton('article'));
const SearchPage = lazyPage<Pick<SearchPageProps, 'paginationLocale'>>('page-search', () => import(/* webpackChunkName: "page-search" */ './pages/search-page'));
const NotFoundPage = lazyPage('page-not-found', () => import(/* webpackChunkName: "page-not-found" */ '../components/not-found-page'));

/**
 * Every page's chunk, fetched now: the server render has them all in its one bundle and renders
 * each at once, never a loading state (`lazyPage`'s `preload`).
 */
export const preloadAllPages = (): Promise<unknown> =>
  Promise.all([...Object.values(PAGES), ArticlePage, SearchPage, NotFoundPage].map((page) => page.preload()));

/**
 * The chunk of the page at `path` (an app path, `/news_center/notice`), fetched before the browser
 * hydrates the server's markup: the page then hydrates in the same pass as the layout. A page
 * still in its chunk when the layout updates (the first effects do) would be drawn again from its
 * placeholder, the server's markup thrown away.
 */
export const preloadPageAt = (path: string): Promise<void> => pageAt(path).preload();

/** The page at `path` (an app path). */
function pageAt(path: string): LazyPage<never> {
  if (/^\/article\/[^/]+$/.test(path)) return ArticlePage as LazyPage<never>;
  if (path === '/search') return SearchPage as LazyPage<never>;
  const route = routeTrail(path).at(-1);
  if (!route) return NotFoundPage as LazyPage<never>;
  return PAGES[route.page ?? 'group'] as LazyPage<never>;
}

/**
 * The name of the chunk of the page shown, in the page's head (`<meta name="portal-page-chunk">`):
 * index.html's head script fetches that chunk with the app's scripts rather than after them, one
 * round trip less before a phone's page is hydrated (562 ms on Lighthouse's Slow 4G).
 */
function PageChunk() {
  const [path] = useLocation();
  return <meta name="portal-page-chunk" content={pageAt(path).chunk} />;
}

/** The page kinds shown with their section's 栏目导航 (issue 24); the article page too. */
const SECTION_PAGES: ReadonlySet<PageKey> = new Set(['single', 'news', 'partyConstruction']);
/** The kinds whose title names a list page past the first (`?page=2`). */
const LIST_PAGES: ReadonlySet<string> = new Set(routeTable.listPages);

/** Business pages end with a call to action (咨询热线, 在线订舱). */
export const isBusinessPath = (path: string): boolean => /^\/(business|business_overview)\//.test(path);
/** 清正廉洁 shows how to report (信访举报). */
export const CLEAN_HONEST = '/party-construction/clean-honest';

function crumbsOf(tree: readonly Category[], category: Category): Crumb[] {
  const { parent } = selectMenu(tree, category.url);
  return [...(parent ? [{ name: parent.name, url: parent.url }] : []), { name: category.name, url: category.url }];
}

/** 业务概览's pages: hidden from the menu, so a business page leads to them. */
const OVERVIEW = '/business_overview';

/** What the app adds under a route's content, from the site's facts. */
function extrasFor(path: string, site: Site | undefined, tree: readonly Category[]): PageExtras | undefined {
  if (!site) return undefined;
  if (isBusinessPath(path)) {
    const overview = (routeTrail(OVERVIEW).at(-1)?.routes ?? [])
      .filter((r) => r.path && !r.sameAs && shownRoute(r, tree, findByUrl))
      .map((r) => ({ name: findByUrl(tree, r.path!)?.name ?? routeName(r), url: r.path! }));
    return { contact: { hotline: site.hotline, bookingUrl: site.bookingUrl }, overview };
  }
  if (path === CLEAN_HONEST) return { whistleblowing: site.whistleblowing };
  return undefined;
}

/** What every content page is told: its category from the CMS tree, breadcrumb, settings. */
function usePageContext(path: string, title: string): ContentPageProps {
  const { data: tree = [], isLoading } = useGetCategoriesQuery();
  const search = useSearch();
  const { data: site } = useGetSiteQuery();
  const category = findByUrl(tree, path);
  const breadcrumb: Crumb[] = category
    ? crumbsOf(tree, category)
    : routeTrail(path).map((r) => ({ name: routeName(r), url: r.path }));
  const breadcrumbFor = useCallback(
    (id: Id) => {
      const c = findById(tree, id);
      return c ? crumbsOf(tree, c) : [];
    },
    [tree],
  );
  const urlOf = useCallback((id: Id) => findById(tree, id)?.url, [tree]);
  return {
    path,
    title: category?.name ?? title,
    category: category && {
      id: category.id,
      name: category.name,
      url: category.url,
      description: category.description,
      type: category.type,
    },
    categoriesLoading: isLoading,
    breadcrumb: breadcrumb.length ? breadcrumb : [{ name: title }],
    paginationLocale: site?.paginationLocale ?? 'en',
    breadcrumbFor,
    urlOf,
    extras: extrasFor(path, site, tree),
    shareUrl: shareUrl(path, search, site?.publicUrl),
  };
}

/**
 * A route's title, `页面 - 栏目 - 公司名`: the route and its group as the CMS names them (the route
 * table's names while the tree loads or when it lacks them), a list's page past the first.
 */
function RouteTitle({ route, tree, ready }: { route: RouteDef; tree: readonly Category[]; ready: boolean }) {
  const company = useCompanyName();
  const page = new URLSearchParams(useSearch()).get('page');
  const names = routeTrail(route.path ?? '/')
    .map((r) => (r.path && findByUrl(tree, r.path)?.name) || routeName(r))
    .reverse();
  const own = names[0];
  if (route.page && LIST_PAGES.has(route.page) && names.length > 0) names[0] = withPageNumber(names[0], Number(page));
  // The category's own description (the CMS's lead), else what the page is and whose.
  const lead = (route.path && findByUrl(tree, route.path)?.description?.trim()) || undefined;
  const description = lead ?? (own && company ? text().description(company, own) : undefined);
  return (
    <PageTitle title={composeTitle(names, company)} final={ready} path={route.path ?? '/'} shareTitle={names[0]} description={description} />
  );
}

/** The title and 栏目导航 of an article (by its id): `文章标题 - 栏目 - 公司名`, its list's section. */
function useArticleFrame(id: Id | null, fallbackName: string, path: string) {
  const { data: tree = [], isLoading: treeLoading } = useGetCategoriesQuery();
  const { data: site, isLoading: siteLoading } = useGetSiteQuery();
  const search = useSearch();
  const company = useCompanyName();
  // currentData: the article of this id, never the one shown before it while this one loads.
  const { currentData: article, isError, error } = useGetArticleQuery(id ?? 0, { skip: id === null });
  // A failed answer is settled while it is asked for again (article-detail.tsx).
  const settled = id === null || article !== undefined || isError || error !== undefined;
  const missing = id === null || (error as { code?: number } | undefined)?.code === 404;
  useResponseStatus(settled && missing ? 404 : 200);
  const t = text();
  const name = article ? article.title : settled ? (missing ? t.articleMissing : t.articleFailed) : fallbackName;
  const category = article ? findById(tree, article.categoryId)?.name : undefined;
  const title = (
    <>
      <PageTitle title={composeTitle([name, category], company)} final={settled && !treeLoading && !siteLoading} path={path} shareTitle={name} />
      {article && <ArticleMeta article={article} shareUrl={shareUrl(path, search, site?.publicUrl)} />}
    </>
  );
  return { loading: !settled, title, ...(article ? sectionOfCategory(tree, article.categoryId) : {}) };
}

function sectionNav(section: Section | undefined, current: string | undefined, kind: 'page' | 'true' = 'page'): ReactNode {
  if (!section || section.items.length === 0) return undefined;
  return <SectionNav title={section.name} url={section.url || undefined} items={section.items} current={current} currentKind={kind} />;
}

/**
 * The address the browser loaded, until the app's first commit there: that page is where the
 * visitor already is. On a phone it is painted (and scrolled, and tapped) seconds before the app
 * hydrates it; a scroll to the top then moved the page under the finger, between a tap's press and
 * its release (the release landed on other text: the tap on 返回列表 was lost, CI 2026-12-07).
 */
let loadedAt: string | null = typeof window === 'undefined' ? null : `${window.location.pathname}${window.location.search}`;

/**
 * A new route starts at the top; a list coming back from a detail restores its own position after.
 * The page the document was loaded at keeps the browser's scroll: the visitor's, or its own.
 */
function ScrollToTop({ path }: { path: string }) {
  useLayoutEffect(() => {
    const here = `${window.location.pathname}${window.location.search}`;
    const loaded = loadedAt === here;
    loadedAt = null;
    if (!loaded) window.scrollTo(0, 0);
  }, [path]);
  return null;
}

function RoutePage({ route }: { route: RouteDef }) {
  const path = route.path ?? '/';
  const context = usePageContext(path, routeName(route));
  const Page = PAGES[route.page ?? 'group'];
  const { data: tree = [], isLoading: treeLoading, isError: treeFailed } = useGetCategoriesQuery();
  const { data: site, isLoading: siteLoading } = useGetSiteQuery();
  // 信访举报 exists when the site has a channel to report by (`[site.whistleblowing]`).
  if (route.page === 'whistleblowing' && site && !hasChannel(site.whistleblowing)) return <NotFoundRoute />;
  // A section the customer's CMS does not have is no page of this site: 404, not the spec's
  // placeholder (nothing leads here; this is an old link or a guess). Only once the tree is known:
  // while it loads, fails or comes back empty (a CMS mid-deploy) the page is drawn as ever.
  if (route.page !== 'home' && !treeLoading && !treeFailed && tree.length > 0 && !shownRoute(route, tree, findByUrl)) {
    return <NotFoundRoute />;
  }
  const page = (
    <>
      <ScrollToTop path={path} />
      <Page {...context} />
    </>
  );
  if (route.page === 'home') return page;
  // A list's RSS feed, announced in the head for feed readers (the gateway serves it when the site
  // names its public address: a feed's links are absolute); here, not in the list's lazy chunk (a
  // hoisted tag a lazy boundary hydrates would be put in the head twice).
  const list = context.category && (context.category.type === 'list' || (route.page && LIST_PAGES.has(route.page)));
  // The feeds are the site's own language's (the gateway's feeds read its Chinese content).
  const feed = list && locale() === 'zh' && context.category && site?.publicUrl && (
    <link rel="alternate" type="application/rss+xml" title={context.category.name} href={`/portal/feed/${context.category.id}.xml`} />
  );
  const nav = route.page && SECTION_PAGES.has(route.page) ? sectionNav(sectionOf(tree, path), path) : undefined;
  const body = route.page === 'partyDetail' ? <PartyDetailFrame>{page}</PartyDetailFrame> : <InnerLayout nav={nav}>{page}</InnerLayout>;
  return (
    <>
      {route.page !== 'partyDetail' && <RouteTitle route={route} tree={tree} ready={!treeLoading && !siteLoading} />}
      {feed}
      {route.layout === false ? body : <Layout>{body}</Layout>}
    </>
  );
}

/** 党建风采详情 (`/party/detail?id=9`): an article, titled and placed as the article page is. */
function PartyDetailFrame({ children }: { children: ReactNode }) {
  const id = idOf(new URLSearchParams(useSearch()).get('id'));
  const { loading, title, section, current } = useArticleFrame(id, text().partyDetail, '/party/detail');
  return (
    <InnerLayout nav={sectionNav(section, current, 'true')} reserve pending={loading}>
      {title}
      {children}
    </InnerLayout>
  );
}

function ArticleRoute() {
  const { id: raw } = useParams<{ id: string }>();
  // The article's own address (not the hash's, which moves on before this route leaves).
  const path = `/article/${raw ?? ''}`;
  const id = idOf(raw);
  usePrefetchArticle(id);
  const t = text();
  const context = usePageContext(path, t.article);
  const { loading, title, section, current } = useArticleFrame(id, t.article, path);
  return (
    <Layout>
      {title}
      <ScrollToTop path={path} />
      <InnerLayout nav={sectionNav(section, current, 'true')} reserve pending={loading}>
        <ArticlePage {...context} />
      </InnerLayout>
    </Layout>
  );
}

/** 站内搜索: `“班列”的搜索结果 - 站内搜索 - 公司名`, the page past the first named. */
function SearchRoute() {
  const t = text();
  const { paginationLocale } = usePageContext('/search', t.search);
  const { keyword, page } = parseSearch(useSearch());
  const company = useCompanyName();
  const { isLoading } = useGetSiteQuery();
  const parts = keyword ? [withPageNumber(t.results(keyword), page), t.search] : [t.search];
  return (
    <Layout>
      <PageTitle title={composeTitle(parts, company)} final={!isLoading} path="/search" />
      <ScrollToTop path="/search" />
      <SearchPage paginationLocale={paginationLocale} />
    </Layout>
  );
}

function NotFoundRoute() {
  const [path] = useLocation();
  const company = useCompanyName();
  const { isLoading } = useGetSiteQuery();
  useResponseStatus(404);
  return (
    <Layout>
      <PageTitle title={composeTitle([text().notFound], company)} final={!isLoading} path={path} />
      <NotFoundPage {...({} as ContentPageProps)} />
    </Layout>
  );
}

export function AppRoutes() {
  const initial = useInitialState();
  const routes = flattenRoutes(allowedRoutes(ROUTES, accessFor(initial.state)));
  return (
    <>
      <RouteAnnouncer />
      <Canonical />
      <PageChunk />
      <Switch>
        {routes.map((route) => (
          <Route key={route.path} path={route.path!}>
            {route.sameAs ? <Redirect to={route.sameAs} replace /> : <RoutePage route={route} />}
          </Route>
        ))}
        <Route path="/article/:id">
          <ArticleRoute />
        </Route>
        <Route path="/search">
          <SearchRoute />
        </Route>
        <Route>
          <NotFoundRoute />
        </Route>
      </Switch>
    </>
  );
}
