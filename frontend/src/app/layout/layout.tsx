import type { ReactNode } from 'react';

import { categoriesToMenu, useGetCategoriesQuery } from '../../features/categories';
import { useGetSiteQuery, useMourning } from '../../features/site';
import { afterPaint } from '../../lib/after-paint';
import { useHashPath } from '../hash-location';
import { useCompanyName, usePageTitle } from '../page-title';
import { ROUTES } from '../routes';
import { Header } from './header';
import { menuFromRoutes } from './menu-items';

export { FALLBACK_NAME, useCompanyName } from '../page-title';

/** The home page's title: the company name alone (spec §1). Every other route sets its own (router). */
export function useCompanyTitle(): string {
  const { isLoading } = useGetSiteQuery();
  const name = useCompanyName();
  usePageTitle(name, !isLoading, '/');
  return name;
}

export function SkipLink() {
  return (
    <a className="skip-link" href="#main-content" onClick={(e) => {
      e.preventDefault();
      document.getElementById('main-content')?.focus();
    }}>
      跳到主要内容
    </a>
  );
}

/** Skip link and header with the menu: the category tree, or the route table when it cannot load. */
export function SiteHeader() {
  const [path] = useHashPath();
  const companyName = useCompanyName();
  const { data: tree, isError } = useGetCategoriesQuery();
  const { data: site } = useGetSiteQuery();
  // Every page has this header, so the site's grey (哀悼模式) follows `/site` from here.
  useMourning();
  // While the tree loads (its request starts with the page, so briefly) the menu is empty rather
  // than the route table's: the two differ, and swapping one for the other moved the whole page
  // (a cold load's layout shift was 0.24 on a 1366 px screen, the fallback menu wrapping to a second row).
  const settled = tree !== undefined || isError;
  const items = tree && tree.length > 0 && !isError ? categoriesToMenu(tree) : settled ? menuFromRoutes(ROUTES) : [];
  return (
    <>
      <SkipLink />
      <Header companyName={companyName} items={items} currentPath={path} search={site?.search !== false} />
    </>
  );
}

// Below the fold on every page's first paint: the footer's facts come once the page has painted.
const footer = afterPaint(() => import(/* webpackChunkName: "footer" */ './footer').then((m) => m.Footer));

export function SiteFooter() {
  const { data: site } = useGetSiteQuery();
  const [Footer] = footer.useModule();
  // The landmark is there from the first paint; nothing follows it, so its content moves nothing.
  return Footer ? <Footer site={site} /> : <footer className="site-footer" />;
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <>
      <SiteHeader />
      <main id="main-content" className="container site-main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </>
  );
}
