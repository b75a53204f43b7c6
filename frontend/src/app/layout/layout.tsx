import { useEffect, type ReactNode } from 'react';

import { categoriesToMenu, useGetCategoriesQuery } from '../../features/categories';
import { useGetSiteQuery, useMourning } from '../../features/site';
import { useHashPath } from '../hash-location';
import { ROUTES } from '../routes';
import { Footer } from './footer';
import { Header } from './header';
import { menuFromRoutes } from './menu-items';

export const FALLBACK_NAME = '云川陆港国际物流集团有限公司';

/** Sets the page title to the company name (spec §1). */
export function useCompanyTitle(): string {
  const { data: site } = useGetSiteQuery();
  const name = site?.companyName ?? FALLBACK_NAME;
  useEffect(() => {
    document.title = name;
  }, [name]);
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
  const companyName = useCompanyTitle();
  const { data: tree, isError } = useGetCategoriesQuery();
  const { data: site } = useGetSiteQuery();
  // Every page has this header, so the site's grey (哀悼模式) follows `/site` from here.
  useMourning();
  const items = tree && tree.length > 0 && !isError ? categoriesToMenu(tree) : menuFromRoutes(ROUTES);
  return (
    <>
      <SkipLink />
      <Header companyName={companyName} items={items} currentPath={path} search={site?.search !== false} />
    </>
  );
}

export function SiteFooter() {
  const { data: site } = useGetSiteQuery();
  return <Footer site={site} />;
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
