import { api } from '../../app/api';

export interface ArticleSummary {
  id: number;
  categoryId: number;
  title: string;
  summary?: string;
  cover?: string;
  author?: string;
  source?: string;
  publishTime?: string;
  views?: number;
}

export interface Attachment {
  name: string;
  url: string;
  size?: number;
}

export interface ArticleLink {
  id: number;
  title: string;
}

export interface Article extends ArticleSummary {
  /** HTML, sanitised by the gateway. */
  content?: string;
  attachments?: Attachment[];
  /** A video to play (the promotional video page). */
  video?: string;
  prev?: ArticleLink | null;
  next?: ArticleLink | null;
}

export interface ArticlePage {
  content: ArticleSummary[];
  totalElements: number;
  totalPages: number;
  page: number;
  size: number;
}

export interface ListArgs {
  categoryId: number;
  page?: number;
  size?: number;
}

export const articlesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getArticles: build.query<ArticlePage, ListArgs>({
      query: ({ categoryId, page = 1, size = 10 }) => ({
        url: '/article/list',
        params: { categoryId, page, size },
      }),
    }),
    getArticle: build.query<Article, number>({
      query: (id) => ({ url: '/article/detail', params: { id } }),
    }),
  }),
});

export const { useGetArticlesQuery, useGetArticleQuery } = articlesApi;
