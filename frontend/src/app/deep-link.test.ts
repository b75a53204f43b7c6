// index.html's head script, on a deep link: the route's chunks and its first API answer are asked
// for while the app's scripts load (the map is webpack's FirstPaintAssets, the tree the gateway's
// boot block), each URL exactly as the app will ask it, so the app's own request finds it on its way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const html = readFileSync(join(__dirname, '../../public/index.html'), 'utf8');
const inline = /<script>([^<]*)<\/script>/.exec(html)![1];

const MAP = {
  k: {
    article: ['/portal/assets/90.js', '/portal/assets/page-article.css', '/portal/assets/page-article.js'],
    news: ['/portal/assets/page-news.js'],
    single: ['/portal/assets/page-single.js'],
  },
  r: { '/news_center/notice': 'news', '/about/company_profile': 'single', '/disclosure/overview': 'single' },
};
const TREE = {
  code: 200,
  msg: '成功',
  result: {
    content: [
      { id: 1, url: '/about', type: 'group', subCategory: [{ id: 11, url: '/about/company_profile', type: 'page' }] },
      { id: 2, url: '/news_center', type: 'group', subCategory: [{ id: 23, url: '/news_center/notice', type: 'list' }] },
      { id: 8, url: '/disclosure', type: 'group', subCategory: [{ id: 81, url: '/disclosure/overview', type: 'list' }] },
    ],
  },
};

/** Runs the head script at `hash` on a page holding the map and the tree; returns what it preloads. */
function preloadsAt(hash: string, { token = false, map = true } = {}): string[] {
  // As in index.html: the map in the head before the script, the boot block in the body after it.
  document.head.innerHTML = map ? `<script type="application/json" id="portal-deep-link">${JSON.stringify(MAP)}</script>` : '';
  document.body.innerHTML = '';
  window.localStorage.clear();
  if (token) window.localStorage.setItem('systemToken', 'visitor-token');
  window.history.replaceState(null, '', `/portal/${hash}`);
  const added: [string, EventListenerOrEventListenerObject][] = [];
  const add = jest.spyOn(document, 'addEventListener').mockImplementation((type: string, listener: EventListenerOrEventListenerObject) => {
    added.push([type, listener]);
  });
  new Function(inline)();
  add.mockRestore();
  document.body.innerHTML = `<script type="application/json" id="portal-boot">${JSON.stringify({ '/portal/api/category/list': TREE })}</script>`;
  // This run's listeners only (each run of the script adds its own).
  for (const [type, listener] of added) if (type === 'DOMContentLoaded') (listener as () => void)();
  return [...document.head.querySelectorAll('link[rel=preload]')].map((l) => {
    const link = l as HTMLLinkElement;
    return `${link.as} ${link.getAttribute('href')}${link.crossOrigin ? ` ${link.crossOrigin}` : ''}`;
  });
}

describe('a deep link preloads its page', () => {
  afterEach(() => {
    jest.useRealTimers();
    window.localStorage.clear();
    document.documentElement.removeAttribute('data-deep');
  });

  it('an article: its chunks and its detail, as the app asks it', () => {
    jest.useFakeTimers();
    expect(preloadsAt('#/article/2101')).toEqual([
      'script /portal/assets/90.js',
      'style /portal/assets/page-article.css',
      'script /portal/assets/page-article.js',
      'fetch /portal/api/article/detail?id=2101 use-credentials',
    ]);
  });

  it('a list: its page of the category the tree names, 10 a page as the app (`?page=` honoured)', () => {
    jest.useFakeTimers();
    expect(preloadsAt('#/news_center/notice')).toContain('fetch /portal/api/article/list?categoryId=23&page=1&size=10 use-credentials');
    expect(preloadsAt('#/news_center/notice?page=3')).toContain('fetch /portal/api/article/list?categoryId=23&page=3&size=10 use-credentials');
    // A single page asks for its one article; one whose category is a list shows the list.
    expect(preloadsAt('#/about/company_profile')).toEqual([
      'script /portal/assets/page-single.js',
      'fetch /portal/api/article/list?categoryId=11&page=1&size=1 use-credentials',
    ]);
    expect(preloadsAt('#/disclosure/overview')).toContain('fetch /portal/api/article/list?categoryId=81&page=1&size=10 use-credentials');
  });

  it('nothing for the home page, an unknown route, a bad id or a page without the map; no data for a visitor with a token', () => {
    jest.useFakeTimers();
    expect(preloadsAt('#/')).toEqual([]);
    expect(preloadsAt('#/no/such/page')).toEqual([]);
    expect(preloadsAt('#/article/0')).toEqual([]);
    expect(preloadsAt('#/article/2101', { map: false })).toEqual([]);
    expect(preloadsAt('#/article/2101', { token: true }).some((p) => p.startsWith('fetch'))).toBe(false);
  });
});
