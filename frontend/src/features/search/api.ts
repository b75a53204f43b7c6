import { api } from '../../app/api';

/** One search result: what the results list shows of an article. */
export interface SearchHit {
  id: number;
  categoryId: number;
  title: string;
  summary?: string;
  publishTime?: string;
}

export interface SearchPage {
  content: SearchHit[];
  totalElements: number;
  totalPages: number;
  page: number;
  size: number;
}

export interface SearchArgs {
  keyword: string;
  page: number;
  size: number;
}

export const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchArticles: build.query<SearchPage, SearchArgs>({
      query: ({ keyword, page, size }) => ({ url: '/article/search', params: { keyword, page, size } }),
      // The gateway keeps searches briefly (30 s); so does the app.
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useSearchArticlesQuery } = searchApi;
