// What a group's landing page summarises (issue 47: the landing pages were 48 to 287 characters of
// tiles), written once: the page's cards show it and its loader (`groupLoads`, read by
// `app/page-loads.ts`) names the same queries before a render. A list's card reads the list's first
// page and a page's card its first entry, the very queries those pages make, so the landing page
// and the pages it leads to share their cache entries (and a click opens with its data in place).
import { queryOf, type PageQuery } from '../loader';
import { articlesApi, listArgs, listSpec, pageArticleArgs } from '../../features/articles';
import { findByUrl, type Category } from '../../features/categories';
import { ROUTES, routeTrail, shownRoute, type RouteDef } from '../routes';

export interface GroupSection {
  route: RouteDef & { path: string };
  category?: Category;
}

/** The sections of the group at `path` the CMS has (the menu's hidden ones too; duplicates not). */
export function groupSections(path: string, tree: readonly Category[]): GroupSection[] {
  const group = routeTrail(path, ROUTES).at(-1);
  return (group?.routes ?? [])
    .filter((r): r is RouteDef & { path: string } => Boolean(r.path) && !r.sameAs && shownRoute(r, tree, findByUrl))
    .map((route) => ({ route, category: findByUrl(tree, route.path) }));
}

/** What a section's card reads: a list's first page, a page's first entry; a group's nothing. */
export function sectionArgs(category: Category | undefined) {
  if (!category || category.type === 'group') return undefined;
  return category.type === 'list' ? listArgs(category.id, 1) : pageArticleArgs(category.id);
}

/** What a group's landing page reads beyond the site and the tree. */
export function groupLoads(path: string, tree: readonly Category[]): PageQuery[] {
  return groupSections(path, tree).flatMap(({ category }) => {
    const args = sectionArgs(category);
    return args ? [queryOf(articlesApi.endpoints.getArticles, listSpec, args)] : [];
  });
}
