import table from './route-table.json';
import { crawlablePath, shareUrl } from './crawlable-url';
import { ROUTES, flattenRoutes } from './routes';

const routes = flattenRoutes(ROUTES);
// The gateway's rule (portal_routes.rs): a content page kind, and no sameAs.
const content = routes.filter((r) => table.contentPages.includes(r.page!) && !r.sameAs);
const others = routes.filter((r) => !content.includes(r) && r.page !== 'home');

describe('the crawlable address of a route', () => {
  it('is /portal/site/<route>.html for every content route of the table', () => {
    expect(content.length).toBeGreaterThan(20);
    for (const route of content) expect([route.path, crawlablePath(route.path!)]).toEqual([route.path, `/portal/site${route.path}.html`]);
  });

  it('is none for a route another route shows (sameAs), nor for a page without CMS content', () => {
    expect(others.filter((r) => r.sameAs).length).toBeGreaterThan(0);
    expect(others.map((r) => r.page)).toEqual(expect.arrayContaining(['login', 'sitemap', 'contact', 'accessibility']));
    for (const route of others) expect([route.path, crawlablePath(route.path!)]).toEqual([route.path, null]);
    for (const path of ['/search', '/no/such/page', '/article', '/article/']) expect(crawlablePath(path, '?q=班列')).toBeNull();
  });

  it("is the crawlable home page for the home route, as that page's own canonical link names it", () => {
    expect(crawlablePath('/')).toBe('/portal/site/index.html');
  });

  it("names a list's page past the first, and nothing else of the hash's query", () => {
    expect(crawlablePath('/news_center/notice', '?page=3')).toBe('/portal/site/news_center/notice.html?page=3');
    expect(crawlablePath('/news_center/notice', '?page=1')).toBe('/portal/site/news_center/notice.html');
    expect(crawlablePath('/news_center/notice', '?page=x&utm=1')).toBe('/portal/site/news_center/notice.html');
  });

  it('is the article page for an article, whichever route shows it', () => {
    expect(crawlablePath('/article/2101')).toBe('/portal/site/article/2101.html');
    expect(crawlablePath('/article/2101', '?listPage=2')).toBe('/portal/site/article/2101.html');
    expect(crawlablePath('/party/detail', '?id=9')).toBe('/portal/site/article/9.html');
    expect(crawlablePath('/article/007')).toBe('/portal/site/article/7.html');
    for (const bad of ['/article/0', '/article/abc', '/article/12345678901234567890']) expect(crawlablePath(bad)).toBeNull();
    expect(crawlablePath('/party/detail', '')).toBeNull();
  });

  it('is absolute, on the visitor’s own origin; a route without one shares the app’s address', () => {
    const location = { origin: 'https://www.example.cn', href: 'https://www.example.cn/portal/#/search?q=%E7%8F%AD%E5%88%97' };
    expect(shareUrl('/article/2101', '', location)).toBe('https://www.example.cn/portal/site/article/2101.html');
    expect(shareUrl('/search', '?q=班列', location)).toBe(location.href);
  });
});
