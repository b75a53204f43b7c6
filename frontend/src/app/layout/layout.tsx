import type { ReactNode } from 'react';
import { useLocation } from 'wouter';

import { BackToTop } from '../../components/back-to-top';
import { categoriesToMenu, findByUrl, useGetCategoriesQuery } from '../../features/categories';
import { useGetSiteQuery, useMourning } from '../../features/site';
import { messages } from '../../lib/locale';
import { PageTitle, useCompanyName } from '../page-title';
import { ROUTES } from '../routes';
import { Footer } from './footer';
import { Header } from './header';
import { menuFromRoutes } from './menu-items';
import { reachableServices, withServices } from '../services';

export { FALLBACK_NAME, useCompanyName } from '../page-title';

/** `A, B and C`: the sections an English description names. */
const englishList = (items: readonly string[]): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

const text = messages({
  zh: {
    description: (company: string, sections: readonly string[]) => `${company}官方网站，设有${sections.join('、')}等栏目。`,
    skip: '跳到主要内容',
  },
  en: {
    description: (company: string, sections: readonly string[]) =>
      `The official website of ${company}, with sections including ${englishList(sections)}.`,
    skip: 'Skip to main content',
  },
});

/** 联络合作, linked from the footer when the CMS has it. */
const LIAISON = '/liaison';
const CAREERS = '/careers';

/**
 * The home page's title: the company name alone (spec §1), and its description, made of the
 * company's name and the sections its CMS shows. Every other route sets its own (router).
 */
export function CompanyTitle() {
  const { isLoading } = useGetSiteQuery();
  const company = useCompanyName();
  const { data: tree = [] } = useGetCategoriesQuery();
  const sections = tree.filter((c) => !c.hidden && c.name.trim()).map((c) => c.name.trim());
  const description = company && sections.length > 0 ? text().description(company, sections) : undefined;
  return <PageTitle title={company} final={!isLoading} path="/" description={description} />;
}

export function SkipLink() {
  return (
    <a className="skip-link" href="#main-content" onClick={(e) => {
      e.preventDefault();
      document.getElementById('main-content')?.focus();
    }}>
      {text().skip}
    </a>
  );
}

/** Skip link and header with the menu: the category tree, or the route table when it cannot load. */
export function SiteHeader() {
  const [path] = useLocation();
  const companyName = useCompanyName();
  const { data: tree, isError } = useGetCategoriesQuery();
  const { data: site } = useGetSiteQuery();
  // Every page has this header, so the site's grey (哀悼模式) follows `/site` from here: in the
  // server's markup too (the head's `portal-mourning`, which greys the page from its first paint
  // before the app has run, on a visitor's first visit as well).
  const mourning = useMourning();
  // While the tree loads (its request starts with the page, so briefly) the menu is empty rather
  // than the route table's: the two differ, and swapping one for the other moved the whole page
  // (a cold load's layout shift was 0.24 on a 1366 px screen, the fallback menu wrapping to a second row).
  const settled = tree !== undefined || isError;
  const sections = tree && tree.length > 0 && !isError ? categoriesToMenu(tree) : settled ? menuFromRoutes(ROUTES) : [];
  // 客户服务's entries join once the menu has its sections (an empty menu stays empty: see above).
  const items = sections.length > 0 ? withServices(sections, reachableServices(site?.services ?? [], tree)) : sections;
  return (
    <>
      {mourning && <meta name="portal-mourning" content="on" />}
      <SkipLink />
      <Header companyName={companyName} shortName={site?.shortName} items={items} currentPath={path} search={site?.search !== false} />
    </>
  );
}

/** The footer; its links to 联络合作 and 人才招聘 only when the CMS has those sections. */
export function SiteFooter() {
  const { data: site } = useGetSiteQuery();
  const { data: tree = [] } = useGetCategoriesQuery();
  return (
    <>
      <Footer site={site} liaison={Boolean(findByUrl(tree, LIAISON))} careers={Boolean(findByUrl(tree, CAREERS))} />
      <BackToTop />
    </>
  );
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
