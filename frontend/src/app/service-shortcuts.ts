import { hasChannel } from '../components/whistleblowing';
import { findByUrl, type Category } from '../features/categories';
import type { Shortcut } from '../features/search';
import type { Site } from '../features/site';
import { locale, messages } from '../lib/locale';
import { ROUTES, flattenRoutes, routeName, shownRoute } from './routes';

/** At most this many pages above the search results. */
const MAX = 5;

type ServicePath = '/whistleblowing' | '/contact' | '/accessibility' | '/privacy' | '/legal' | '/sitemap';

/** The app's own service pages (each only where `shown` says the site has it). */
const SERVICES: { path: ServicePath; shown?: (site: Site) => boolean }[] = [
  { path: '/whistleblowing', shown: (site) => hasChannel(site.whistleblowing) },
  { path: '/contact' },
  { path: '/accessibility' },
  { path: '/privacy' },
  { path: '/legal' },
  { path: '/sitemap' },
];

/**
 * The words visitors look for the service pages by, in the page's language (lower case): they have
 * no article in the CMS, so no CMS search finds them (a search for 举报 found nothing, issue 34).
 */
const text = messages<{ minLength: number; pages: Record<ServicePath, { words: string[]; description: string }> }>({
  zh: {
    minLength: 2,
    pages: {
      '/whistleblowing': {
        words: ['信访', '举报', '检举', '控告', '纪检', '监察', '纪委', '监督', '廉洁', '投诉'],
        description: '举报电话、邮箱、来信地址和网上举报途径，受理范围与举报须知',
      },
      '/contact': {
        words: ['联系', '电话', '热线', '客服', '地址', '邮箱', '邮编', '媒体', '采访', '部门', '地图', '交通', '来访', '咨询'],
        description: '服务热线、部门联系方式、新闻媒体联系、地址与交通指引',
      },
      '/accessibility': {
        words: ['无障碍', '关怀', '适老', '老年', '读屏', '大字', '放大', '朗读'],
        description: '关怀版的功能、键盘操作方法和问题反馈方式',
      },
      '/privacy': {
        words: ['隐私', '个人信息', '日志', 'cookie', '数据'],
        description: '本网站记录哪些信息、如何使用和保存，以及您的权利',
      },
      '/legal': {
        words: ['法律', '声明', '版权', '转载', '著作权', '免责', '备案'],
        description: '版权、转载、信息准确性、外部链接和网站备案',
      },
      '/sitemap': { words: ['地图', '导航', '栏目', '网站'], description: '全部栏目和页面一览' },
    },
  },
  en: {
    // A shorter keyword is part of too many English words.
    minLength: 3,
    pages: {
      '/whistleblowing': {
        words: ['report', 'misconduct', 'whistleblow', 'complain', 'corruption', 'discipline', 'integrity', 'inspection', 'supervision', 'fraud'],
        description: 'Telephone, email, postal address and online channels for reporting, what we handle and how to report',
      },
      '/contact': {
        words: ['contact', 'phone', 'hotline', 'customer service', 'address', 'email', 'e-mail', 'postcode', 'media', 'press', 'interview', 'department', 'map', 'direction', 'visit', 'enquir', 'inquir'],
        description: 'Service hotline, department contacts, media enquiries, address and directions',
      },
      '/accessibility': {
        words: ['accessib', 'care mode', 'elderly', 'older', 'screen reader', 'large text', 'text size', 'zoom', 'magnif', 'read aloud'],
        description: 'What accessibility mode offers, using the site with a keyboard, and how to give feedback',
      },
      '/privacy': {
        words: ['privacy', 'personal data', 'personal information', 'cookie', 'data protection'],
        description: 'What this website records, how it is used and kept, and your rights',
      },
      '/legal': {
        words: ['legal', 'copyright', 'reprint', 'reproduc', 'disclaimer', 'liability', 'terms of use', 'icp'],
        description: 'Copyright, reproduction, accuracy of information, external links and website registration',
      },
      '/sitemap': {
        words: ['site map', 'sitemap', 'navigation', 'all pages', 'sections'],
        description: 'All sections and pages at a glance',
      },
    },
  },
});

/**
 * The pages a search for `keyword` should lead to besides the CMS's articles: the service pages
 * above by their words, and any page of the portal whose name the keyword names or is part of
 * (招标 → 招标采购, 领导 → 领导信息), by its CMS name; only pages the portal has.
 */
export function shortcutsFor(keyword: string, tree: readonly Category[], site: Site | undefined): Shortcut[] {
  const word = keyword.trim().toLowerCase();
  if (word.length === 0) return [];
  const t = text();
  // English names are compared in lower case, as the keyword is (a Chinese name as it is).
  const fold = (name: string) => (locale() === 'en' ? name.toLowerCase() : name);
  const out: Shortcut[] = [];
  const seen = new Set<string>();
  const add = (path: string, name: string, description?: string) => {
    if (seen.has(path) || out.length >= MAX) return;
    seen.add(path);
    out.push({ path, name, description });
  };
  // A service page the site lacks (信访举报 without a channel) is no page to lead to.
  const absent = new Set<string>(SERVICES.filter((s) => s.shown && !(site && s.shown(site))).map((s) => s.path));
  const routes = flattenRoutes(ROUTES).filter((r) => !r.sameAs && !r.unlisted && r.page !== 'home' && !absent.has(r.path!));
  for (const service of SERVICES) {
    const { words, description } = t.pages[service.path];
    if (!words.some((w) => word.includes(w) || (word.length >= t.minLength && w.includes(word)))) continue;
    const route = routes.find((r) => r.path === service.path);
    if (route) add(service.path, routeName(route), description);
  }
  for (const route of routes) {
    if (!route.path || !shownRoute(route, tree, findByUrl)) continue;
    const category = findByUrl(tree, route.path);
    const name = category?.name ?? routeName(route);
    const folded = fold(name);
    if (word.length >= t.minLength && (folded.includes(word) || word.includes(folded))) add(route.path, name, category?.description);
  }
  return out;
}
