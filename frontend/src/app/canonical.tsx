// The page's `<link rel="canonical">`, its Open Graph address (the address a visitor shares:
// share-url.ts) and, where the portal is in another language, the page there (`hreflang`).
// Rendered in the tree (React puts it into the document's head; the gateway's server render
// writes it into the page's head), beside the title each route renders.
import { useLocation, useSearch } from 'wouter';

import { useGetCategoriesInQuery } from '../features/categories';
import { useGetSiteQuery } from '../features/site';
import { htmlLangOf, locale, type Locale } from '../lib/locale';
import { otherLanguage, pageIn } from './languages';
import { shareUrl } from './share-url';

export function Canonical() {
  const [path] = useLocation();
  const search = useSearch();
  const { data: site } = useGetSiteQuery();
  const other = otherLanguage(site?.languages);
  const href = shareUrl(path, search, site?.publicUrl);
  return (
    <>
      <link rel="canonical" href={href} />
      <meta property="og:url" content={href} />
      <meta property="og:type" content={path.startsWith('/article/') ? 'article' : 'website'} />
      <meta property="og:locale" content={locale() === 'en' ? 'en_GB' : 'zh_CN'} />
      {site?.companyName && <meta property="og:site_name" content={site.companyName} />}
      {other && <Alternates other={other} path={path} search={search} href={href} publicUrl={site?.publicUrl ?? ''} />}
    </>
  );
}

/** The page and its pair in the other language, where that language has it (its tree says). */
function Alternates({ other, path, search, href, publicUrl }: { other: Locale; path: string; search: string; href: string; publicUrl: string }) {
  const { data: tree } = useGetCategoriesInQuery(other);
  const there = pageIn(other, path, search, tree);
  if (!there) return null;
  return (
    <>
      <link rel="alternate" hrefLang={htmlLangOf(locale())} href={href} />
      <link rel="alternate" hrefLang={htmlLangOf(other)} href={`${publicUrl.replace(/\/+$/, '')}${there}`} />
    </>
  );
}
