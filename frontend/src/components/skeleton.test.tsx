import { render, screen } from '@testing-library/react';

import { ArticleSkeleton, ContentRegion, ListSkeleton, PageHeader, PageSkeleton } from './skeleton';

describe('content placeholders', () => {
  it('a list: N items of a title, a summary and a date line, hidden from screen readers', () => {
    const { container } = render(<ListSkeleton lines={10} />);
    const list = container.querySelector('ul.skeleton-list')!;
    expect(list).toHaveAttribute('aria-hidden', 'true');
    const items = list.querySelectorAll(':scope > li.skeleton-list__item');
    expect(items).toHaveLength(10);
    items.forEach((item) => {
      expect(item.querySelectorAll('.skeleton-list__title .skeleton-line, .skeleton-list__summary .skeleton-line, .skeleton-list__meta .skeleton-line')).toHaveLength(3);
    });
  });

  it('a busy region says so (aria-busy and one 正在加载), then holds the content', () => {
    const { container, rerender } = render(
      <ContentRegion busy placeholder={<ListSkeleton lines={3} />}>
        <p>文章列表</p>
      </ContentRegion>,
    );
    const region = container.querySelector('.content-region')!;
    expect(region).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('正在加载…');
    expect(screen.queryByText('文章列表')).toBeNull();
    rerender(
      <ContentRegion busy={false} placeholder={<ListSkeleton lines={3} />}>
        <p>文章列表</p>
      </ContentRegion>,
    );
    expect(container.querySelector('.content-region')).toHaveAttribute('aria-busy', 'false');
    expect(container.querySelector('.skeleton')).toBeNull();
    expect(screen.getByText('文章列表')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a list page while its script loads: the real breadcrumb, heading and lead, ten placeholder items', () => {
    const { container } = render(
      <PageSkeleton kind="list" breadcrumb={[{ name: '新闻中心', url: '/news_center' }, { name: '通知公告' }]} title="通知公告" lead="招标、招聘及其他公告" />,
    );
    expect(screen.getByRole('heading', { level: 1, name: '通知公告' })).toBeInTheDocument();
    expect(screen.getByText('招标、招聘及其他公告')).toHaveClass('lead');
    expect(screen.getByRole('navigation', { name: '当前位置' })).toHaveTextContent('新闻中心');
    expect(container.querySelectorAll('.skeleton-list__item')).toHaveLength(10);
    expect(container.querySelector('.content-region')).toHaveAttribute('aria-busy', 'true');
  });

  it('a single page: heading, a lead line to come and paragraph lines', () => {
    const { container } = render(<PageSkeleton kind="single" title="公司简介" />);
    expect(screen.getByRole('heading', { level: 1, name: '公司简介' })).toBeInTheDocument();
    expect(container.querySelector('.lead .skeleton-line')).not.toBeNull();
    expect(container.querySelectorAll('.skeleton-body p').length).toBeGreaterThan(1);
  });

  it('an article: a title block and paragraphs, and no heading until the real one comes', () => {
    const { container } = render(<ArticleSkeleton />);
    expect(container.querySelector('article')).toHaveAttribute('aria-busy', 'true');
    expect(container.querySelector('.skeleton-article-header__title .skeleton-line')).not.toBeNull();
    expect(container.querySelectorAll('.skeleton-body p').length).toBeGreaterThan(2);
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('a page header shows its lead, or a placeholder for it while it is to come', () => {
    const { container, rerender } = render(<PageHeader title="中欧班列" leadPending />);
    expect(container.querySelector('.lead .skeleton-line')).not.toBeNull();
    rerender(<PageHeader title="中欧班列" lead="常态化开行" />);
    expect(container.querySelector('.lead')).toHaveTextContent('常态化开行');
    rerender(<PageHeader title="中欧班列" />);
    expect(container.querySelector('.lead')).toBeNull();
  });
});
