// The app rendered as the gateway renders it, then hydrated as the browser hydrates it: the same
// markup on both sides, so React adopts the server's DOM without a mismatch.
//
// The server side is the real server entry (`server.tsx`'s `portalRender`, the bundle the gateway
// runs) in a module registry of its own where `onServer` is true, as in the gateway's engine: it
// asks for the API answers it needs, round after round, and this test answers like the gateway,
// from a small CMS. The browser side is what `index.tsx` does with the page: the store filled
// from the page's state (`HYDRATE`), `hydrateRoot` of `<App/>` at the page's address.
import { act } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';

import { HYDRATE } from './app/api';
import { App } from './app/app';
import { resetTitle } from './app/page-title';
import { prefetchPage } from './app/page-loads';
import { makeStore } from './app/store';
import type { Article, Category, Site } from './lib/api-types';
import type { HeldAnswer } from './lib/request';

// ---- The CMS behind the gateway: a slice of the reference content ----

const SITE: Site = {
  search: true,
  companyName: '云川陆港国际物流集团有限公司',
  shortName: '云川陆港',
  loginUrl: 'https://sso.example.com/login',
  address: '云川市陆港新区枢纽大道 88 号',
  phone: '0874-6288 5200',
  email: 'service@yclandport.com.cn',
  postcode: '600000',
  icpNumber: '云ICP备20260001号-1',
  icpUrl: 'https://beian.miit.gov.cn/',
  copyright: '云川陆港国际物流集团有限公司 版权所有',
  paginationLocale: 'zh-CN',
  lang: 'zh',
  languages: [],
  publicUrl: 'https://www.example.com',
  policeFilingNumber: '',
  policeFilingUrl: '',
  mourning: false,
  hotline: '400-687-5200',
  bookingUrl: 'https://ebooking.example.com/',
  whistleblowing: { phone: '0874-6288 5312', email: '', address: '', hours: '', website: '' },
  figures: [{ value: '3000+', label: '中欧班列累计开行（列）' }],
  partners: [{ name: '汉堡港', url: 'https://www.hafen-hamburg.de/' }],
  services: [
    { name: '货物追踪', icon: 'track', url: 'https://track.example.com/', description: '凭箱号查询在途位置' },
    { name: '班列线路与时刻', icon: 'timetable', url: '/services/timetable', description: '' },
  ],
  links: [{ name: '国务院国有资产监督管理委员会', url: 'http://www.sasac.gov.cn/' }],
  wechat: { name: '云川陆港', account: 'yclandport', qrImage: '/portal/api/files/site/wechat-qr.svg' },
  contact: { hours: '工作日 8:30—17:30', departments: [{ name: '客户服务中心', duties: '班列订舱', phone: '400-687-5200', email: '' }], mapImage: '', mapAlt: '', directions: ['地铁 3 号线陆港新区站'] },
};

const category = (id: number, parentId: number, name: string, url: string, type: string, subCategory: Category[] = []): Category => ({
  id,
  parentId,
  name,
  url,
  sort: id,
  type,
  description: `${name}栏目`,
  subCategory,
});
const TREE: Category[] = [
  category(1, 0, '走进我们', '/about', 'group', [category(11, 1, '公司简介', '/about/company_profile', 'page')]),
  category(2, 0, '新闻中心', '/news_center', 'group', [
    category(21, 2, '公司要闻', '/news_center/company_announcement/1', 'list'),
    category(22, 2, '媒体报道', '/news_center/media_coverage/2', 'list'),
    category(23, 2, '通知公告', '/news_center/notice', 'list'),
  ]),
  category(3, 0, '业务板块', '/business', 'group', [category(31, 3, '中欧班列', '/business/China-Europe_train', 'page')]),
  category(4, 0, '党建工会', '/party-construction', 'group', [
    category(41, 4, '清正廉洁', '/party-construction/clean-honest', 'list'),
    category(43, 4, '党建活动', '/party-construction/party-building-activities', 'list'),
  ]),
  category(110, 0, '专题专栏', '/topics', 'group', [category(111, 110, '陆港十年', '/topics/decade', 'list')]),
];

