// The article pages on the English pages (`/portal/en/…`): every word the app writes is English;
// what the CMS gives (titles, names, captions) is the test's own English.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

import { makeStore } from '../../../app/store';
import { setLocale } from '../../../lib/locale';
import type { Article, ArticlePage, ArticleSummary } from '../api';
import SinglePage from '../pages/single-page';
import type { ContentPageProps } from '../types';
import { ArticleDetail, articleCrumb } from './article-detail';
import { ArticleView, enhanceBody } from './article-view';
import { ListPage } from './list-page';

const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

const mockApi: { lists: Record<string, ArticlePage | undefined>; articles: Record<number, Article | undefined>; missing: boolean } = {
  lists: {},
  articles: {},
  missing: false,
};
jest.mock('../api', () => ({
  ...jest.requireActual('../api'),
  useGetArticlesQuery: ({ categoryId, page = 1, size = 10 }: { categoryId: number; page?: number; size?: number }, options?: { skip?: boolean }) => {
    const data = options?.skip ? undefined : mockApi.lists[`${categoryId}:${page}:${size}`];
    return { data, currentData: data, isFetching: false, isLoading: false, isError: false };
  },
  useGetArticleQuery: (id: number, options?: { skip?: boolean }) => {
    const data = options?.skip ? undefined : mockApi.articles[id];
    const error = !data && mockApi.missing ? { code: 404 } : undefined;
    return { data, currentData: data, isFetching: false, isLoading: false, isError: error !== undefined, error };
  },
}));

const summary = (id: number, day: number): ArticleSummary => ({
  id,
  categoryId: 23,
  title: `Notice no. ${id}`,
  source: 'Yunchuan Land Port',
  publishTime: `2026-10-${String(day).padStart(2, '0')} 09:00:00`,
});
const pageOf = (content: ArticleSummary[], total = content.length): ArticlePage => ({
  content,
  page: 1,
  size: 10,
  totalElements: total,
  totalPages: Math.ceil(total / 10),
});

const ARTICLE: Article = {
  id: 5,
  categoryId: 23,
  title: 'Timetable over the New Year holiday',
  publishTime: '2026-10-05 09:00:00',
  source: 'Operations department',
  author: 'Li Ming',
  editor: 'Wang Fang',
  views: 1234,
  content:
    '<h2>Departures</h2><table><thead><tr><th>Train</th><th>Day</th></tr></thead><tbody><tr><td>X8001</td><td>Monday</td></tr></tbody></table>' +
    '<table><tr><td>2</td></tr></table><div class="org-chart"><ul><li><span>Board</span></li></ul></div>' +
    '<ul class="gallery"><li><figure><img src="/a.png" alt="Certificate" width="720" height="500"></figure></li></ul>',
  attachments: [{ name: 'timetable.pdf', url: '/portal/api/files/timetable.pdf', size: 2048 }],
  prev: { id: 4, title: 'Notice no. 4' },
};

const SHARE = 'https://www.example.com/portal/en/article/5';

const CONTEXT: ContentPageProps = {
  path: '/news_center/notice',
  title: 'Notices',
  category: { id: 23, name: 'Notices', url: '/news_center/notice', type: 'list' },
  categoriesLoading: false,
  breadcrumb: [{ name: 'News', url: '/news_center' }, { name: 'Notices', url: '/news_center/notice' }],
  paginationLocale: 'en',
  shareUrl: SHARE,
  breadcrumbFor: () => [{ name: 'News', url: '/news_center' }, { name: 'Notices', url: '/news_center/notice' }],
  urlOf: () => '/news_center/notice',
};

function renderAt(path: string, ui: ReactNode) {
  const { hook, searchHook } = memoryLocation({ path });
  return render(
    <Provider store={makeStore()}>
      <Router hook={hook} searchHook={searchHook}>
        {ui}
      </Router>
    </Provider>,
  );
}

/** Every attribute a visitor or a screen reader meets, and the text, free of Chinese. */
function expectNoChinese(root: Element) {
  expect(root.textContent).not.toMatch(CJK);
  for (const el of root.querySelectorAll('*')) {
    for (const attribute of ['aria-label', 'placeholder', 'title', 'alt', 'data-label']) expect(el.getAttribute(attribute) ?? '').not.toMatch(CJK);
  }
}

beforeAll(() => {
  jest.spyOn(window, 'scrollTo').mockImplementation(() => {});
  Element.prototype.scrollIntoView = () => {};
});
beforeEach(() => {
  setLocale('en');
  mockApi.lists = {};
  mockApi.articles = {};
  mockApi.missing = false;
});
afterEach(() => setLocale('zh'));

