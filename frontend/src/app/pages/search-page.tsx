// 站内搜索 with 服务直达: the search page of `features/search` and the portal's own pages and services
// its words name (`app/service-shortcuts.ts`), in the search page's chunk: the shortcuts' tables, in
// both languages, were a kilobyte and a half of every page's script (the initial load budget).
import { useSearch } from 'wouter';

import { useGetCategoriesQuery } from '../../features/categories';
import SearchPage from '../../features/search/search-page';
import { parseSearch, type SearchPageProps } from '../../features/search';
import { useGetSiteQuery } from '../../features/site';
import { shortcutsFor } from '../service-shortcuts';

export default function SearchWithShortcuts({ paginationLocale }: Pick<SearchPageProps, 'paginationLocale'>) {
  const { keyword } = parseSearch(useSearch());
  const { data: site } = useGetSiteQuery();
  const { data: tree = [] } = useGetCategoriesQuery();
  const shortcuts = keyword ? shortcutsFor(keyword, tree, site) : [];
  return <SearchPage paginationLocale={paginationLocale} shortcuts={shortcuts} />;
}
