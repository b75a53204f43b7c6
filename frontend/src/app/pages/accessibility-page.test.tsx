import { render, screen } from '@testing-library/react';

import type { Site } from '../../features/site';
import AccessibilityPage from './accessibility-page';

let site: Partial<Site> | undefined;
jest.mock('../../features/site', () => ({
  useGetSiteQuery: () => ({ data: site }),
}));

const props = {
  path: '/accessibility',
  title: '无障碍声明',
  categoriesLoading: false,
  breadcrumb: [{ name: '无障碍声明' }],
  paginationLocale: 'zh-CN' as const,
  breadcrumbFor: () => [],
  urlOf: () => undefined,
  shareUrl: 'http://127.0.0.1/portal/#/accessibility',
};

describe('无障碍声明', () => {
  it("names the site's company, what the 关怀版 offers, the standards, and its e-mail and phone", () => {
    site = { companyName: '某某物流集团', email: 'a11y@example.org', phone: '010-1234 5678' };
    render(<AccessibilityPage {...props} />);
    expect(screen.getByRole('heading', { level: 1, name: '无障碍声明' })).toBeInTheDocument();
    const text = document.body.textContent!;
    expect(text).toContain('某某物流集团');
    for (const aid of ['文字大小', '页面缩放', '高对比度', '加大行距', '大鼠标', '十字线', '语音朗读', '重置']) expect(text).toContain(aid);
    for (const standard of ['GB/T 37668', '互联网网站适老化通用设计规范', 'WCAG', '2.1 AA']) expect(text).toContain(standard);
    expect(screen.getByRole('link', { name: 'a11y@example.org' })).toHaveAttribute('href', 'mailto:a11y@example.org');
    expect(screen.getByRole('link', { name: '010-1234 5678' })).toHaveAttribute('href', 'tel:01012345678');
    expect(screen.getByRole('link', { name: '联系我们' })).toHaveAttribute('href', '/portal/contact');
  });

  it('shows only the contact facts the site sets, and no company name of its own', () => {
    site = { companyName: '', email: '', phone: '0000-1' };
    render(<AccessibilityPage {...props} />);
    expect(screen.queryByText('电子邮箱')).toBeNull();
    expect(screen.getByText('联系电话')).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('云川');
  });

  it('reads without the site facts while they load', () => {
    site = undefined;
    render(<AccessibilityPage {...props} />);
    expect(screen.queryByText('联系电话')).toBeNull();
    expect(screen.getByRole('link', { name: '联系我们' })).toBeInTheDocument();
  });
});
