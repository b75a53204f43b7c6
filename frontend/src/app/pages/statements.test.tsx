import { render, screen } from '@testing-library/react';

import type { Site } from '../../features/site';
import LegalPage from './legal-page';
import PrivacyPage from './privacy-page';

let site: Partial<Site> | undefined;
jest.mock('../../features/site', () => ({
  useGetSiteQuery: () => ({ data: site }),
}));

const props = (path: string, title: string) => ({
  path,
  title,
  categoriesLoading: false,
  breadcrumb: [{ name: title }],
  paginationLocale: 'zh-CN' as const,
  breadcrumbFor: () => [],
  urlOf: () => undefined,
  shareUrl: `http://127.0.0.1/portal${path}`,
});

describe('隐私政策', () => {
  it('says what the portal records and keeps, in the name of the configured company, with its contacts', () => {
    site = { companyName: '某某物流集团', email: 'privacy@example.org', phone: '010-1234 5678' };
    render(<PrivacyPage {...props('/privacy', '隐私政策')} />);
    expect(screen.getByRole('heading', { level: 1, name: '隐私政策' })).toBeInTheDocument();
    const text = document.body.textContent!;
    expect(text).toContain('某某物流集团重视');
    // What the gateway's access line holds, and what the app keeps in the browser.
    for (const fact of ['IP 地址', 'User-Agent', '搜索中输入的关键词', '不设置用于识别或跟踪访客的 Cookie', '本地存储', '不少于六个月'])
      expect(text).toContain(fact);
    expect(screen.getByRole('link', { name: 'privacy@example.org' })).toHaveAttribute('href', 'mailto:privacy@example.org');
    expect(screen.getByRole('link', { name: '法律声明' })).toHaveAttribute('href', '/portal/legal');
  });

  it('names no company the config does not, and shows only the contacts it sets', () => {
    site = { companyName: '', email: '', phone: '' };
    render(<PrivacyPage {...props('/privacy', '隐私政策')} />);
    expect(document.body.textContent).toContain('本网站的运营单位重视');
    expect(document.body.textContent).not.toContain('云川');
    expect(screen.queryByText('电子邮箱')).toBeNull();
  });
});

describe('法律声明', () => {
  it("states copyright in the configured company's name, with its copyright line and filings", () => {
    site = {
      companyName: '某某物流集团',
      copyright: '© 2026 某某物流集团 版权所有',
      icpNumber: '某ICP备00000001号',
      policeFilingNumber: '某公网安备00000000000001号',
      phone: '010-1234 5678',
      email: '',
    };
    render(<LegalPage {...props('/legal', '法律声明')} />);
    const text = document.body.textContent!;
    expect(text).toContain('著作权归某某物流集团所有');
    expect(text).toContain('© 2026 某某物流集团 版权所有');
    expect(text).toContain('ICP 备案号：某ICP备00000001号');
    expect(text).toContain('公安机关备案号：某公网安备00000000000001号');
    expect(screen.getByRole('link', { name: '010-1234 5678' })).toHaveAttribute('href', 'tel:01012345678');
    expect(screen.getByRole('link', { name: '隐私政策' })).toHaveAttribute('href', '/portal/privacy');
  });

  it('leaves out the filings section when none is set, and no demo name', () => {
    site = { companyName: '', copyright: '', icpNumber: '', policeFilingNumber: '', phone: '', email: '' };
    render(<LegalPage {...props('/legal', '法律声明')} />);
    expect(screen.queryByRole('heading', { name: '网站备案' })).toBeNull();
    expect(document.body.textContent).toContain('著作权归本网站的运营单位所有');
    expect(document.body.textContent).not.toContain('云川');
  });
});
