import { api } from '../../app/api';
import type { QuerySpec } from '../../app/loader';
import type { Locale } from '../../lib/locale';
import type { Category } from './types';

/** The tree's request and how its answer is read (`app/loader.ts`). */
export const categoriesSpec: QuerySpec<void, Category[]> = {
  request: () => ({ url: '/category/list', silent: true }),
  transform: (result: { content?: Category[] } | Category[] | null) => (Array.isArray(result) ? result : (result?.content ?? [])),
};

/**
 * The tree in another language the portal is in (`lang=en`, or `zh` from an English page): the
 * sections a visitor can switch to there, and those the page's language switch must not offer.
 */
export const categoriesInSpec: QuerySpec<Locale, Category[]> = {
  request: (lang) => ({ url: '/category/list', params: { lang }, silent: true }),
  transform: categoriesSpec.transform,
};

export const categoriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<Category[], void>({
      query: categoriesSpec.request,
      transformResponse: categoriesSpec.transform,
      keepUnusedDataFor: 3600,
    }),
    getCategoriesIn: build.query<Category[], Locale>({
      query: categoriesInSpec.request,
      transformResponse: categoriesInSpec.transform,
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useGetCategoriesQuery, useGetCategoriesInQuery } = categoriesApi;