const ARTICLES: Article[] = [
  {
    id: 2101,
    categoryId: 21,
    title: '云川—汉堡中欧班列累计开行突破3000列',
    publishTime: '2026-11-12 09:30:00',
    summary: '11月12日，X8032次班列从云川国际陆港驶出，云川—汉堡线路累计开行突破3000列。',
    cover: '/portal/api/files/covers/train.svg',
    lead: true,
  },
  { id: 2102, categoryId: 21, title: '集团与阿拉木图陆港签署战略合作协议', publishTime: '2026-10-28 15:10:00', cover: '/portal/api/files/covers/signing-almaty.svg' },
  { id: 2103, categoryId: 21, title: '云川国际陆港获评国家物流枢纽建设示范单位', publishTime: '2026-10-09 10:00:00' },
  { id: 2201, categoryId: 22, title: '内陆城市何以“通江达海”——记云川国际陆港', publishTime: '2026-11-15 07:00:00' },
  {
    id: 2301,
    categoryId: 23,
    title: '关于2027年元旦期间班列运行安排的通知',
    publishTime: '2026-11-18 10:00:00',
    author: '运营管理部',
    source: '集团办公室',
    summary: '元旦期间国际班列按计划正常开行，国内班列部分车次调整。',
    content:
      '<p>各客户单位：</p><p>2027年元旦期间，云川—汉堡、云川—布达佩斯国际班列按原计划正常开行；国内班列部分车次将合并开行。</p>' +
      '<table><caption>元旦期间班列安排</caption><tr><th>线路</th><th>安排</th></tr><tr><td>云川—汉堡</td><td>正常开行</td></tr></table>' +
      '<p>详见<a href="/portal/article/2302">招标公告</a>。特此通知。</p>',
    attachments: [{ name: '元旦期间班列时刻表.pdf', url: '/portal/api/files/attachments/timetable.pdf', size: 3202 }],
    next: { id: 2302, title: '场站智能闸口改造工程招标公告' },
  },
  { id: 2302, categoryId: 23, title: '场站智能闸口改造工程招标公告', publishTime: '2026-11-10 09:00:00' },
  { id: 2303, categoryId: 23, title: '2026年下半年社会招聘公告', publishTime: '2026-10-30 15:00:00' },
  { id: 4101, categoryId: 41, title: '集团召开2026年党风廉政建设警示教育大会', publishTime: '2026-10-22 10:00:00' },
  {
    id: 1101,
    categoryId: 11,
    title: '公司简介',
    publishTime: '2026-01-05 09:00:00',
    content: '<p>云川陆港国际物流集团成立于2016年，经营中欧班列、国际陆港与跨境物流。</p>',
  },
  { id: 4301, categoryId: 43, title: '集团党委开展“重温入党誓词”主题党日活动', publishTime: '2026-07-01 09:00:00' },
];

/**
 * The gateway's index answering 班列: two hits with their marked titles and fragments (one with
 * markup in its text, which must stay text), the counts per section, filtered to `section`.
 */
function searchAnswer(section: number | null) {
  const hits = [
    {
      ...summaryOf(ARTICLES.find((a) => a.id === 2101)!),
      highlight: {
        title: [{ text: '云川—汉堡中欧', match: false }, { text: '班列', match: true }, { text: '累计开行突破3000列', match: false }],
        fragment: [{ text: '…全年开行', match: false }, { text: '班列', match: true }, { text: '<img src=x onerror=alert(1)>…', match: false }],
      },
    },
    {
      ...summaryOf(ARTICLES.find((a) => a.id === 2301)!),
      highlight: { title: [{ text: '关于2027年元旦期间', match: false }, { text: '班列', match: true }, { text: '运行安排的通知', match: false }] },
    },
  ].filter((hit) => !section || hit.categoryId === section);
  return {
    content: hits,
    totalElements: hits.length,
    totalPages: 1,
    page: 1,
    size: 10,
    source: 'index',
    // Most hits first; 通知公告 is past the six shown, behind 更多栏目.
    sections: [
      { id: 21, name: '公司要闻', count: 6 },
      { id: 22, name: '媒体报道', count: 5 },
      { id: 41, name: '清正廉洁', count: 4 },
      { id: 42, name: '工会活动', count: 3 },
      { id: 43, name: '党建活动', count: 2 },
      { id: 61, name: '社会影响', count: 2 },
      { id: 102, name: '重大事项', count: 1 },
      { id: 23, name: '通知公告', count: 1 },
    ],
  };
}

const ok = (result: unknown): HeldAnswer => ({ status: 200, body: { code: 200, msg: 'success', result } });
const notFound = (msg: string): HeldAnswer => ({ status: 404, body: { code: 404, msg } });
const summaryOf = ({ content, attachments, prev, next, ...summary }: Article) => summary;

