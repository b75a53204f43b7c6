import { act, cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { navigate } from 'wouter/use-browser-location';

import type { Category } from '../features/categories';
import { setLocale } from '../lib/locale';
import { BASE, baseOf } from '../lib/page-href';
import { composeTitle, FALLBACK_NAME, resetTitle, withPageNumber } from './page-title';
import { AppRoutes } from './router';

const COMPANY = '云川陆港国际物流集团有限公司';

// The CMS tree names some pages differently from the route table: the title takes the CMS's name.
const cat = (id: number, parentId: number, name: string, url: string, type: string, sub: Category[] = []): Category => ({
  id,
  parentId,
  name,
  url,
  sort: id,
  type,
  subCategory: sub,
});
const TREE: Category[] = [
  cat(2, 0, '新闻中心', '/news_center', 'group', [
    cat(21, 2, '公司要闻', '/news_center/company_announcement/1', 'list'),
    { ...cat(23, 2, '通知公告', '/news_center/notice', 'list'), description: '集团发布的通知与公告。' },
  ]),
  cat(3, 0, '业务板块', '/business', 'group', [cat(31, 3, '中欧班列服务', '/business/China-Europe_train', 'page')]),
  cat(4, 0, '党建工会', '/party-construction', 'group', [cat(41, 4, '清正廉洁', '/party-construction/clean-honest', 'list')]),
];

const ARTICLES: Record<number, { id: number; categoryId: number; title: string }> = {
  7: { id: 7, categoryId: 21, title: '中欧班列累计开行突破3000列' },
};

const mockState = { treeLoading: false, articleLoading: false };

function mockPage(kind: string) {
  return { __esModule: true, default: () => `${kind}-page` };
}
// The home page renders its own title (the company name alone): its stand-in does as it does.
jest.mock('./pages/home-page', () => {
  const { CompanyTitle } = jest.requireActual('./layout/layout');
  return {
    __esModule: true,
    default: function Home() {
      return (
        <>
          <CompanyTitle />
          home-page
        </>
      );
    },
  };
});
jest.mock('./pages/group-page', () => mockPage('group'));
jest.mock('../features/articles/pages/single-page', () => mockPage('single'));
jest.mock('../features/articles/pages/news-list-page', () => mockPage('news'));
jest.mock('../features/articles/pages/party-construction-page', () => mockPage('party-construction'));
jest.mock('../features/articles/pages/party-detail-page', () => mockPage('party-detail'));
jest.mock('../features/articles/pages/article-page', () => mockPage('article'));
jest.mock('../features/search/search-page', () => mockPage('search'));
jest.mock('../features/site/login-page', () => mockPage('login'));
jest.mock('./pages/contact-page', () => mockPage('contact'));
jest.mock('../components/not-found-page', () => mockPage('not-found'));
jest.mock('./layout/layout', () => ({
  ...jest.requireActual('./layout/layout'),
  Layout: ({ children }: { children: ReactNode }) => (
    <main id="main-content" tabIndex={-1}>
      {children}
    </main>
  ),
}));
jest.mock('../features/categories', () => ({
  ...jest.requireActual('../features/categories'),
  useGetCategoriesQuery: () => (mockState.treeLoading ? { data: undefined, isLoading: true } : { data: TREE, isLoading: false }),
}));
jest.mock('../features/site', () => ({
  ...jest.requireActual('../features/site'),
  useGetSiteQuery: () => ({
    data: { companyName: '云川陆港国际物流集团有限公司', paginationLocale: 'zh-CN', hotline: '', bookingUrl: '', whistleblowing: { phone: '', email: '', address: '', hours: '', website: '' } },
    isLoading: false,
  }),
}));
jest.mock('../features/articles', () => ({
  ...jest.requireActual('../features/articles'),
  usePrefetchArticle: () => {},
  useGetArticleQuery: (id: number, { skip }: { skip?: boolean } = {}) => {
    if (skip || mockState.articleLoading) return { currentData: undefined, isError: false };
    const article = ARTICLES[id];
    return article ? { currentData: article, isError: false } : { currentData: undefined, isError: true, error: { code: 404 } };
  },
}));

beforeAll(() => jest.spyOn(window, 'scrollTo').mockImplementation(() => {}));
beforeEach(() => {
  resetTitle();
  mockState.treeLoading = false;
  mockState.articleLoading = false;
});
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

/** The `<title>` elements in the document's head (React hoists each page's there). */
const titles = () => [...document.head.querySelectorAll('title')].map((t) => t.textContent);

/** The document's title once the app's routes have rendered at the real address `/portal{route}`. */
async function titleAt(route: string, base = BASE): Promise<string> {
  window.history.replaceState(null, '', `${base}${route}`);
  render(
    <Router base={base}>
      <AppRoutes />
    </Router>,
  );
  await screen.findByText(/-page$/);
  // Effects after the page's first render (the announcer's answer to its title) run out.
  await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
  // One page, one title, in the head, where the browser reads it.
  expect(titles()).toHaveLength(1);
  return document.title;
}

describe('composeTitle', () => {
  it('joins the set parts and the company with " - ", each once', () => {
    expect(composeTitle(['回程班列', '公司要闻'], COMPANY)).toBe(`回程班列 - 公司要闻 - ${COMPANY}`);
    expect(composeTitle([undefined, ' ', '联系我们'], COMPANY)).toBe(`联系我们 - ${COMPANY}`);
    expect(composeTitle(['新闻中心', '新闻中心'], COMPANY)).toBe(`新闻中心 - ${COMPANY}`);
    expect(composeTitle([], COMPANY)).toBe(COMPANY);
    expect(withPageNumber('通知公告', 2)).toBe('通知公告（第 2 页）');
    expect(withPageNumber('通知公告', 1)).toBe('通知公告');
  });

  it('names no company before /site answers (never the demo company)', () => {
    expect(FALLBACK_NAME).toBe('');
    expect(composeTitle(['通知公告'], FALLBACK_NAME)).toBe('通知公告');
  });
});

describe('what search results say of a page', () => {
  const description = () => document.head.querySelector('meta[name="description"]')?.getAttribute('content');

  it('home: the company and the sections its CMS shows', async () => {
    await titleAt('/');
    expect(description()).toBe(`${COMPANY}官方网站，设有新闻中心、业务板块、党建工会等栏目。`);
  });

  it('a list: its category’s own description, else what the page is and whose', async () => {
    await titleAt('/news_center/notice');
    expect(description()).toBe('集团发布的通知与公告。');
    cleanup();
    await titleAt('/news_center/company_announcement/1');
    expect(description()).toBe(`${COMPANY}公司要闻`);
  });
});

describe('the title of each kind of route', () => {
  it('home: the company name alone', async () => {
    expect(await titleAt('/')).toBe(COMPANY);
  });

  it('a group: its name', async () => {
    expect(await titleAt('/news_center')).toBe(`新闻中心 - ${COMPANY}`);
  });

  it('a single page: its name as the CMS gives it, then its section', async () => {
    expect(await titleAt('/business/China-Europe_train')).toBe(`中欧班列服务 - 业务板块 - ${COMPANY}`);
  });

  it('a section the CMS does not have: not a page of this site', async () => {
    expect(await titleAt('/about/honor')).toBe(`页面不存在 - ${COMPANY}`);
  });

  it('a news list, and its page past the first', async () => {
    expect(await titleAt('/news_center/notice')).toBe(`通知公告 - 新闻中心 - ${COMPANY}`);
    cleanup();
    expect(await titleAt('/news_center/notice?page=3')).toBe(`通知公告（第 3 页） - 新闻中心 - ${COMPANY}`);
  });

  it('a party-construction list', async () => {
    expect(await titleAt('/party-construction/clean-honest')).toBe(`清正廉洁 - 党建工会 - ${COMPANY}`);
  });

  it('an article: its title, its category, the company', async () => {
    expect(await titleAt('/article/7')).toBe(`中欧班列累计开行突破3000列 - 公司要闻 - ${COMPANY}`);
  });

  it('an article that is not there, or not yet', async () => {
    expect(await titleAt('/article/99')).toBe(`文章不存在 - ${COMPANY}`);
    cleanup();
    mockState.articleLoading = true;
    expect(await titleAt('/article/7')).toBe(`文章详情 - ${COMPANY}`);
  });

  it('the party-style detail: its article’s title', async () => {
    expect(await titleAt('/party/detail?id=7')).toBe(`中欧班列累计开行突破3000列 - 公司要闻 - ${COMPANY}`);
  });

  it('search: the keyword, the page past the first; without a keyword the page’s name', async () => {
    expect(await titleAt('/search?q=%E7%8F%AD%E5%88%97')).toBe(`“班列”的搜索结果 - 站内搜索 - ${COMPANY}`);
    cleanup();
    expect(await titleAt('/search?q=%E7%8F%AD%E5%88%97&page=2')).toBe(`“班列”的搜索结果（第 2 页） - 站内搜索 - ${COMPANY}`);
    cleanup();
    expect(await titleAt('/search')).toBe(`站内搜索 - ${COMPANY}`);
  });

  it('a page outside any section, and one that does not exist', async () => {
    expect(await titleAt('/contact')).toBe(`联系我们 - ${COMPANY}`);
    cleanup();
    expect(await titleAt('/no/such/page')).toBe(`页面不存在 - ${COMPANY}`);
  });
});

describe('the route announcer', () => {
  it('says nothing on the first page, then the new title after a route change, and moves focus to main', async () => {
    await titleAt('/news_center/notice');
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region.textContent).toBe('');
    act(() => navigate('/portal/business/China-Europe_train'));
    await screen.findByText('single-page');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(region).toHaveTextContent(`中欧班列服务 - 业务板块 - ${COMPANY}`);
    // The new page's title has taken the old one's place in the head.
    expect(titles()).toEqual([`中欧班列服务 - 业务板块 - ${COMPANY}`]);
    expect(document.activeElement).toBe(document.getElementById('main-content'));
  });

  it('waits for an article’s title before it speaks', async () => {
    await titleAt('/news_center/notice');
    mockState.articleLoading = true;
    act(() => navigate('/portal/article/7'));
    await screen.findByText('article-page');
    await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
    const region = screen.getByRole('status');
    expect(titles()).toEqual([`文章详情 - ${COMPANY}`]);
    expect(document.title).toBe(`文章详情 - ${COMPANY}`);
    expect(region.textContent).toBe('');
  });
});

