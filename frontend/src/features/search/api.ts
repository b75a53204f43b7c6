import { api } from '../../app/api';
import type { QuerySpec } from '../../app/loader';
import type { SearchPage } from '../../lib/api-types';
import type { Id } from '../../lib/id';

export type { Marked, SearchHit, SearchPage, SectionCount } from '../../lib/api-types';

export interface SearchArgs {
  keyword: string;
  page: number;
  size: number;
  /** The gateway's own index only: a section, and days (`yyyy-MM-dd`). */
  categoryId?: Id | null;
  from?: string | null;
  to?: string | null;
}

/** A search's request (`app/loader.ts`): only the parameters set, in the gateway's order. */
export const searchSpec: QuerySpec<SearchArgs, SearchPage> = {
  request: ({ keyword, categoryId, from, to, page, size }) => ({
    url: '/article/search',
    params: {
      keyword,
      ...(categoryId ? { categoryId } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      page,
      size,
    },
  }),
};

export const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchArticles: build.query<SearchPage, SearchArgs>({
      query: searchSpec.request,
      // The gateway keeps searches briefly (30 s); so does the app.
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useSearchArticlesQuery } = searchApi;