/** What `/portal/api` answers for `url` (the API's path and query, as the request layer builds it). */
function apiAnswer(url: string): HeldAnswer {
  const { pathname, searchParams } = new URL(url, 'https://www.example.com');
  const number = (name: string, fallback = 0) => Number(searchParams.get(name) ?? fallback);
  switch (pathname) {
    case '/portal/api/site':
      return ok(SITE);
    case '/portal/api/category/list':
      return ok({ content: TREE });
    case '/portal/api/article/list': {
      const [page, size] = [number('page', 1), number('size', 10)];
      const all = ARTICLES.filter((a) => a.categoryId === number('categoryId')).sort((a, b) => (a.publishTime! < b.publishTime! ? 1 : -1));
      const content = all.slice((page - 1) * size, page * size).map(summaryOf);
      return ok({ content, page, size, totalElements: all.length, totalPages: Math.ceil(all.length / size) });
    }
    case '/portal/api/article/detail': {
      const article = ARTICLES.find((a) => a.id === number('id'));
      return article ? ok(article) : notFound('文章不存在');
    }
    case '/portal/api/article/search':
      return ok(searchAnswer(number('categoryId') || null));
    default:
      return notFound('接口不存在');
  }
}

// ---- The gateway: render, answer what the render needs, render again ----

interface RenderedPage {
  status: number;
  head: string;
  html: string;
  state: Record<string, unknown>;
  /** Every API URL the page read: its next render is given them at once. */
  reads: string[];
}

/** Every API URL a render asked for, over all pages (each must be one the API knows). */
const asked = new Set<string>();
/** How many times the gateway called the render, by page. */
const calls: Record<string, number> = {};
/** How many times React rendered each page, over all those calls. */
const renders: Record<string, number> = {};

async function gatewayRender(portalRender: (input: string) => Promise<string>, url: string): Promise<RenderedPage> {
  // The site and the tree at once, as the gateway gives them (`pages::render`).
  const answers: Record<string, HeldAnswer> = {};
  for (const url of ['/portal/api/site', '/portal/api/category/list']) {
    asked.add(url);
    answers[url] = apiAnswer(url);
  }
  for (let round = 0; round < 6; round += 1) {
    calls[url] = round + 1;
    const out = JSON.parse(await portalRender(JSON.stringify({ url, answers })));
    renders[url] = (renders[url] ?? 0) + (out.renders as number);
    if (!out.needs) return out as RenderedPage;
    for (const need of out.needs as string[]) {
      asked.add(need);
      answers[need] = apiAnswer(need);
    }
  }
  throw new Error(`${url} kept asking for answers`);
}

const HOME = '/portal/';
const LIST = '/portal/news_center/notice';
const ARTICLE = '/portal/article/2301';
const MISSING = '/portal/article/9999';
const SEARCH = '/portal/search?q=%E7%8F%AD%E5%88%97&section=23';
const SEARCH_ALL = '/portal/search?q=%E7%8F%AD%E5%88%97';
/** Pages rendered only to count their renders: a page of every other kind. */
const OTHER_KINDS = [
  '/portal/about/company_profile',
  '/portal/business/China-Europe_train',
  '/portal/news_center',
  '/portal/news_center/company_announcement/1?page=2',
  '/portal/party/detail?id=4301',
  '/portal/search',
  '/portal/sitemap',
  '/portal/contact',
  '/portal/__not_found__',
];
const pages: Record<string, RenderedPage> = {};
/** Each page rendered again in one call, from the answers at its `reads`. */
const again: Record<string, RenderedPage & { needs?: string[]; renders: number }> = {};

/**
 * The engine's `MessageChannel` (crates/render/src/prelude.js), which React's server build takes
 * at load: a message is a task, delivered to the other port. jsdom has none.
 */
class TaskChannel {
  port1: { onmessage: ((event: { data: unknown }) => void) | null } = { onmessage: null };
  port2 = { postMessage: (data: unknown) => setTimeout(() => this.port1.onmessage?.({ data })) };
}

