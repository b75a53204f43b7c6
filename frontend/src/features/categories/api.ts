import { api } from '../../app/api';
import type { Category } from './types';

export const categoriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<Category[], void>({
      query: () => ({ url: '/category/list', silent: true }),
      transformResponse: (result: { content?: Category[] } | Category[] | null) =>
        Array.isArray(result) ? result : (result?.content ?? []),
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useGetCategoriesQuery } = categoriesApi;
