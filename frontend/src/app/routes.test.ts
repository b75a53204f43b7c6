import table from './route-table.json';
import { PAGE_KEYS, ROUTES, childrenOf, flattenRoutes, routeTrail, type RouteDef } from './routes';

interface RawRoute {
  path?: string;
  name: string;
  page?: string;
  routes?: RawRoute[];
}

/** Every route of the JSON, walked here rather than by `flattenRoutes`, with its place. */
function walk(routes: readonly RawRoute[], at = 'routes', out: { at: string; route: RawRoute }[] = []) {
  routes.forEach((route, i) => {
    const here = `${at}[${i}] ${route.path ?? `(${route.name})`}`;
    out.push({ at: here, route });
    if (route.routes) walk(route.routes, `${here} › routes`, out);
  });
  return out;
}

const raw = walk(table.routes as RawRoute[]);
const known = new Set<string>(PAGE_KEYS);

describe('the route table (route-table.json)', () => {
  it('names only page kinds the router knows', () => {
    const unknown = raw
      .filter(({ route }) => route.page !== undefined && !known.has(route.page))
      .map(({ at, route }) => `${at}: page "${route.page}"`);
    expect(unknown).toEqual([]);
    expect(table.contentPages.filter((kind) => !known.has(kind))).toEqual([]);
    expect(table.listPages.filter((kind) => !table.contentPages.includes(kind))).toEqual([]);
  });

  it('gives each route a name and each path once, starting with /', () => {
    expect(raw.filter(({ route }) => !route.name).map(({ at }) => at)).toEqual([]);
    const paths = raw.flatMap(({ route }) => (route.path === undefined ? [] : [route.path]));
    expect(paths.filter((p) => !p.startsWith('/'))).toEqual([]);
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
  });

  it('nests a child below its parent’s path', () => {
    const astray = raw.flatMap(({ at, route }) =>
      (route.routes ?? [])
        .filter((c) => route.path && c.path && !c.path.startsWith(`${route.path}/`))
        .map((c) => `${at}: ${c.path}`),
    );
    expect(astray).toEqual([]);
  });

  it('is what ROUTES holds, and flattenRoutes covers every route of it with a page', () => {
    expect(ROUTES).toBe(table.routes);
    const withPage = raw.filter(({ route }) => route.path && route.page).map(({ route }) => route.path);
    const flat = flattenRoutes(ROUTES).map((r) => r.path);
    expect(withPage.filter((p) => !flat.includes(p))).toEqual([]);
    expect(flat).toEqual(withPage);
  });

  it('gives the home page its news tabs and business tiles from the table', () => {
    expect(childrenOf('/news_center').map((r: RouteDef) => r.name)).toEqual(['公司要闻', '媒体报道', '通知公告']);
    expect(childrenOf('/business')).toHaveLength(5);
    expect(childrenOf('/no/such/group')).toEqual([]);
    expect(routeTrail('/news_center/notice').map((r) => r.name)).toEqual(['新闻中心', '通知公告']);
  });
});
