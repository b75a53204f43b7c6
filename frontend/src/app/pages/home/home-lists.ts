// The home page's lists, written once: the modules show them (`useCategoryArticles`) and the
// page's loader (`homeLoads`, read by `app/page-loads.ts`) names the same queries before a render.
import { queryOf, type PageQuery } from '../../loader';
import { articlesApi, listSpec } from '../../../features/articles';
import { findByUrl, type Category } from '../../../features/categories';
import { childrenOf, routeName, shownRoute } from '../../routes';
import type { Id } from '../../../lib/id';

/** A list on the home page: a route of the table and how many of its newest articles it shows. */
export interface HomeList {
  route: string;
  size: number;
}

export const HOME_LISTS = {
  /** 公司要闻's first page: the lead, the photo news (those with a cover) and the headlines. */
  news: { route: '/news_center/company_announcement/1', size: 12 },
  notices: { route: '/news_center/notice', size: 8 },
  party: { route: '/party-construction/party-building-activities', size: 5 },
  integrity: { route: '/party-construction/clean-honest', size: 5 },
  media: { route: '/news_center/media_coverage/2', size: 6 },
  /** 宣传视频's page article, shown as a tile. */
  video: { route: '/about/promotional-video', size: 1 },
} as const satisfies Record<string, HomeList>;

/** 信息公开: the route table's list pages under it, five lines each. */
export const DISCLOSURE = '/disclosure';
const DISCLOSURE_SIZE = 5;

/** The 信息公开 lists shown (all of the table's while the tree loads, to keep their room). */
export function disclosureLists(tree: readonly Category[], treeLoading: boolean): (HomeList & { name: string })[] {
  return childrenOf(DISCLOSURE)
    .filter((r) => r.page === 'news' && (treeLoading || shownRoute(r, tree, findByUrl)))
    .map((r) => ({ route: r.path!, size: DISCLOSURE_SIZE, name: routeName(r) }));
}

/**
 * 业务板块: the route table's business pages whose category the CMS has, each asked for its newest
 * article: a section that holds none is no tile (a visitor sent there would find an empty page;
 * the sitemap leaves it out too, and `check-upstream` names it).
 */
export const BUSINESS = '/business';
export function businessTiles(tree: readonly Category[]): (HomeList & { category: Category; name: string })[] {
  return childrenOf(BUSINESS).flatMap((r) => {
    const category = shownRoute(r, tree, findByUrl) ? findByUrl(tree, r.path!) : undefined;
    return category ? [{ route: r.path!, size: 1, category, name: routeName(r) }] : [];
  });
}

/** The first page of `list`'s category, as the home page asks for it. */
export const homeListArgs = (categoryId: Id, list: HomeList) => ({ categoryId, page: 1, size: list.size });

/** What the home page reads beyond the site and the tree: each list whose category the CMS has. */
export function homeLoads(tree: readonly Category[]): PageQuery[] {
  const disclosure = findByUrl(tree, DISCLOSURE) ? disclosureLists(tree, false) : [];
  return [...Object.values(HOME_LISTS), ...disclosure, ...businessTiles(tree)].flatMap((list) => {
    const category = findByUrl(tree, list.route);
    return category ? [queryOf(articlesApi.endpoints.getArticles, listSpec, homeListArgs(category.id, list))] : [];
  });
}
