import { useCallback, useLayoutEffect, type ComponentType } from 'react';
import { Redirect, Route, Switch, useParams } from 'wouter';

import type { Crumb } from '../components/breadcrumb';
import { usePrefetchArticle, type ContentPageProps } from '../features/articles';
import { accessFor, allowedRoutes, useInitialState } from '../features/access';
import { findById, findByUrl, selectMenu, useGetCategoriesQuery, type Category } from '../features/categories';
import type { SearchPageProps } from '../features/search';
import { useGetSiteQuery } from '../features/site';
import { lazyPage } from '../lib/lazy-page';
import { useHashPath } from './hash-location';
import { Layout } from './layout/layout';
import { ROUTES, flattenRoutes, routeTrail, type PageKey, type RouteDef } from './routes';

// One chunk per page.
const PAGES: Record<PageKey, ComponentType<ContentPageProps>> = {
  home: lazyPage(() => import(/* webpackChunkName: "page-home" */ './pages/home-page')),
  group: lazyPage(() => import(/* webpackChunkName: "page-group" */ './pages/group-page')),
  single: lazyPage(() => import(/* webpackChunkName: "page-single" */ '../features/articles/pages/single-page')),
  news: lazyPage(() => import(/* webpackChunkName: "page-news" */ '../features/articles/pages/news-list-page')),
  partyConstruction: lazyPage(
    () => import(/* webpackChunkName: "page-party-construction" */ '../features/articles/pages/party-construction-page'),
  ),
  party: lazyPage(() => import(/* webpackChunkName: "page-party" */ '../features/articles/pages/party-page')),
  partyDetail: lazyPage(() => import(/* webpackChunkName: "page-party-detail" */ '../features/articles/pages/party-detail-page')),
  login: lazyPage(() => import(/* webpackChunkName: "page-login" */ '../features/site/login-page')),
  sitemap: lazyPage(() => import(/* webpackChunkName: "page-sitemap" */ './pages/sitemap-page')),
  contact: lazyPage(() => import(/* webpackChunkName: "page-contact" */ './pages/contact-page')),
  accessibility: lazyPage(() => import(/* webpackChunkName: "page-accessibility" */ './pages/accessibility-page')),
};
const ArticlePage = lazyPage(() => import(/* webpackChunkName: "page-article" */ '../features/articles/pages/article-page'));
const SearchPage = lazyPage<SearchPageProps>(() => import(/* webpackChunkName: "page-search" */ '../features/search/search-page'));
const NotFoundPage = lazyPage(() => import(/* webpackChunkName: "page-not-found" */ '../components/not-found-page'));

function crumbsOf(tree: readonly Category[], category: Category): Crumb[] {
  const { parent } = selectMenu(tree, category.url);
  return [...(parent ? [{ name: parent.name, url: parent.url }] : []), { name: category.name, url: category.url }];
}

/** What every content page is told: its category from the CMS tree, breadcrumb, settings. */
function usePageContext(path: string, title: string): ContentPageProps {
  const { data: tree = [], isLoading } = useGetCategoriesQuery();
  const { data: site } = useGetSiteQuery();
  const category = findByUrl(tree, path);
  const breadcrumb: Crumb[] = category
    ? crumbsOf(tree, category)
    : routeTrail(path).map((r) => ({ name: r.name, url: r.path }));
  const breadcrumbFor = useCallback(
    (id: number) => {
      const c = findById(tree, id);
      return c ? crumbsOf(tree, c) : [];
    },
    [tree],
  );
  const urlOf = useCallback((id: number) => findById(tree, id)?.url, [tree]);
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
  };
}

/** A new route starts at the top; a list coming back from a detail restores its own position after. */
function ScrollToTop({ path }: { path: string }) {
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [path]);
  return null;
}

function RoutePage({ route }: { route: RouteDef }) {
  const path = route.path ?? '/';
  const context = usePageContext(path, route.name);
  const Page = PAGES[route.page ?? 'group'];
  const page = (
    <>
      <ScrollToTop path={path} />
      <Page {...context} />
    </>
  );
  return route.layout === false ? page : <Layout>{page}</Layout>;
}

function ArticleRoute() {
  const [path] = useHashPath();
  const { id } = useParams<{ id: string }>();
  usePrefetchArticle(/^\d+$/.test(id ?? '') ? Number(id) : null);
  const context = usePageContext(path, '文章详情');
  return (
    <Layout>
      <ScrollToTop path={path} />
      <ArticlePage {...context} />
    </Layout>
  );
}

function SearchRoute() {
  const { paginationLocale } = usePageContext('/search', '站内搜索');
  return (
    <Layout>
      <ScrollToTop path="/search" />
      <SearchPage paginationLocale={paginationLocale} />
    </Layout>
  );
}

export function AppRoutes() {
  const initial = useInitialState();
  // The initial state takes a tick; showing nothing (rather than a spinner without the layout)
  // keeps the page from jumping when the layout arrives.
  if (initial.loading) return null;
  const routes = flattenRoutes(allowedRoutes(ROUTES, accessFor(initial.state)));
  return (
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
        <Layout>
          <NotFoundPage {...({} as ContentPageProps)} />
        </Layout>
      </Route>
    </Switch>
  );
}
