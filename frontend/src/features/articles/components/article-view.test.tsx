import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { Article } from '../api';
import { partyDetailHref } from '../pages/party-page';
import { ArticleView } from './article-view';

const ARTICLE: Article = {
  id: 7,
  categoryId: 21,
  title: '回程班列',
  content:
    '<p>详见<a href="/portal/article/6">上一篇</a>、<a href="/portal/api/files/a.pdf">附件</a>与<a href="https://example.com/">外部</a>。</p>',
};

const SHARE = 'https://www.example.com/portal/article/7';

describe('article view', () => {
  it('keeps links to another article on its real URL, and other links as they are', () => {
    render(<ArticleView article={ARTICLE} withHeader={false} shareUrl={SHARE} />);
    expect(screen.getByRole('link', { name: '上一篇' })).toHaveAttribute('href', '/portal/article/6');
    expect(screen.getByRole('link', { name: '附件' })).toHaveAttribute('href', '/portal/api/files/a.pdf');
    expect(screen.getByRole('link', { name: '外部' })).toHaveAttribute('href', 'https://example.com/');
  });

  it('uses the page’s own article addresses where it has them (党建风采)', () => {
    render(<ArticleView article={ARTICLE} withHeader={false} shareUrl={SHARE} hrefOf={partyDetailHref} />);
    expect(screen.getByRole('link', { name: '上一篇' })).toHaveAttribute('href', '/portal/party/detail?id=6');
  });

  it('gives each scrolling table region a name of its own: its caption, else its number', () => {
    const tables = '<table><caption>股东</caption><tr><td>1</td></tr></table><table><tr><td>2</td></tr></table>';
    render(<ArticleView article={{ ...ARTICLE, content: tables }} withHeader={false} shareUrl={SHARE} />);
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual(['表格：股东', '表格 2']);
    const one = render(<ArticleView article={{ ...ARTICLE, id: 8, content: '<table><tr><td>3</td></tr></table>' }} withHeader={false} shareUrl={SHARE} />);
    expect(one.container.querySelector('.table-scroll')).toHaveAttribute('aria-label', '表格');
  });

  it('copies and prints the address it is given (the public one), not the address bar’s', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    window.history.pushState(null, '', '/portal/article/7?listPage=2');
    render(<ArticleView article={ARTICLE} withHeader={false} shareUrl={SHARE} />);
    await userEvent.click(screen.getByRole('button', { name: '复制链接' }));
    expect(writeText).toHaveBeenCalledWith(SHARE);
    expect(await screen.findByRole('status')).toHaveTextContent('链接已复制');
    expect(screen.getByText(`本文链接：${SHARE}`)).toBeInTheDocument();
    Reflect.deleteProperty(navigator, 'clipboard');
    window.history.pushState(null, '', '/');
  });
});
