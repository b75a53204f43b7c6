import { useGetArticlesQuery, type ArticleSummary } from '../../../features/articles';
import { findByUrl, useGetCategoriesQuery, type Category } from '../../../features/categories';
import { homeListArgs, type HomeList } from './home-lists';

export interface CategoryArticles {
  /** The CMS's category at the route; undefined when it has none (the module then hides). */
  category?: Category;
  articles: ArticleSummary[];
  /** The tree or the list is still on its way (the module keeps its room). */
  loading: boolean;
}

/** The first page of the articles of `list`'s category, newest first (the CMS's order). */
export function useCategoryArticles(list: HomeList): CategoryArticles {
  const { data: tree = [], isLoading: treeLoading } = useGetCategoriesQuery();
  const category = findByUrl(tree, list.route);
  const { data, isLoading } = useGetArticlesQuery(homeListArgs(category?.id ?? 0, list), { skip: !category });
  return { category, articles: data?.content ?? [], loading: treeLoading || (!!category && isLoading) };
}

export { articleHref } from '../../../lib/page-href';
export const dayOf = (a: ArticleSummary) => a.publishTime?.slice(0, 10) ?? '';
