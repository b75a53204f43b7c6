import { fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

import { makeStore } from '../../../app/store';
import { articleHref } from '../../../lib/page-href';
import type { Article, ArticlePage, ArticleSummary } from '../api';
import { partyDetailHref } from '../pages/party-page';
import SinglePage from '../pages/single-page';
import type { ContentPageProps } from '../types';
import { ArticleDetail, articleCrumb } from './article-detail';
import { ArticleView } from './article-view';
import { ListPage } from './list-page';
import { RelatedArticles } from './related-articles';

// The feature's queries answer from these (by category, page and id); `undefined`: still loading.
const mockApi: { lists: Record<string, ArticlePage | undefined>; articles: Record<number, Article | undefined> } = { lists: {}, articles: {} };
jest.mock('../api', () => ({
  ...jest.requireActual('../api'),
  useGetArticlesQuery: ({ categoryId, page = 1, size = 10 }: { categoryId: number; page?: number; size?: number }, options?: { skip?: boolean }) => {
    const data = options?.skip ? undefined : mockApi.lists[`${categoryId}:${page}:${size}`];
    return { data, currentData: data, isFetching: !options?.skip && !data, isLoading: !options?.skip && !data, isError: false };
  },
  useGetArticleQuery: (id: number, options?: { skip?: boolean }) => {
    const data = options?.skip ? undefined : mockApi.articles[id];
    return { data, currentData: data, isFetching: !data, isLoading: !data, isError: false };
  },
}));

const summary = (id: number, day: number, categoryId = 23): ArticleSummary => ({
  id,
  categoryId,
  title: `通知第 ${id} 号`,
  publishTime: `2026-10-${String(day).padStart(2, '0')} 09:00:00`,
});
const pageOf = (content: ArticleSummary[], page = 1, total = content.length): ArticlePage => ({
  content,
  page,
  size: 10,
  totalElements: total,
  totalPages: Math.ceil(total / 10),
});

const CONTEXT: ContentPageProps = {
  path: '/news_center/notice',
  title: '通知公告',
  category: { id: 23, name: '通知公告', url: '/news_center/notice', type: 'list' },
  categoriesLoading: false,
  breadcrumb: [{ name: '新闻中心', url: '/news_center' }, { name: '通知公告', url: '/news_center/notice' }],
  paginationLocale: 'zh-CN',
  shareUrl: 'http://127.0.0.1/portal/news_center/notice',
  breadcrumbFor: () => [
    { name: '新闻中心', url: '/news_center' },
    { name: '通知公告', url: '/news_center/notice' },
  ],
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

beforeAll(() => {
  jest.spyOn(window, 'scrollTo').mockImplementation(() => {});
  Element.prototype.scrollIntoView = () => {};
});
beforeEach(() => {
  mockApi.lists = {};
  mockApi.articles = {};
});

describe('相关文章', () => {
  const article: Article = { id: 5, categoryId: 23, title: '通知第 5 号', content: '<p>正文</p>' };

  it('lists the category’s newest five, newest first, without the article itself', () => {
    mockApi.lists['23:1:10'] = pageOf([summary(3, 3), summary(9, 9), summary(5, 5), summary(7, 7), summary(1, 1), summary(8, 8), summary(2, 2)]);
    renderAt('/article/5', <RelatedArticles article={article} hrefOf={articleHref} />);
    const region = screen.getByRole('region', { name: '相关文章' });
    const links = within(region).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual(['通知第 9 号', '通知第 8 号', '通知第 7 号', '通知第 3 号', '通知第 2 号']);
    expect(links[0]).toHaveAttribute('href', '/portal/article/9');
    expect(within(region).getAllByRole('listitem')[0]).toHaveTextContent('2026-10-09');
  });

  it('is nothing while it loads or when the category has nothing else', () => {
    const { container, unmount } = renderAt('/article/5', <RelatedArticles article={article} hrefOf={articleHref} />);
    expect(container).toBeEmptyDOMElement();
    unmount();
    mockApi.lists['23:1:10'] = pageOf([summary(5, 5)]);
    const again = renderAt('/article/5', <RelatedArticles article={article} hrefOf={articleHref} />);
    expect(again.container).toBeEmptyDOMElement();
  });
});

describe('an article page', () => {
  const article: Article = { id: 5, categoryId: 23, title: '关于2027年元旦期间班列运行安排的通知', content: '<p>正文</p>', publishTime: '2026-10-05 09:00:00' };

  it('ends its breadcrumb with a short step, the title being its heading', () => {
    mockApi.articles[5] = article;
    renderAt('/article/5', <ArticleDetail {...CONTEXT} id={5} />);
    const crumbs = screen.getByRole('navigation', { name: '当前位置' });
    expect(crumbs).not.toHaveTextContent(article.title);
    expect(within(crumbs).getByText(articleCrumb())).toHaveAttribute('aria-current', 'page');
    expect(within(crumbs).getByRole('link', { name: '通知公告' })).toHaveAttribute('href', '/portal/news_center/notice');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(article.title);
  });

  it('leads 返回列表 back to the list page it was opened from, from the address (a reload keeps it)', () => {
    mockApi.articles[5] = article;
    const { unmount } = renderAt('/article/5?listPage=2', <ArticleDetail {...CONTEXT} id={5} />);
    expect(screen.getByRole('link', { name: '返回列表' })).toHaveAttribute('href', '/portal/news_center/notice?page=2');
    unmount();
    renderAt('/article/5', <ArticleDetail {...CONTEXT} id={5} />);
    expect(screen.getByRole('link', { name: '返回列表' })).toHaveAttribute('href', '/portal/news_center/notice');
  });

  it('shows its placeholder while the article loads', () => {
    const { container } = renderAt('/article/5', <ArticleDetail {...CONTEXT} id={5} />);
    expect(container.querySelector('article')).toHaveAttribute('aria-busy', 'true');
    expect(container.querySelector('.skeleton-body')).not.toBeNull();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
  });
});

describe('a list page', () => {
  it('shows ten placeholder items while its page loads, in a busy region under the real heading', () => {
    const { container } = renderAt('/news_center/notice', <ListPage {...CONTEXT} />);
    expect(screen.getByRole('heading', { level: 1, name: '通知公告' })).toBeInTheDocument();
    expect(container.querySelector('.content-region')).toHaveAttribute('aria-busy', 'true');
    expect(container.querySelectorAll('.skeleton-list__item')).toHaveLength(10);
  });

  it('marks the articles of page 2 with their page, so 返回列表 comes back to it', () => {
    mockApi.lists['23:2:10'] = pageOf([summary(11, 1), summary(12, 2)], 2, 12);
    const { container } = renderAt('/news_center/notice?page=2', <ListPage {...CONTEXT} />);
    expect(container.querySelector('.content-region')).toHaveAttribute('aria-busy', 'false');
    expect(container.querySelector('.skeleton')).toBeNull();
    expect(screen.getByRole('link', { name: '通知第 11 号' })).toHaveAttribute('href', '/portal/article/11?listPage=2');
  });

  it('moves focus to the main region when 下一页 opens the next page, not to the document body', () => {
    // The review: Enter on 下一页 dropped keyboard focus to <body> (the pager goes while the next
    // page loads, and the route announcer moves focus only when the path changes, not its query).
    mockApi.lists['23:1:10'] = pageOf([summary(11, 1)], 1, 12);
    mockApi.lists['23:2:10'] = undefined;
    const { hook, searchHook } = memoryLocation({ path: '/news_center/notice' });
    render(
      <Provider store={makeStore()}>
        <Router hook={hook} searchHook={searchHook}>
          <main id="main-content" tabIndex={-1}>
            <ListPage {...CONTEXT} />
          </main>
        </Router>
      </Provider>,
    );
    const next = screen.getByRole('link', { name: '下一页' });
    next.focus();
    fireEvent.click(next);
    expect(document.activeElement).toBe(document.getElementById('main-content'));
  });

  it('leaves page 1’s article addresses plain, and keeps a page’s own query (党建风采)', () => {
    mockApi.lists['23:1:10'] = pageOf([summary(11, 1)], 1, 12);
    const { unmount } = renderAt('/news_center/notice', <ListPage {...CONTEXT} />);
    expect(screen.getByRole('link', { name: '通知第 11 号' })).toHaveAttribute('href', '/portal/article/11');
    unmount();
    mockApi.lists['23:2:10'] = pageOf([summary(13, 1)], 2, 12);
    renderAt('/news_center/notice?page=2', <ListPage {...CONTEXT} hrefOf={(a) => partyDetailHref(a.id)} />);
    expect(screen.getByRole('link', { name: '通知第 13 号' })).toHaveAttribute('href', '/portal/party/detail?id=13&listPage=2');
  });

  it('shows 信访举报 under the list when the app adds it', () => {
    mockApi.lists['23:1:10'] = pageOf([summary(11, 1)]);
    renderAt(
      '/party-construction/clean-honest',
      <ListPage {...CONTEXT} extras={{ whistleblowing: { phone: '0874-6288 5312', email: '', address: '', hours: '', website: '' } }} />,
    );
    expect(screen.getByRole('region', { name: '信访举报' })).toHaveTextContent('0874-6288 5312');
  });
});

describe('a single page', () => {
  it('ends with the business call to action when the app adds it, once its article is there', () => {
    const context: ContentPageProps = {
      ...CONTEXT,
      path: '/business/China-Europe_train',
      category: { id: 31, name: '中欧班列', url: '/business/China-Europe_train', type: 'page' },
      extras: { contact: { hotline: '400-687-5200', bookingUrl: 'https://ebooking.example.com/' } },
    };
    const { unmount, container } = renderAt('/business/China-Europe_train', <SinglePage {...context} />);
    expect(screen.queryByRole('region', { name: '业务咨询' })).toBeNull();
    expect(container.querySelector('.lead .skeleton-line')).not.toBeNull();
    unmount();
    mockApi.lists['31:1:1'] = pageOf([summary(1031, 1, 31)]);
    mockApi.articles[1031] = { id: 1031, categoryId: 31, title: '中欧班列', summary: '常态化开行', content: '<p>正文</p>' };
    renderAt('/business/China-Europe_train', <SinglePage {...context} />);
    expect(screen.getByText('常态化开行')).toHaveClass('lead');
    expect(screen.getByRole('link', { name: /咨询热线：400-687-5200/ })).toHaveAttribute('href', 'tel:4006875200');
    expect(screen.getByRole('link', { name: '在线订舱' })).toBeInTheDocument();
  });
});

describe('charts in an article', () => {
  it('are marked (a wide SVG in a figure) to scale to the column and open in the 大图 view; photos and gallery images are not charts', () => {
    const content =
      '<figure><img src="/portal/api/files/figures/throughput.svg" alt="吞吐量" width="720" height="400"><figcaption>吞吐量</figcaption></figure>' +
      '<figure><img src="/portal/api/files/covers/train.jpg" alt="班列" width="640" height="360"></figure>' +
      '<ul class="gallery"><li><figure><img src="/portal/api/files/honors/a.svg" alt="证书" width="720" height="500"></figure></li></ul>';
    const { container } = renderAt('/article/1', <ArticleView article={{ id: 1, categoryId: 11, title: '公司简介', content }} withHeader={false} shareUrl="http://127.0.0.1/portal/article/1" />);
    const charts = container.querySelectorAll('figure.chart');
    expect(charts).toHaveLength(1);
    // No scrolling box of its own any more (issue 34): the chart is the figure's image, at the column's width.
    expect(charts[0].querySelector(':scope > img')).toHaveAttribute('alt', '吞吐量');
    expect(container.querySelector('.figure-scroll')).toBeNull();
    expect(screen.getByRole('button', { name: '查看大图：吞吐量' })).toBe(charts[0].querySelector('img'));
    expect(screen.getByRole('button', { name: '查看大图：证书' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '查看大图：班列' })).toBeNull();
  });
});

describe('tables in an article', () => {
  it('scroll in regions each named on its own: its caption, else its heading, else its number', () => {
    const content =
      '<h2>出资人</h2><table><caption>股东名单</caption><tr><td>1</td></tr></table>' +
      '<h2>主要经营指标</h2><table><tr><td>2</td></tr></table><table><tr><td>3</td></tr></table>';
    renderAt('/article/1', <ArticleView article={{ id: 1, categoryId: 101, title: '企业概况', content }} withHeader={false} shareUrl="http://127.0.0.1/portal/article/1" />);
    const names = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
    expect(names).toEqual(['表格：股东名单', '表格：主要经营指标', '表格 3：主要经营指标']);
  });
});
