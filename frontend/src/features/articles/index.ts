export type { ContentPageProps, CategoryRef, PageExtras } from './types';
export { articlesApi, useGetArticleQuery, useGetArticlesQuery, usePrefetchArticle, type ArticleSummary } from './api';
