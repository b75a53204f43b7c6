export type { ContentPageProps, CategoryRef } from './types';
export { useGetArticlesQuery, type ArticleSummary } from './api';
