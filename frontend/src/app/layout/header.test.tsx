import { render, screen, within } from '@testing-library/react';

import { Header } from './header';

// wouter ships ES modules only; the box needs just its navigate.
jest.mock('wouter', () => ({ useLocation: () => ['/', jest.fn()] }));
// The language switch reads /site from the store, which these tests do not provide.
jest.mock('./language-switch', () => ({ LanguageSwitch: () => null }));

describe('header search box', () => {
  it('is there while the CMS searches (desktop strip and phone menu)', () => {
    render(<Header companyName="云川陆港" items={[]} currentPath="/" search />);
    expect(screen.getAllByRole('search')).toHaveLength(2);
    expect(screen.getAllByRole('searchbox', { name: '站内搜索' })).toHaveLength(2);
  });

  it('is gone when /site says the CMS has no search', () => {
    render(<Header companyName="云川陆港" items={[]} currentPath="/" search={false} />);
    expect(screen.queryByRole('search')).toBeNull();
    // 关怀版 stays: one entry, in the strip above the menu, which phones show too (reading.css).
    expect(document.querySelectorAll('summary.reading__toggle')).toHaveLength(1);
    expect(document.querySelector('.site-header__tools summary')).toHaveTextContent('关怀版');
  });
});

describe('the phone menu', () => {
  it('starts with 首页, marked when the visitor is there (the review: a phone menu without it)', () => {
    const { unmount } = render(<Header companyName="云川陆港" items={[]} currentPath="/" search={false} />);
    const menu = document.getElementById('site-nav')!;
    const home = within(menu).getByRole('link', { name: '首页' });
    expect(home).toHaveAttribute('href', '/portal/');
    expect(home).toHaveAttribute('aria-current', 'page');
    expect(menu.firstElementChild).toBe(home);
    unmount();
    render(<Header companyName="云川陆港" items={[]} currentPath="/about" search={false} />);
    expect(within(document.getElementById('site-nav')!).getByRole('link', { name: '首页' })).not.toHaveAttribute('aria-current');
  });
});

describe('the desktop menu row', () => {
  const item = (n: number) => ({ key: `s${n}`, name: `栏目${n}`, url: `/s${n}`, children: [] });
  it('is its own from eight top-level sections, by a class the render writes (not a count the stylesheet makes while the HTML arrives)', () => {
    const { container, unmount } = render(<Header companyName="云川陆港" items={[1, 2, 3, 4, 5, 6, 7].map(item)} currentPath="/" />);
    expect(container.querySelector('.site-header__inner')).not.toHaveClass('site-header__inner--menu-row');
    unmount();
    const eight = render(<Header companyName="云川陆港" items={[1, 2, 3, 4, 5, 6, 7, 8].map(item)} currentPath="/" />);
    expect(eight.container.querySelector('.site-header__inner')).toHaveClass('site-header__inner--menu-row');
  });
});
