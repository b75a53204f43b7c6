export type { ContentPageProps, CategoryRef } from './types';
export { useGetArticlesQuery, usePrefetchArticle, type ArticleSummary } from './api';