describe('on an English page', () => {
  // The site's own facts (the company's name here) come from its config: only the rest is the app's.
  const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;
  const englishAt = async (route: string) => {
    const title = await titleAt(route, baseOf('en'));
    expect(title.replace(COMPANY, '')).not.toMatch(CJK);
    return title;
  };
  beforeEach(() => {
    setLocale('en');
    // The route table's names (the CMS tree of this test is the Chinese one).
    mockState.treeLoading = true;
  });
  afterEach(() => setLocale('zh'));

  it('names routes in English, a list’s page past the first, and what a page is', async () => {
    expect(await englishAt('/news_center')).toBe(`News - ${COMPANY}`);
    cleanup();
    expect(await englishAt('/news_center/notice?page=3')).toBe(`Notices (Page 3) - News - ${COMPANY}`);
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(`Notices – ${COMPANY}`);
    cleanup();
    expect(await englishAt('/contact')).toBe(`Contact Us - ${COMPANY}`);
  });

  it('describes the home page in English (the sections as the CMS names them)', async () => {
    mockState.treeLoading = false;
    expect(await titleAt('/', baseOf('en'))).toBe(COMPANY);
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(
      `The official website of ${COMPANY}, with sections including 新闻中心, 业务板块 and 党建工会.`,
    );
  });

  it('titles a search, a missing article and a missing page in English', async () => {
    mockState.treeLoading = false;
    expect(await englishAt('/search?q=rail&page=2')).toBe(`Search results for “rail” (Page 2) - Site Search - ${COMPANY}`);
    cleanup();
    expect(await englishAt('/article/99')).toBe(`Article not found - ${COMPANY}`);
    cleanup();
    expect(await englishAt('/no/such/page')).toBe(`Page not found - ${COMPANY}`);
  });
});
