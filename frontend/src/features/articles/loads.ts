// What the article pages read, written once: the components ask with these arguments, and the
// page loader (`app/page-loads.ts`) names the same queries before a render, so the gateway renders
// an article page once, with its data in place (`app/loader.ts`).
import { queryOf, type PageQuery, type Reader } from '../../app/loader';
import { articleSpec, articlesApi, listSpec, type ListArgs } from './api';
import { LIST_PAGE_SIZE, pageFromSearch } from './list-page-slice';
import type { CategoryRef } from './types';
import type { Id } from '../../lib/id';

const { getArticle, getArticles } = articlesApi.endpoints;

/** A page of a list category, as its list page asks for it. */
export const listArgs = (categoryId: Id, page: number): ListArgs => ({ categoryId, page, size: LIST_PAGE_SIZE });

/** A single-page category shows its first article: the list's first entry, then its detail. */
export const pageArticleArgs = (categoryId: Id): ListArgs => ({ categoryId, page: 1, size: 1 });

/** 相关文章: the first page of the article's list, as the list asks for it (one cache entry). */
export const relatedArgs = (categoryId: Id): ListArgs => listArgs(categoryId, 1);

/** A list page (`?page=2` in `search`, the first page otherwise). */
export function listLoads(category: CategoryRef | undefined, search: string): PageQuery[] {
  return category ? [queryOf(getArticles, listSpec, listArgs(category.id, pageFromSearch(search) ?? 1))] : [];
}

/** An article by id, and once it is in, its related list. */
export function articleLoads(id: Id | null, read: Reader): PageQuery[] {
  if (id === null) return [];
  const article = read(getArticle, id);
  return [queryOf(getArticle, articleSpec, id), ...(article ? [queryOf(getArticles, listSpec, relatedArgs(article.categoryId))] : [])];
}

/** A single-page category: its first article's entry, then that article (a list category is its list). */
export function singleLoads(category: CategoryRef | undefined, search: string, read: Reader): PageQuery[] {
  if (!category) return [];
  if (category.type === 'list') return listLoads(category, search);
  const first = pageArticleArgs(category.id);
  const id = read(getArticles, first)?.content[0]?.id;
  return [queryOf(getArticles, listSpec, first), ...(id === undefined ? [] : [queryOf(getArticle, articleSpec, id)])];
}