describe('an article in English', () => {
  it('labels its facts, tools, tables, attachments and neighbours in English', async () => {
    mockApi.articles[5] = ARTICLE;
    mockApi.lists['23:1:10'] = pageOf([summary(5, 5), summary(6, 6)]);
    const { container } = renderAt('/article/5', <ArticleDetail {...CONTEXT} id={5} />);
    expectNoChinese(container);
    const meta = container.querySelector('.article__meta')!;
    expect(meta).toHaveTextContent('Published: 2026-10-05 09:00:00');
    expect(meta).toHaveTextContent('Source: Operations department');
    expect(meta).toHaveTextContent('Author: Li Ming');
    expect(meta).toHaveTextContent('Editor: Wang Fang');
    expect(meta).toHaveTextContent('Views: 1,234');
    expect(within(screen.getByRole('navigation', { name: 'Previous and next articles' })).getByText('None')).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Article text size' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Large text' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Table: Departures' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Table 2: Departures' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Organisation chart' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View larger image: Certificate' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Attachments' })).toHaveTextContent('timetable.pdf (2.0 KB)');
    expect(screen.getByRole('region', { name: 'Related articles' })).toHaveTextContent('Notice no. 6');
    expect(screen.getByRole('link', { name: 'Back to list' })).toBeInTheDocument();
    expect(screen.getByText(articleCrumb())).toHaveTextContent('Article');
    expect(screen.getByText(`Link to this article: ${SHARE}`)).toBeInTheDocument();

    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: jest.fn().mockResolvedValue(undefined) } });
    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Link copied: paste it to share.')).toBeInTheDocument();
    Reflect.deleteProperty(navigator, 'clipboard');
    await userEvent.click(screen.getByRole('button', { name: 'QR code' }));
    expect(await screen.findByRole('img', { name: 'QR code of the link to this article' })).toBeInTheDocument();
    expectNoChinese(container);
  });

  it('writes its scroll cues in English on the server too', () => {
    const html = enhanceBody('<table><tr><td>1</td></tr></table><div class="org-chart"></div><div class="org-chart"></div>', 'x');
    expect(html).toContain('Swipe sideways to see the whole table');
    expect(html).toContain('Swipe sideways to see the whole chart');
    expect(html).toContain('aria-label="Organisation chart 2"');
    expect(html).not.toMatch(CJK);
  });

  it('says in English that an article is missing or its link is wrong', () => {
    mockApi.missing = true;
    const missing = renderAt('/article/9', <ArticleDetail {...CONTEXT} id={9} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Article not found');
    expectNoChinese(missing.container);
    missing.unmount();
    const wrong = renderAt('/article/x', <ArticleDetail {...CONTEXT} id={null} />);
    expect(screen.getByText('The article number in this link is not valid.')).toBeInTheDocument();
    expectNoChinese(wrong.container);
  });

  it('shows the article alone (no header) in English', () => {
    const { container } = render(<ArticleView article={{ ...ARTICLE, prev: undefined, next: { id: 6, title: 'Notice no. 6' } }} withHeader={false} shareUrl={SHARE} />);
    expect(screen.getByText('Previous:', { exact: false })).toHaveTextContent('Previous: None');
    expectNoChinese(container);
  });
});

describe('lists and single pages in English', () => {
  it('a list: its items and its pager', () => {
    mockApi.lists['23:1:10'] = pageOf([summary(11, 1), summary(12, 2)], 25);
    const { container } = renderAt('/news_center/notice', <ListPage {...CONTEXT} />);
    expect(screen.getAllByText('Source: Yunchuan Land Port')).toHaveLength(2);
    expectNoChinese(container);
  });

  it('an empty list, a list not open and a page being prepared', () => {
    mockApi.lists['23:1:10'] = pageOf([]);
    const empty = renderAt('/news_center/notice', <ListPage {...CONTEXT} />);
    expect(screen.getByText('There is nothing in this section yet.')).toBeInTheDocument();
    expectNoChinese(empty.container);
    empty.unmount();
    const closed = renderAt('/news_center/notice', <ListPage {...CONTEXT} category={undefined} />);
    expect(screen.getByText('This section is not available yet.')).toBeInTheDocument();
    expectNoChinese(closed.container);
    closed.unmount();
    mockApi.lists['31:1:1'] = pageOf([]);
    const single = renderAt(
      '/business/rail',
      <SinglePage
        {...CONTEXT}
        path="/business/rail"
        category={{ id: 31, name: 'Rail', url: '/business/rail', type: 'page' }}
        extras={{ overview: [{ name: 'Routes', url: '/business/routes' }] }}
      />,
    );
    expect(screen.getByText('The content of this section is being prepared. Please check back soon.')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Business overview' })).toBeInTheDocument();
    expectNoChinese(single.container);
  });
});
