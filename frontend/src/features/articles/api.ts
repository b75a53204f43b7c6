import { useEffect } from 'react';

import { api } from '../../app/api';
import type { QuerySpec } from '../../app/loader';
import type { Article as ArticleShape, ArticlePage as PageShape, Link } from '../../lib/api-types';
import type { Id } from '../../lib/id';

// The shapes are the gateway's (generated from its model): an article in a list is one without
// what only a detail carries.
export type { Attachment } from '../../lib/api-types';
export type ArticleLink = Link;
export type Article = ArticleShape;
export type ArticleSummary = Omit<ArticleShape, 'content' | 'attachments' | 'video' | 'prev' | 'next'>;
export interface ArticlePage extends Omit<PageShape, 'content'> {
  content: ArticleSummary[];
}

export interface ListArgs {
  categoryId: Id;
  page?: number;
  size?: number;
}

/** The requests of a list and of an article (`app/loader.ts`). */
export const listSpec: QuerySpec<ListArgs, ArticlePage> = {
  request: ({ categoryId, page = 1, size = 10 }) => ({ url: '/article/list', params: { categoryId, page, size } }),
};
export const articleSpec: QuerySpec<Id, Article> = {
  // A missing article is its page's to say (文章不存在), not a notice's over the header too.
  request: (id) => ({ url: '/article/detail', params: { id }, quietOn: [404] }),
};

export const articlesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getArticles: build.query<ArticlePage, ListArgs>({ query: listSpec.request }),
    getArticle: build.query<Article, Id>({ query: articleSpec.request }),
  }),
});

export const { useGetArticlesQuery, useGetArticleQuery } = articlesApi;

/**
 * Asks for an article as soon as its route is known, while the article page's own script is still
 * loading; the page's query then finds it on its way (Lighthouse mobile: the detail call used to
 * start only after that script, ~300 ms later on slow 4G).
 */
export function usePrefetchArticle(id: Id | null) {
  const prefetch = articlesApi.usePrefetch('getArticle');
  useEffect(() => {
    if (id !== null) prefetch(id);
  }, [id, prefetch]);
}
