import { useEffect, type ReactNode } from 'react';

import { categoriesToMenu, useGetCategoriesQuery } from '../../features/categories';
import { useGetSiteQuery } from '../../features/site';
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

export function Layout({ children }: { children: ReactNode }) {
  const [path] = useHashPath();
  const companyName = useCompanyTitle();
  const { data: site } = useGetSiteQuery();
  const { data: tree, isError } = useGetCategoriesQuery();
  const items = tree && tree.length > 0 && !isError ? categoriesToMenu(tree) : menuFromRoutes(ROUTES);
  return (
    <>
      <SkipLink />
      <Header companyName={companyName} items={items} currentPath={path} />
      <main id="main-content" className="container site-main" tabIndex={-1}>
        {children}
      </main>
      <Footer site={site} />
    </>
  );
}
