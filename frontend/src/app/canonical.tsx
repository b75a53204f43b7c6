// The page's `<link rel="canonical">` and its Open Graph address: the address a visitor shares
// (share-url.ts). Rendered in the tree (React puts it into the document's head; the gateway's
// server render writes it into the page's head), beside the title each route renders.
import { useLocation, useSearch } from 'wouter';

import { useGetSiteQuery } from '../features/site';
import { shareUrl } from './share-url';

export function Canonical() {
  const [path] = useLocation();
  const search = useSearch();
  const { data: site } = useGetSiteQuery();
  const href = shareUrl(path, search, site?.publicUrl);
  return (
    <>
      <link rel="canonical" href={href} />
      <meta property="og:url" content={href} />
      <meta property="og:type" content={path.startsWith('/article/') ? 'article' : 'website'} />
      <meta property="og:locale" content="zh_CN" />
      {site?.companyName && <meta property="og:site_name" content={site.companyName} />}
    </>
  );
}
