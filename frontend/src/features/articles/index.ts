export type { ContentPageProps, CategoryRef, PageExtras } from './types';
export { articleSpec, articlesApi, listSpec, useGetArticleQuery, useGetArticlesQuery, usePrefetchArticle, type ArticleSummary } from './api';
export { LIST_PAGE_SIZE, pageFromSearch } from './list-page-slice';
export { ArticleMeta } from './components/article-meta';
export { articleLoads, listArgs, listLoads, pageArticleArgs, singleLoads } from './loads';
