import { hasChannel } from '../components/whistleblowing';
import { findByUrl, type Category } from '../features/categories';
import type { Shortcut } from '../features/search';
import type { Site } from '../features/site';
import { ROUTES, flattenRoutes, shownRoute } from './routes';

/** At most this many pages above the search results. */
const MAX = 5;

/**
 * The app's own service pages and the words visitors look for them by: they have no article in
 * the CMS, so no CMS search finds them (a search for 举报 found nothing, issue 34).
 */
const SERVICES: { path: string; words: string[]; description: string; shown?: (site: Site) => boolean }[] = [
  {
    path: '/whistleblowing',
    words: ['信访', '举报', '检举', '控告', '纪检', '监察', '纪委', '监督', '廉洁', '投诉'],
    description: '举报电话、邮箱、来信地址和网上举报途径，受理范围与举报须知',
    shown: (site) => hasChannel(site.whistleblowing),
  },
  {
    path: '/contact',
    words: ['联系', '电话', '热线', '客服', '地址', '邮箱', '邮编', '媒体', '采访', '部门', '地图', '交通', '来访', '咨询'],
    description: '服务热线、部门联系方式、新闻媒体联系、地址与交通指引',
  },
  {
    path: '/accessibility',
    words: ['无障碍', '关怀', '适老', '老年', '读屏', '大字', '放大', '朗读'],
    description: '关怀版的功能、键盘操作方法和问题反馈方式',
  },
  {
    path: '/privacy',
    words: ['隐私', '个人信息', '日志', 'cookie', '数据'],
    description: '本网站记录哪些信息、如何使用和保存，以及您的权利',
  },
  {
    path: '/legal',
    words: ['法律', '声明', '版权', '转载', '著作权', '免责', '备案'],
    description: '版权、转载、信息准确性、外部链接和网站备案',
  },
  { path: '/sitemap', words: ['地图', '导航', '栏目', '网站'], description: '全部栏目和页面一览' },
];

/**
 * The pages a search for `keyword` should lead to besides the CMS's articles: the service pages
 * above by their words, and any page of the portal whose name the keyword names or is part of
 * (招标 → 招标采购, 领导 → 领导信息), by its CMS name; only pages the portal has.
 */
export function shortcutsFor(keyword: string, tree: readonly Category[], site: Site | undefined): Shortcut[] {
  const word = keyword.trim().toLowerCase();
  if (word.length === 0) return [];
  const out: Shortcut[] = [];
  const seen = new Set<string>();
  const add = (path: string, name: string, description?: string) => {
    if (seen.has(path) || out.length >= MAX) return;
    seen.add(path);
    out.push({ path, name, description });
  };
  // A service page the site lacks (信访举报 without a channel) is no page to lead to.
  const absent = new Set(SERVICES.filter((s) => s.shown && !(site && s.shown(site))).map((s) => s.path));
  const routes = flattenRoutes(ROUTES).filter((r) => !r.sameAs && !r.unlisted && r.page !== 'home' && !absent.has(r.path!));
  for (const service of SERVICES) {
    if (!service.words.some((w) => word.includes(w) || (word.length >= 2 && w.includes(word)))) continue;
    const route = routes.find((r) => r.path === service.path);
    if (route) add(service.path, route.name, service.description);
  }
  for (const route of routes) {
    if (!route.path || !shownRoute(route, tree, findByUrl)) continue;
    const category = findByUrl(tree, route.path);
    const name = category?.name ?? route.name;
    if (word.length >= 2 && (name.includes(word) || word.includes(name))) add(route.path, name, category?.description);
  }
  return out;
}
