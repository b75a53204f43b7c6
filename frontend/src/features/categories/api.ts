import { api } from '../../app/api';
import type { QuerySpec } from '../../app/loader';
import type { Category } from './types';

/** The tree's request and how its answer is read (`app/loader.ts`). */
export const categoriesSpec: QuerySpec<void, Category[]> = {
  request: () => ({ url: '/category/list', silent: true }),
  transform: (result: { content?: Category[] } | Category[] | null) => (Array.isArray(result) ? result : (result?.content ?? [])),
};

export const categoriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<Category[], void>({
      query: categoriesSpec.request,
      transformResponse: categoriesSpec.transform,
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useGetCategoriesQuery } = categoriesApi;
