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
  // The drawn page's request stays unanswered here (the next describe answers it).
  Object.assign(window, { fetch: jest.fn(() => new Promise(() => undefined)) });
  new Function(inline)();
  add.mockRestore();
  document.body.innerHTML = `<script type="application/json" id="portal-boot">${JSON.stringify({ '/portal/api/category/list': TREE })}</script>`;
  // This run's listeners only (each run of the script adds its own).
  for (const [type, listener] of added) if (type === 'DOMContentLoaded') (listener as () => void)();
  // A stylesheet of a page the gateway draws is applied, not preloaded: the drawn page needs it.
  return [...document.head.querySelectorAll('link[rel=preload], link[rel=stylesheet]')].map((l) => {
    const link = l as HTMLLinkElement;
    return `${link.rel === 'stylesheet' ? 'stylesheet' : link.as} ${link.getAttribute('href')}${link.crossOrigin ? ` ${link.crossOrigin}` : ''}`;
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
      'stylesheet /portal/assets/page-article.css',
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

/**
 * The page the gateway drew for the route (`/portal/drawn/…`) is put in place of the drawn home
 * page once it and the route's stylesheet are in: the header stays, the home part goes, and the
 * app's scripts are asked for only after that (here, no largest-paint support: a frame later).
 */
describe('a deep link paints the page the gateway drew', () => {
  const DRAWN = '<main id="main-content" tabindex="-1" class="container site-main" data-drawn=""><article class="content-page article"><h1>云川—汉堡中欧班列累计开行突破3000列</h1><button type="button" aria-label="正文字号大">大</button><button type="button">打印本页</button></article></main>';
  const HOME =
    '<div id="root"><div class="home"><a class="skip-link" href="#main-content">跳到主要内容</a><header class="site-header"><form role="search" class="search-box"><input type="search" name="q"><button type="submit">搜索</button></form>菜单</header><main id="main-content" class="boot-home">头条</main></div></div>';

  let listeners: [string, EventListenerOrEventListenerObject][] = [];
  function openAt(hash: string, answer: { ok: boolean; text: string } | 'fails', { token = false } = {}) {
    document.head.innerHTML = `<script type="application/json" id="portal-deep-link">${JSON.stringify(MAP)}</script><meta name="app-script" content="/portal/assets/main.js">`;
    document.body.innerHTML = '';
    window.localStorage.clear();
    if (token) window.localStorage.setItem('systemToken', 'visitor-token');
    window.history.replaceState(null, '', `/portal/${hash}`);
    const fetch = jest.fn(() => (answer === 'fails' ? Promise.reject(new TypeError('offline')) : Promise.resolve({ ok: answer.ok, text: () => Promise.resolve(answer.text) })));
    Object.assign(window, { fetch });
    const added: [string, EventListenerOrEventListenerObject][] = [];
    const add = jest.spyOn(document, 'addEventListener').mockImplementation((type: string, listener: EventListenerOrEventListenerObject) => {
      added.push([type, listener]);
    });
    new Function(inline)();
    add.mockRestore();
    listeners = added;
    document.body.innerHTML = `${HOME}<script type="application/json" id="portal-boot">${JSON.stringify({ '/portal/api/category/list': TREE })}</script>`;
    for (const [type, listener] of added) if (type === 'DOMContentLoaded') (listener as () => void)();
    // jsdom loads no stylesheet: each says it has.
    document.head.querySelectorAll('link[rel=stylesheet]').forEach((l) => l.dispatchEvent(new Event('load')));
    return fetch;
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  const scripts = () => [...document.head.querySelectorAll('script[src]')].map((s) => s.getAttribute('src'));

  afterEach(async () => {
    // This test's runs finish here, not in the next test's page.
    await settle();
    delete (window as { fetch?: unknown }).fetch;
    window.localStorage.clear();
    document.documentElement.removeAttribute('data-deep');
    document.documentElement.removeAttribute('data-typed');
  });

  it('an article: asked for beside its chunks, its stylesheet applied, put in place of the home part, then the app', async () => {
    const fetch = openAt('#/article/2101', { ok: true, text: DRAWN });
    expect(fetch).toHaveBeenCalledWith('/portal/drawn/article/2101');
    expect([...document.head.querySelectorAll('link[rel=stylesheet]')].map((l) => l.getAttribute('href'))).toEqual(['/portal/assets/page-article.css']);
    await settle();
    const root = document.getElementById('root')!;
    expect(root.querySelector('.home')).toBeNull();
    expect([...root.children].map((e) => e.tagName.toLowerCase())).toEqual(['a', 'header', 'main']);
    expect(root.querySelector('main[data-drawn] h1')?.textContent).toBe('云川—汉堡中欧班列累计开行突破3000列');
    expect(scripts()).toEqual(['/portal/assets/main.js']);
  });

  it('a press on a drawn control is noted for the app (drawn-tap.tsx presses it again); one on the app’s own is not', async () => {
    openAt('#/article/2101', { ok: true, text: DRAWN });
    await settle();
    const press = (target: Element) => {
      for (const [type, listener] of listeners) if (type === 'click') (listener as EventListener)({ target } as unknown as Event);
    };
    press(document.querySelector('main[data-drawn] [aria-label=正文字号大]')!);
    expect(document.documentElement.getAttribute('data-tap')).toBe('正文字号大');
    press(document.querySelector('main[data-drawn] button:not([aria-label])')!);
    expect(document.documentElement.getAttribute('data-tap')).toBe('打印本页');
    document.documentElement.removeAttribute('data-tap');
    // The app's page in place of the drawn one: its controls work by themselves.
    document.querySelector('main[data-drawn]')!.removeAttribute('data-drawn');
    press(document.querySelector('main [aria-label=正文字号大]')!);
    expect(document.documentElement.hasAttribute('data-tap')).toBe(false);
  });

  it('a keyword typed into the drawn search box is noted for the app; one submitted there goes to the results route', async () => {
    openAt('#/article/2101', { ok: true, text: DRAWN });
    await settle();
    const fire = (type: string, event: object) => {
      for (const [t, listener] of listeners) if (t === type) (listener as EventListener)(event as Event);
    };
    const input = document.querySelector<HTMLInputElement>('header input[name=q]')!;
    input.value = '班列';
    fire('input', { target: input });
    expect(document.documentElement.getAttribute('data-typed')).toBe('班列');
    const preventDefault = jest.fn();
    input.value = '  中欧班列 ';
    fire('submit', { target: input.form, preventDefault });
    expect(preventDefault).toHaveBeenCalled();
    expect(window.location.hash).toBe(`#/search?q=${encodeURIComponent('中欧班列')}`);
    expect(document.documentElement.hasAttribute('data-typed')).toBe(false);
    // Nothing typed: nothing happens (the app's box says why once it is there).
    input.value = ' ';
    window.history.replaceState(null, '', '/portal/#/article/2101');
    fire('submit', { target: input.form, preventDefault: jest.fn() });
    expect(window.location.hash).toBe('#/article/2101');
  });

  it('a list asks for its page (`?page=` kept); a single page its own; an unknown route or a visitor with a token ask for none', () => {
    expect(openAt('#/news_center/notice?page=3', { ok: true, text: DRAWN })).toHaveBeenCalledWith('/portal/drawn/news/news_center/notice?page=3');
    expect(openAt('#/news_center/notice', { ok: true, text: DRAWN })).toHaveBeenCalledWith('/portal/drawn/news/news_center/notice');
    expect(openAt('#/about/company_profile', { ok: true, text: DRAWN })).toHaveBeenCalledWith('/portal/drawn/single/about/company_profile');
    expect(openAt('#/no/such/page', { ok: true, text: DRAWN })).not.toHaveBeenCalled();
    expect(openAt('#/article/2101', { ok: true, text: DRAWN }, { token: true })).not.toHaveBeenCalled();
  });

  it('nothing drawn when the gateway draws nothing or cannot be reached: the home part stays hidden and the app starts', async () => {
    for (const answer of [{ ok: false, text: '' }, 'fails' as const]) {
      await settle();
      openAt('#/article/2101', answer);
      await settle();
      expect(document.querySelector('main.boot-home')).not.toBeNull();
      expect(document.querySelector('main[data-drawn]')).toBeNull();
      expect(scripts()).toEqual(['/portal/assets/main.js']);
    }
  });
});