beforeAll(async () => {
  const withChannel = globalThis as { MessageChannel?: unknown };
  withChannel.MessageChannel ??= TaskChannel;
  await jest.isolateModulesAsync(async () => {
    // The gateway's engine has no document: the request layer answers from the answers it is
    // given, and the query hooks start their queries while rendering.
    jest.doMock('./lib/environment', () => ({ onServer: true }));
    require('./server');
    const { portalRender } = globalThis as { portalRender?: (input: string) => Promise<string> };
    for (const url of [HOME, LIST, ARTICLE, MISSING, SEARCH, SEARCH_ALL, ...OTHER_KINDS]) pages[url] = await gatewayRender(portalRender!, url);
    // Each page once more, given at once what it read (the gateway's `pages/reads.rs`).
    for (const url of Object.keys(pages)) {
      const answers = Object.fromEntries(pages[url].reads.map((read) => [read, apiAnswer(read)]));
      again[url] = JSON.parse(await portalRender!(JSON.stringify({ url, answers })));
    }
  });
  jest.dontMock('./lib/environment');
});

// ---- The browser ----

let root: Root | undefined;
let recovered: unknown[];
let consoleError: jest.SpyInstance;
let fetchSpy: jest.SpyInstance;

beforeEach(() => {
  recovered = [];
  consoleError = jest.spyOn(console, 'error');
  // A request the browser makes after hydrating is answered by the same API.
  fetchSpy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const { status, body } = apiAnswer(String(input));
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  jest.spyOn(window, 'scrollTo').mockImplementation(() => {});
});
afterEach(async () => {
  await act(async () => root?.unmount());
  root = undefined;
  jest.restoreAllMocks();
  resetTitle();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

/** Whether React has adopted this node of the server's markup. */
const hydrated = (node: Element) => Object.keys(node).some((key) => key.startsWith('__reactFiber$'));

/** The page as the gateway sends it, at its address; then `index.tsx`'s hydration of it. */
async function loadAndHydrate(url: string): Promise<HTMLElement> {
  const page = pages[url];
  window.history.replaceState(null, '', url);
  document.head.innerHTML = `<meta charset="utf-8">${page.head}`;
  document.body.innerHTML = `<div id="root">${page.html}</div>`;
  const container = document.getElementById('root')!;
  const store = makeStore();
  store.dispatch({ type: HYDRATE, payload: page.state });
  await act(async () => {
    root = hydrateRoot(container, <App store={store} />, { onRecoverableError: (error) => recovered.push(error) });
  });
  // The page's own chunk arrives, its part of the markup is hydrated, the effects run.
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  return container;
}

/** Hydrated without a mismatch: nothing React recovered from, no warning, the server's nodes kept. */
function expectCleanHydration(kept: Element[]) {
  expect(recovered).toEqual([]);
  expect(consoleError).not.toHaveBeenCalled();
  for (const node of kept) {
    expect(node.isConnected).toBe(true);
    expect(hydrated(node)).toBe(true);
  }
  // One title, canonical link and og:url: the server's, adopted, none added beside them.
  expect(document.head.querySelectorAll('title')).toHaveLength(1);
  expect(document.head.querySelectorAll('link[rel="canonical"]')).toHaveLength(1);
  expect(document.head.querySelectorAll('meta[property="og:url"]')).toHaveLength(1);
}

const linkTo = (container: HTMLElement, href: string) => container.querySelector<HTMLAnchorElement>(`a[href="${href}"]`);
const linkNamed = (container: HTMLElement, text: string) => [...container.querySelectorAll('a')].find((a) => a.textContent === text);

describe('a page rendered by the gateway', () => {
  it('asks only for what the API answers, in a few rounds', () => {
    expect([...asked].filter((url) => (apiAnswer(url).body as { msg?: string }).msg === '接口不存在')).toEqual([]);
    // With the site and the tree: an article; then its related list; then the page is sent.
    expect(Object.keys(calls).sort()).toEqual([HOME, LIST, ARTICLE, MISSING, SEARCH, SEARCH_ALL, ...OTHER_KINDS].sort());
    for (const url of Object.keys(calls)) expect([url, calls[url] <= 3]).toEqual([url, true]);
    expect([...asked].sort()).toEqual(
      expect.arrayContaining([
        '/portal/api/site',
        '/portal/api/category/list',
        '/portal/api/article/list?categoryId=23&page=1&size=10',
        '/portal/api/article/detail?id=2301',
      ]),
    );
  });

  it('names what it read: given those answers at once, it is rendered in one call, the same page', () => {
    expect(pages[ARTICLE].reads).toEqual(
      expect.arrayContaining(['/portal/api/site', '/portal/api/category/list', '/portal/api/article/detail?id=2301']),
    );
    for (const url of Object.keys(pages)) {
      expect([url, again[url].needs, again[url].renders]).toEqual([url, undefined, 1]);
      expect([url, again[url].html]).toEqual([url, pages[url].html]);
      expect([url, [...again[url].reads].sort()]).toEqual([url, [...pages[url].reads].sort()]);
    }
  });

  it('is rendered once, whatever its kind: its loader names all the page reads (app/page-loads.ts)', () => {
    const once = Object.fromEntries(Object.keys(renders).map((url) => [url, 1]));
    expect(renders).toEqual(once);
    // Pages that show an article show it: the loader's answers are in the one render.
    expect(pages['/portal/about/company_profile'].html).toContain('云川陆港国际物流集团成立于2016年');
    expect(pages['/portal/party/detail?id=4301'].html).toContain('集团党委开展“重温入党誓词”主题党日活动');
    expect(pages['/portal/news_center/company_announcement/1?page=2'].status).toBe(404);
  });

  it('home: the company’s title, the lead story, the news and the notices, hydrated as they are', async () => {
    const page = pages[HOME];
    expect(page.status).toBe(200);
    expect(page.head).toContain(`<title>${SITE.companyName}</title>`);
    expect(page.head).toContain('<link rel="canonical" href="https://www.example.com/portal/"/>');
    // The page's chunk, which index.html's script fetches with the app's (app-start.test.ts).
    expect(page.head).toContain('<meta name="portal-page-chunk" content="page-home"/>');
    for (const title of ['云川—汉堡中欧班列累计开行突破3000列', '集团与阿拉木图陆港签署战略合作协议', '关于2027年元旦期间班列运行安排的通知', '陆港十年']) {
      expect(page.html).toContain(title);
    }

    const container = await loadAndHydrate(HOME);
    const lead = linkTo(container, '/portal/article/2101')!;
    const notice = linkTo(container, '/portal/article/2301')!;
    expect(lead).toHaveTextContent('云川—汉堡中欧班列累计开行突破3000列');
    expectCleanHydration([lead, notice, linkTo(container, '/portal/topics/decade')!]);
    expect(document.title).toBe(SITE.companyName);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('a list: its articles, the breadcrumb and the title, hydrated as they are', async () => {
    const page = pages[LIST];
    expect(page.status).toBe(200);
    expect(page.head).toContain(`<title>通知公告 - 新闻中心 - ${SITE.companyName}</title>`);
    expect(page.head).toContain('<meta name="portal-page-chunk" content="page-news"/>');
    for (const title of ['关于2027年元旦期间班列运行安排的通知', '场站智能闸口改造工程招标公告', '2026年下半年社会招聘公告']) {
      expect(page.html).toContain(title);
    }

    const container = await loadAndHydrate(LIST);
    const items = ['/portal/article/2301', '/portal/article/2302', '/portal/article/2303'].map((href) => linkTo(container, href)!);
    expect(items.map((a) => a.textContent)).toEqual(['关于2027年元旦期间班列运行安排的通知', '场站智能闸口改造工程招标公告', '2026年下半年社会招聘公告']);
    expect(container.querySelector('h1')).toHaveTextContent('通知公告');
    expectCleanHydration([...items, container.querySelector('h1')!]);
    expect(document.title).toBe(`通知公告 - 新闻中心 - ${SITE.companyName}`);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('an article: its title, body and neighbours, hydrated as they are', async () => {
    const page = pages[ARTICLE];
    expect(page.status).toBe(200);
    expect(page.head).toContain(`<title>关于2027年元旦期间班列运行安排的通知 - 通知公告 - ${SITE.companyName}</title>`);
    expect(page.head).toContain('<link rel="canonical" href="https://www.example.com/portal/article/2301"/>');
    expect(page.head).toContain('<meta name="portal-page-chunk" content="page-article"/>');
    expect(page.html).toContain('2027年元旦期间，云川—汉堡、云川—布达佩斯国际班列按原计划正常开行');
    expect(page.html).toContain('元旦期间班列时刻表.pdf');

    const container = await loadAndHydrate(ARTICLE);
    const heading = container.querySelector('h1')!;
    expect(heading).toHaveTextContent('关于2027年元旦期间班列运行安排的通知');
    const next = linkNamed(container, '场站智能闸口改造工程招标公告')!;
    expect(next).toHaveAttribute('href', '/portal/article/2302');
    expectCleanHydration([heading, next, linkNamed(container, '返回列表')!]);
    expect(document.title).toBe(`关于2027年元旦期间班列运行安排的通知 - 通知公告 - ${SITE.companyName}`);
    // The body's link to another article now opens it in place (an effect after hydration).
    expect(linkNamed(container, '招标公告')).toHaveAttribute('href', '/portal/article/2302');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('a search of the index: marked titles and fragments as text, the section filter, hydrated as they are', async () => {
    const page = pages[SEARCH];
    expect(page.status).toBe(200);
    expect([...asked]).toContain('/portal/api/article/search?keyword=%E7%8F%AD%E5%88%97&categoryId=23&page=1&size=10');
    // Filtered to 通知公告: its one hit, its title marked; the filter names every section's count.
    expect(page.html).toContain('关于2027年元旦期间<mark>班列</mark>运行安排的通知');
    expect(page.html).not.toContain('云川—汉堡中欧');

    const container = await loadAndHydrate(SEARCH);
    const filter = container.querySelector('nav[aria-label="按栏目筛选"]')!;
    const chips = [...filter.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')]);
    expect(chips.slice(0, 2)).toEqual([
      ['全部 24', '/portal/search?q=%E7%8F%AD%E5%88%97', null],
      ['公司要闻 6', '/portal/search?q=%E7%8F%AD%E5%88%97&section=21', null],
    ]);
    expect(chips).toHaveLength(9);
    // The section shown sits behind 更多栏目, which is open so it can be seen.
    const more = filter.querySelector('details')!;
    expect(more).toHaveProperty('open', true);
    expect(more.querySelector('summary')).toHaveTextContent('更多栏目（2）');
    expect([...more.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('aria-current')])).toEqual([
      ['重大事项 1', null],
      ['通知公告 1', 'page'],
    ]);
    const hit = linkTo(container, '/portal/article/2301')!;
    expect(hit.querySelector('mark')).toHaveTextContent('班列');
    const dates = container.querySelector('form[aria-label="按时间筛选"]')!;
    expect(dates.querySelector('input[name="section"]')).toHaveValue('23');
    expectCleanHydration([hit, filter, dates]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('a fragment’s text stays text, whatever it holds', () => {
    const html = pages[SEARCH_ALL].html;
    expect(html).toContain('…全年开行<mark>班列</mark>&lt;img src=x onerror=alert(1)&gt;…');
    expect(html).not.toContain('<img src=x');
  });

  it('an article that does not exist: a 404 page, hydrated as it is', async () => {
    const page = pages[MISSING];
    expect(page.status).toBe(404);
    expect(page.head).toContain(`<title>文章不存在 - ${SITE.companyName}</title>`);

    const container = await loadAndHydrate(MISSING);
    const heading = container.querySelector('h1')!;
    expect(heading).toHaveTextContent('文章不存在');
    expectCleanHydration([heading, container.querySelector('header')!]);
    expect(document.title).toBe(`文章不存在 - ${SITE.companyName}`);
    // The browser asks for the failed answer again (RTK Query retries errors) and still shows the 404.
    expect(fetchSpy).toHaveBeenCalledWith('/portal/api/article/detail?id=9999', expect.anything());
    expect(container.querySelector('h1')).toHaveTextContent('文章不存在');
  });
});

describe('a page a visitor is about to open', () => {
  it('has its data fetched before the click, by the loader the server renders with', async () => {
    const store = makeStore();
    store.dispatch({ type: HYDRATE, payload: pages[HOME].state });
    await prefetchPage('/article/2301', store);
    const fetched = fetchSpy.mock.calls.map(([input]) => {
      const url = new URL(String(input), 'https://www.example.com');
      return `${url.pathname}${url.search}`;
    });
    // The site and the tree came with the home page; the article, then its related list.
    expect(fetched).toEqual(['/portal/api/article/detail?id=2301', '/portal/api/article/list?categoryId=23&page=1&size=10']);
    // The server's answers for that page are what the store now holds.
    const held = pages[ARTICLE].state.api as { queries: Record<string, { data?: unknown }> };
    for (const [key, entry] of Object.entries(held.queries)) {
      expect([key, store.getState().api.queries[key]?.data]).toEqual([key, entry.data]);
    }
  });
});
