import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { adoptHashRoute, hashRouteOf, pageHref, routeOfUrl } from './location';

const ORIGIN = 'https://www.example.com';
const route = (address: string, origin = ORIGIN) => routeOfUrl(new URL(address, ORIGIN), origin);

/** The inline head script of public/index.html, which runs before anything is painted. */
const html = readFileSync(join(__dirname, '../../public/index.html'), 'utf8');
const inline = /<script>([^<]*)<\/script>/.exec(html)![1];

/** Runs the head script at an address, its `location` a stand-in that records where it is sent. */
function runHeadScript(pathname: string, hash: string): jest.Mock {
  const replace = jest.fn();
  new Function('location', inline)({ pathname, hash, search: '', replace });
  return replace;
}

afterEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('a page’s address', () => {
  it('is the route under /portal, with its query', () => {
    expect(pageHref('/news_center/notice')).toBe('/portal/news_center/notice');
    expect(pageHref('article/2101')).toBe('/portal/article/2101');
    expect(route('/portal/')).toBe('/');
    expect(route('/portal/news_center/notice')).toBe('/news_center/notice');
    expect(route('/portal/news_center/notice?page=2')).toBe('/news_center/notice?page=2');
    expect(route('/portal/article/2101')).toBe('/article/2101');
    expect(route('/portal/search?q=%E7%8F%AD%E5%88%97')).toBe('/search?q=%E7%8F%AD%E5%88%97');
    expect(route(`${ORIGIN}/portal/party/detail?id=9`)).toBe('/party/detail?id=9');
  });

  it('is no page for the API, the built files, uploads, feeds, the sitemap and other files', () => {
    for (const address of [
      '/portal/api/article/list?categoryId=23',
      '/portal/api/files/a.pdf',
      '/portal/assets/main.0123456789ab.js',
      '/portal/files/covers/train.jpg',
      '/portal/feed/23.xml',
      '/portal/feed',
      '/portal/admin/',
      '/portal/sitemap.xml',
      '/portal/robots.txt',
      '/portal/favicon.ico',
      '/portal/site/article/6.html',
    ]) {
      expect([address, route(address)]).toEqual([address, null]);
    }
  });

  it('is no page on another origin or outside /portal', () => {
    expect(route('https://example.org/portal/news_center')).toBeNull();
    expect(route('http://www.example.com/portal/news_center')).toBeNull();
    expect(route('/portal/news_center', 'https://other.example.com')).toBeNull();
    expect(route('/news_center/notice')).toBeNull();
    expect(route('/portalx/news_center')).toBeNull();
    expect(route('/')).toBeNull();
  });

  it('takes a spec hash route as the page it names, on /portal/ and on any page', () => {
    expect(route('/portal/#/article/2101')).toBe('/article/2101');
    expect(route('/portal#/news_center/notice?page=2')).toBe('/news_center/notice?page=2');
    // A `#/about` link in an article's body resolves against the article's address.
    expect(route('/portal/article/5#/about')).toBe('/about');
    // Any other fragment is a place on the page, not a route.
    expect(route('/portal/#main-content')).toBe('/');
    expect(route('/portal#main-content')).toBeNull();
    expect(route('/portal/api/files/a.pdf#/about')).toBeNull();
    expect(hashRouteOf('#/news_center/notice?page=2')).toBe('/news_center/notice?page=2');
    expect(hashRouteOf('#site-nav')).toBeNull();
    expect(hashRouteOf('')).toBeNull();
  });
});

describe('a spec hash route in the address bar', () => {
  it('is sent to its real URL by index.html’s head script, before anything is painted', () => {
    expect(runHeadScript('/portal/', '#/article/2101')).toHaveBeenCalledWith('/portal/article/2101');
    expect(runHeadScript('/portal/', '#/news_center/notice?page=2')).toHaveBeenCalledWith('/portal/news_center/notice?page=2');
    for (const hash of ['', '#', '#main-content', '#site-nav']) {
      expect([hash, runHeadScript('/portal/news_center', hash).mock.calls]).toEqual([hash, []]);
    }
  });

  it('met later in the page, becomes its real URL, in place of the hash address in history', () => {
    window.history.replaceState(null, '', '/portal/article/5');
    window.location.hash = '#/about';
    const entries = window.history.length;
    adoptHashRoute();
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/portal/about');
    expect(window.history.length).toBe(entries);
    window.location.hash = '#main-content';
    adoptHashRoute();
    expect(`${window.location.pathname}${window.location.hash}`).toBe('/portal/about#main-content');
  });
});
