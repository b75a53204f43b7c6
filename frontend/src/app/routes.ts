// The route table of spec §2. `page` names the lazy page that renders a route; a group without a
// page shows the placeholder. Display names are the Chinese ones visitors see.

export type PageKey =
  | 'home'
  | 'group'
  | 'single'
  | 'news'
  | 'partyConstruction'
  | 'party'
  | 'partyDetail'
  | 'login'
  | 'sitemap'
  | 'contact';

export interface RouteDef {
  path?: string;
  name: string;
  page?: PageKey;
  routes?: RouteDef[];
  hideInMenu?: boolean;
  /** An access key (spec §6); the route is hidden unless it is true. */
  access?: string;
  icon?: string;
  /** false: rendered without the shared layout (the home entry). */
  layout?: boolean;
}

const single = (path: string, name: string, hideInMenu = false): RouteDef => ({ path, name, page: 'single', hideInMenu });

export const ROUTES: RouteDef[] = [
  { path: '/', name: '首页', page: 'home', layout: false, hideInMenu: true, icon: 'home' },
  {
    path: '/about',
    name: '走进云川',
    page: 'group',
    hideInMenu: true,
    icon: 'home',
    routes: [
      single('/about/company_profile', '公司简介'),
      single('/about/the_belt_and_road_Initiative', '一带一路'),
      single('/about/development_history', '发展历程'),
      single('/about/affiliate_enterprises', '下属企业'),
      single('/about/promotional-video', '宣传视频'),
      single('/about/organizational_structure', '组织架构'),
      single('/about/corporate_vision', '企业愿景'),
      single('/about/honor', '荣誉资质'),
    ],
  },
  {
    path: '/news_center',
    name: '新闻中心',
    page: 'group',
    icon: 'read',
    routes: [
      { path: '/news_center/company_announcement/1', name: '公司要闻', page: 'news' },
      { path: '/news_center/media_coverage/2', name: '媒体报道', page: 'news' },
      { path: '/news_center/notice', name: '通知公告', page: 'news' },
    ],
  },
  {
    path: '/business',
    name: '业务板块',
    page: 'group',
    icon: 'appstore',
    routes: [
      single('/business/China-Europe_train', '中欧班列'),
      single('/business/industrial_park', '融合创新产业园'),
      single('/business/cross_border', '跨境电商集货中心'),
      single('/business/oversea_location', '海外仓'),
      single('/business/card_platform', '集卡平台'),
    ],
  },
  {
    path: '/party-construction',
    name: '党建工会',
    page: 'group',
    icon: 'flag',
    routes: [
      { path: '/party-construction/clean-honest', name: '清正廉洁', page: 'partyConstruction' },
      { path: '/party-construction/trade-union-activities', name: '工会活动', page: 'partyConstruction' },
      { path: '/party-construction/party-building-activities', name: '党建活动', page: 'partyConstruction' },
    ],
  },
  {
    path: '/liaison',
    name: '联络合作',
    page: 'group',
    icon: 'team',
    routes: [single('/liaison/future-outlook', '未来展望'), single('/liaison/friendly-cooperation', '友好合作')],
  },
  {
    path: '/business_overview',
    name: '业务概览',
    page: 'group',
    hideInMenu: true,
    routes: [
      single('/business_overview/operation_mode', '运营模式', true),
      single('/business_overview/cdb_site', '班列站点', true),
      single('/business_overview/operating_route', '运营线路', true),
      single('/business_overview/fuse', '创新创业园', true),
    ],
  },
  single('/development_history', '发展历程', true),
  // The customer-service group of the replaced portal: no path, hidden.
  { name: '客户服务', hideInMenu: true, routes: [] },
  { path: '/party', name: '党建风采', page: 'party', hideInMenu: true },
  { path: '/party/detail', name: '党建风采详情', page: 'partyDetail', hideInMenu: true },
  {
    path: '/social_responsibility',
    name: '社会责任',
    page: 'group',
    icon: 'heart',
    routes: [
      single('/social_responsibility/social_influence', '社会影响', true),
      single('/social_responsibility/friend_cooperation', '友好合作伙伴', true),
    ],
  },
  { path: '/login', name: '登录', page: 'login', hideInMenu: true },
  // The footer's pages (not in spec §2): every page at a glance, and how to reach the company.
  { path: '/sitemap', name: '网站地图', page: 'sitemap', hideInMenu: true },
  { path: '/contact', name: '联系我们', page: 'contact', hideInMenu: true },
];

/** Every route with a path and a page, parents before children. */
export function flattenRoutes(routes: readonly RouteDef[], out: RouteDef[] = []): RouteDef[] {
  for (const route of routes) {
    if (route.path && route.page) out.push(route);
    if (route.routes) flattenRoutes(route.routes, out);
  }
  return out;
}

/** The route whose path is `path`, with its parent group. */
export function routeTrail(path: string, routes: readonly RouteDef[] = ROUTES, parents: RouteDef[] = []): RouteDef[] {
  for (const route of routes) {
    if (route.path === path) return [...parents, route];
    if (route.routes) {
      const found = routeTrail(path, route.routes, [...parents, route]);
      if (found.length) return found;
    }
  }
  return [];
}
