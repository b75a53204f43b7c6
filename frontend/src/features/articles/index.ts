export type { ContentPageProps, CategoryRef, PageExtras } from './types';
export { useGetArticleQuery, useGetArticlesQuery, usePrefetchArticle, type ArticleSummary } from './api';
