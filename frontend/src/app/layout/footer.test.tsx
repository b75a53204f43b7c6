import { render, screen } from '@testing-library/react';

import type { Site } from '../../features/site';
import { Footer } from './footer';

const SITE: Site = {
  companyName: '云川陆港国际物流集团有限公司',
  shortName: '云川陆港',
  loginUrl: 'https://sso.example.com/login',
  address: '云川市陆港新区枢纽大道 88 号',
  phone: '0874-6288 5200',
  email: 'service@yclandport.com.cn',
  postcode: '600000',
  icpNumber: '云ICP备20260001号-1',
  icpUrl: 'https://beian.miit.gov.cn/',
  copyright: '云川陆港国际物流集团有限公司 版权所有',
  paginationLocale: 'zh-CN',
  lang: 'zh',
  languages: [],
  publicUrl: 'http://127.0.0.1:8080',
  search: true,
  policeFilingNumber: '',
  policeFilingUrl: '',
  mourning: false,
  hotline: '',
  bookingUrl: '',
  whistleblowing: { phone: '', email: '', address: '', hours: '', website: '' },
  figures: [],
  partners: [],
  services: [],
  links: [],
  wechat: { name: '', account: '', qrImage: '' },
  contact: { hours: '', departments: [], mapImage: '', mapAlt: '', directions: [] },
};

describe('footer', () => {
  it('shows no 公安备案 line while the number is unset, and the links to 网站地图, 联系我们 and the statements', () => {
    const { container } = render(<Footer site={{ ...SITE, policeFilingNumber: '' }} />);
    expect(container.querySelector('.site-footer__filing')).toBeNull();
    expect(screen.getByRole('link', { name: '网站地图' })).toHaveAttribute('href', '/portal/sitemap');
    expect(screen.getByRole('link', { name: '联系我们' })).toHaveAttribute('href', '/portal/contact');
    expect(screen.getByRole('link', { name: '法律声明' })).toHaveAttribute('href', '/portal/legal');
    expect(screen.getByRole('link', { name: '隐私政策' })).toHaveAttribute('href', '/portal/privacy');
  });

  it('links 人才招聘 only when the CMS has that section', () => {
    const { rerender } = render(<Footer site={SITE} />);
    expect(screen.queryByRole('link', { name: '人才招聘' })).toBeNull();
    rerender(<Footer site={SITE} careers />);
    expect(screen.getByRole('link', { name: '人才招聘' })).toHaveAttribute('href', '/portal/careers');
  });

  it('shows the number with its emblem, linked when a URL is set and as text when not', () => {
    const number = '云公网安备60010002000088号';
    const url = 'https://beian.mps.gov.cn/#/query/webSearch?code=60010002000088';
    const { container, rerender } = render(<Footer site={{ ...SITE, policeFilingNumber: number, policeFilingUrl: url }} />);
    expect(screen.getByRole('link', { name: number })).toHaveAttribute('href', url);
    expect(container.querySelector('.site-footer__filing svg')).not.toBeNull();
    rerender(<Footer site={{ ...SITE, policeFilingNumber: number, policeFilingUrl: '' }} />);
    expect(screen.queryByRole('link', { name: number })).toBeNull();
    expect(screen.getByText(number)).toBeInTheDocument();
  });

  it('shows only what the config gives: a site that names only its company has no address, phone or numbers', () => {
    const bare: Site = {
      ...SITE,
      companyName: '蓝海联运物流有限公司',
      shortName: '',
      address: '',
      phone: '',
      email: '',
      postcode: '',
      icpNumber: '',
      copyright: '',
      loginUrl: '',
    };
    const { container } = render(<Footer site={bare} />);
    expect(container.querySelector('address')).toBeNull();
    expect(container.textContent).toContain('蓝海联运物流有限公司 版权所有');
    for (const fact of ['云川', '枢纽大道', '0874-6288 5200', 'example.com', 'ICP', '邮编', '电话']) {
      expect(container.textContent).not.toContain(fact);
    }
  });

  it('dates its © by the year in China, whatever the machine’s time zone (the server and the browser agree)', () => {
    // 1 January 2027, 01:00 in Beijing: still 2026 in UTC, where the gateway may run.
    jest.useFakeTimers({ now: new Date('2026-12-31T17:00:00Z') });
    try {
      render(<Footer site={SITE} />);
      expect(screen.getByText(/^©/)).toHaveTextContent(`© 2027 ${SITE.copyright}`);
    } finally {
      jest.useRealTimers();
    }
  });

  it('links 信访举报 only when the site has a way to report, and shows 友情链接 and 微信公众号 only when set', () => {
    const { container, rerender } = render(<Footer site={SITE} />);
    expect(screen.queryByRole('link', { name: '信访举报' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: '友情链接' })).toBeNull();
    expect(container.querySelector('.site-footer__wechat')).toBeNull();
    rerender(
      <Footer
        site={{
          ...SITE,
          whistleblowing: { phone: '', email: 'jijian@example.com', address: '', hours: '工作日', website: '' },
          links: [{ name: '国务院国有资产监督管理委员会', url: 'http://www.sasac.gov.cn/' }],
          wechat: { name: '云川陆港', account: 'yclandport', qrImage: '/portal/api/files/site/wechat-qr.svg' },
        }}
      />,
    );
    expect(screen.getByRole('link', { name: '信访举报' })).toHaveAttribute('href', '/portal/whistleblowing');
    const friends = screen.getByRole('navigation', { name: '友情链接' });
    expect(friends.querySelector('a')).toHaveAttribute('href', 'http://www.sasac.gov.cn/');
    expect(friends.querySelector('a')).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('img', { name: '微信公众号“云川陆港”的二维码' })).toHaveAttribute('src', '/portal/api/files/site/wechat-qr.svg');
    expect(container.querySelector('.site-footer__wechat')).toHaveTextContent('微信号：yclandport');
    // Reception hours alone are no way to report: no link.
    rerender(<Footer site={{ ...SITE, whistleblowing: { phone: '', email: '', address: '', hours: '工作日', website: '' } }} />);
    expect(screen.queryByRole('link', { name: '信访举报' })).toBeNull();
  });
});

describe('返回顶部', () => {
  it('ends every page with a way back to its top that needs no script', () => {
    render(<Footer site={SITE} />);
    expect(screen.getByRole('link', { name: '返回顶部' })).toHaveAttribute('href', '#top');
  });
});
