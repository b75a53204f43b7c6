// The document title of every page (issue 24): `文章标题 - 栏目 - 公司名`, the company name alone on
// the home page (spec §1). The router works out each route's parts (the route table, the CMS tree,
// the loaded article, the search keyword); this module joins them, sets the title and tells the
// route announcer (`route-announcer.tsx`) once a page's title is final, so a screen reader hears
// the new page's name after a route change.
import { useEffect } from 'react';

import { useGetSiteQuery } from '../features/site';
import { messages } from '../lib/locale';

const text = messages({
  zh: { page: (name: string, page: number) => `${name}（第 ${page} 页）` },
  en: { page: (name: string, page: number) => `${name} (Page ${page})` },
});

/**
 * The company's name before `/site` answers (a page the gateway could not render, drawn by the
 * browser): none rather than the demo company's, which must never show on a customer's site.
 */
export const FALLBACK_NAME = '';

/** The company's name from `/site` (none until it answers). */
export function useCompanyName(): string {
  const { data: site } = useGetSiteQuery();
  return site?.companyName ?? FALLBACK_NAME;
}

export const TITLE_SEPARATOR = ' - ';

/** The title of a page: its parts that are set, each once, then the company's name. */
export function composeTitle(parts: readonly (string | null | undefined)[], company: string): string {
  const out: string[] = [];
  for (const raw of [...parts, company]) {
    const part = raw?.replace(/\s+/g, ' ').trim();
    if (part && !out.includes(part)) out.push(part);
  }
  return out.join(TITLE_SEPARATOR);
}

/** `通知公告（第 2 页）`, `Notices (Page 2)`: a list or result page past the first says which page it is. */
export const withPageNumber = (name: string, page: number | null | undefined): string =>
  page && page > 1 ? text().page(name, page) : name;

/** The title a route set last: its path, and whether its data had arrived (a final title). */
export interface TitleEntry {
  title: string;
  path: string;
  final: boolean;
}

let entry: TitleEntry | null = null;
const listeners = new Set<() => void>();

export function subscribeTitle(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const currentTitle = (): TitleEntry | null => entry;

/** Forgets the last title (tests start each render afresh). */
export function resetTitle(): void {
  entry = null;
}

/**
 * Tells the route announcer the title of the page at `path` (the route's own: a page on its way
 * out, still rendered once with the next route's address, must not pass its title off as the next
 * page's). `final` is false while the data a title names is still loading (an article's title, the
 * CMS's name of a section): it is announced only once final.
 */
export function usePageTitle(title: string, final: boolean, path: string): void {
  useEffect(() => {
    entry = { title, path, final };
    listeners.forEach((listener) => listener());
  }, [title, path, final]);
}

/**
 * The page's `<title>`, rendered where the page is (React puts it into the document's head, and
 * the gateway's server render writes it into the page it sends), and announced as `usePageTitle`
 * says. A page renders exactly one.
 */
export function PageTitle({
  title,
  final,
  path,
  shareTitle,
  description,
}: {
  title: string;
  final: boolean;
  path: string;
  shareTitle?: string;
  /** What search results and share cards say of the page (an article's is its own meta). */
  description?: string;
}) {
  usePageTitle(title, final, path);
  const summary = description?.replace(/\s+/g, ' ').trim();
  return (
    <>
      <title>{title}</title>
      {/* What a share card (WeChat, Open Graph) names the page: the page's own name. */}
      <meta property="og:title" content={shareTitle ?? title} />
      {summary && <meta name="description" content={summary} />}
      {summary && <meta property="og:description" content={summary} />}
    </>
  );
}
