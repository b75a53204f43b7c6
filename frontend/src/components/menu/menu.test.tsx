import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { Menu } from './menu';
import type { MenuItem } from './types';

const items: MenuItem[] = [
  {
    key: '1',
    name: '走进我们',
    url: '/about',
    children: [
      { key: '11', name: '公司简介', url: '/about/company_profile', children: [] },
      { key: '12', name: '荣誉资质', url: '/about/honor', children: [] },
    ],
  },
  { key: '2', name: '新闻中心', url: '/news_center', children: [{ key: '21', name: '公司要闻', url: '/news_center/company_announcement/1', children: [] }] },
  { key: '8', name: '发展历程', url: '/development_history', children: [] },
];

const flushFrames = () => act(() => new Promise((r) => requestAnimationFrame(() => r(null))));

describe('menu', () => {
  it('opens sub-menus by keyboard and closes them with Escape', async () => {
    const user = userEvent.setup();
    render(<Menu items={items} currentPath="/" />);
    const about = screen.getByRole('button', { name: '走进我们' });
    expect(about).toHaveAttribute('aria-expanded', 'false');
    await user.tab();
    expect(about).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(about).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: '公司简介' })).toBeVisible();
    await user.keyboard('{Escape}');
    expect(about).toHaveAttribute('aria-expanded', 'false');

    await user.keyboard('{ArrowDown}');
    await flushFrames();
    expect(screen.getByRole('link', { name: '公司简介' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: '荣誉资质' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: '公司简介' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(about).toHaveFocus();
    expect(about).toHaveAttribute('aria-expanded', 'false');

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: '新闻中心' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('link', { name: '发展历程' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(about).toHaveFocus();
  });

  it('marks the current page and its group', () => {
    render(<Menu items={items} currentPath="/about/honor" />);
    const link = screen.getByText('荣誉资质');
    expect(link).toHaveAttribute('aria-current', 'page');
    expect(link).toHaveAttribute('href', '/portal/about/honor');
    expect(screen.getByRole('button', { name: '走进我们' }).closest('li')).toHaveClass('is-current');
  });
});

describe('menu with a mouse', () => {
  it('a click after hovering keeps the sub-menu open; a second click closes it', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({ matches: query === '(hover: hover)' })) as unknown as typeof window.matchMedia;
    const user = userEvent.setup();
    render(<Menu items={items} currentPath="/" />);
    const news = screen.getByRole('button', { name: '新闻中心' });
    await user.hover(news);
    expect(news).toHaveAttribute('aria-expanded', 'true');
    await user.click(news);
    expect(news).toHaveAttribute('aria-expanded', 'true');
    await user.click(news);
    expect(news).toHaveAttribute('aria-expanded', 'false');
    window.matchMedia = matchMedia;
  });
});
