// What the search page reads, written once: the page asks with these arguments, and the page
// loader (`app/page-loads.ts`) names the same query before the gateway renders it.
import { queryOf, type PageQuery } from '../../app/loader';
import { searchApi, searchSpec, type SearchArgs } from './api';
import { parseSearch, type SearchQuery } from './keyword';

/** Results a page holds. */
export const PAGE_SIZE = 10;

/** The results of `query` as the page asks for them. */
export const searchArgs = (query: SearchQuery): SearchArgs => ({
  keyword: query.keyword ?? '',
  categoryId: query.section,
  from: query.from,
  to: query.to,
  page: query.page,
  size: PAGE_SIZE,
});

/** The search at `search` (`?q=班列&page=2`): its results, none without a keyword. */
export function searchLoads(search: string): PageQuery[] {
  const query = parseSearch(search);
  return query.keyword ? [queryOf(searchApi.endpoints.searchArticles, searchSpec, searchArgs(query))] : [];
}
