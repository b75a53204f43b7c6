import { render, screen, within } from '@testing-library/react';

import { InnerLayout } from './inner-layout';
import { SectionNav } from './section-nav';

const ITEMS = [
  { name: '公司要闻', url: '/news_center/company_announcement/1' },
  { name: '媒体报道', url: '/news_center/media_coverage/2' },
  { name: '通知公告', url: '/news_center/notice' },
];

describe('栏目导航', () => {
  it('is a navigation named after its section, linking each page and marking the current one', () => {
    render(<SectionNav title="新闻中心" url="/news_center" items={ITEMS} current="/news_center/notice" />);
    const nav = screen.getByRole('navigation', { name: '新闻中心栏目导航' });
    expect(within(nav).getByRole('link', { name: '新闻中心' })).toHaveAttribute('href', '/portal/news_center');
    const links = within(nav).getAllByRole('listitem').map((li) => within(li).getByRole('link'));
    expect(links.map((a) => a.textContent)).toEqual(['公司要闻', '媒体报道', '通知公告']);
    expect(links.map((a) => a.getAttribute('href'))).toEqual(ITEMS.map((i) => `/portal${i.url}`));
    expect(within(nav).getByRole('link', { name: '通知公告' })).toHaveAttribute('aria-current', 'page');
    expect(links.filter((a) => a.hasAttribute('aria-current'))).toHaveLength(1);
  });

  it('marks an article’s list as the place the page is in, not as the page', () => {
    render(<SectionNav title="新闻中心" items={ITEMS} current="/news_center/media_coverage/2" currentKind="true" />);
    expect(screen.getByRole('link', { name: '媒体报道' })).toHaveAttribute('aria-current', 'true');
    // No group page: the section's name is text.
    expect(screen.queryByRole('link', { name: '新闻中心' })).toBeNull();
    expect(screen.getByText('新闻中心')).toBeInTheDocument();
  });
});

describe('the inner layout', () => {
  it('puts the navigation beside the page, and is nothing without one', () => {
    const { container, rerender } = render(
      <InnerLayout nav={<nav aria-label="x" />}>
        <p>正文</p>
      </InnerLayout>,
    );
    expect(container.querySelector('.inner-layout > .inner-layout__nav > nav')).not.toBeNull();
    expect(container.querySelector('.inner-layout > .inner-layout__main')).toHaveTextContent('正文');
    rerender(<InnerLayout>{<p>正文</p>}</InnerLayout>);
    expect(container.querySelector('.inner-layout')).toBeNull();
    expect(container).toHaveTextContent('正文');
  });

  it('keeps the column (and, while pending, the phone row) for a navigation still to come', () => {
    const { container, rerender } = render(
      <InnerLayout reserve pending>
        <p>正文</p>
      </InnerLayout>,
    );
    expect(container.querySelector('.inner-layout.inner-layout--pending > .inner-layout__nav')).toBeEmptyDOMElement();
    rerender(
      <InnerLayout reserve nav={<nav aria-label="x" />}>
        <p>正文</p>
      </InnerLayout>,
    );
    expect(container.querySelector('.inner-layout')).not.toHaveClass('inner-layout--pending');
  });
});
