import { render, screen, within } from '@testing-library/react';

import type { Site } from '../../features/site';
import type { Service } from '../../lib/api-types';
import { setLocale } from '../../lib/locale';
import { withPageNumber } from '../page-title';
import { ROUTES, routeName, routeTrail } from '../routes';
import { sectionOf } from '../sections';
import { shortcutsFor } from '../service-shortcuts';
import { withServices } from '../services';
import { Footer } from './footer';
import { Header } from './header';
import { SkipLink } from './layout';
import { menuFromRoutes } from './menu-items';

// wouter ships ES modules only; the header needs just the location.
jest.mock('wouter', () => ({ useLocation: () => ['/', jest.fn()] }));
// The header's parts written elsewhere (关怀版, the search box, the language switch) are tested there.
jest.mock('../../features/reading', () => ({ ReadingToolbar: () => null }));
jest.mock('../../features/search', () => ({ SearchBox: () => null }));
jest.mock('./language-switch', () => ({ LanguageSwitch: () => null }));

/** Chinese characters and full-width punctuation: none may show on an English page. */
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

/** Everything a visitor reads or hears of `root`: its text and its labelling attributes. */
function everything(root: Element): string {
  const attrs = Array.from(root.querySelectorAll('*')).flatMap((el) => ['aria-label', 'alt', 'title'].map((name) => el.getAttribute(name) ?? ''));
  return [root.textContent ?? '', ...attrs].join('\n');
}

/** An English site's facts, as the gateway gives them to an English page. */
const SITE: Site = {
  companyName: 'Yunchuan Land Port International Logistics Group',
  shortName: 'Yunchuan Land Port',
  loginUrl: 'https://sso.example.com/login',
  address: '88 Hub Avenue, Land Port New District, Yunchuan',
  phone: '+86 874 6288 5200',
  email: 'service@yclandport.com.cn',
  postcode: '600000',
  icpNumber: 'ICP 20260001-1',
  icpUrl: 'https://beian.miit.gov.cn/',
  copyright: '',
  paginationLocale: 'zh-CN',
  lang: 'en',
  languages: [],
  publicUrl: 'http://127.0.0.1:8080',
  search: true,
  policeFilingNumber: 'Public Security Filing 60010002000088',
  policeFilingUrl: '',
  mourning: false,
  hotline: '',
  bookingUrl: '',
  whistleblowing: { phone: '+86 874 6288 5312', email: '', address: '', hours: '', website: '' },
  figures: [],
  partners: [],
  services: [],
  links: [{ name: 'China Railway', url: 'https://www.12306.cn/' }],
  wechat: { name: 'Yunchuan Land Port', account: 'yclandport', qrImage: '/qr.png' },
  contact: { hours: '', departments: [], mapImage: '', mapAlt: '', directions: [] },
};

beforeEach(() => setLocale('en'));
afterEach(() => setLocale('zh'));

describe('the layout on an English page', () => {
  it('header: menu toggle, home link and the menu of route names', () => {
    const { container } = render(<Header companyName="" items={menuFromRoutes(ROUTES)} currentPath="/" />);
    expect(everything(container)).not.toMatch(CJK);
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    const menu = document.getElementById('site-nav')!;
    expect(within(menu).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/portal/en/');
    expect(screen.getAllByRole('link', { name: 'Home' })).toHaveLength(2);
    expect(within(menu).getByRole('button', { name: 'About Us' })).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'China-Europe Railway Express', hidden: true })).toHaveAttribute(
      'href',
      '/portal/en/business/China-Europe_train',
    );
  });

  it('footer: labels, links, the copyright line and the skip link', () => {
    const { container } = render(
      <>
        <SkipLink />
        <Footer site={SITE} liaison careers />
      </>,
    );
    expect(everything(container)).not.toMatch(CJK);
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toBeInTheDocument();
    const links = screen.getByRole('navigation', { name: 'Footer' });
    for (const [name, path] of [
      ['Site Map', '/sitemap'],
      ['Contact Us', '/contact'],
      ['Report Misconduct', '/whistleblowing'],
      ['Cooperation', '/liaison'],
      ['Careers', '/careers'],
      ['Accessibility Statement', '/accessibility'],
      ['Legal Notice', '/legal'],
      ['Privacy Policy', '/privacy'],
    ]) {
      expect(within(links).getByRole('link', { name })).toHaveAttribute('href', `/portal/en${path}`);
    }
    expect(screen.getByRole('navigation', { name: 'Links' })).toBeInTheDocument();
    expect(container).toHaveTextContent('Address: 88 Hub Avenue');
    expect(container).toHaveTextContent('Tel: +86 874 6288 5200');
    expect(container).toHaveTextContent('WeChat ID: yclandport');
    expect(screen.getByRole('img', { name: 'QR code of the WeChat official account “Yunchuan Land Port”' })).toBeInTheDocument();
    expect(container).toHaveTextContent(`${SITE.companyName}. All rights reserved.`);
    expect(screen.getByRole('link', { name: 'Back to top' })).toHaveAttribute('href', '#top');
  });
});

describe('route names and the lists made of them on an English page', () => {
  it('gives every route of the table an English name', () => {
    const all = (routes: typeof ROUTES): typeof ROUTES => routes.flatMap((r) => [r, ...all(r.routes ?? [])]);
    const names = all(ROUTES).map(routeName);
    expect(names.filter((n) => CJK.test(n) || n.trim() === '')).toEqual([]);
    expect(routeTrail('/services/timetable').map(routeName)).toEqual(['Customer Services', 'Routes and Timetable']);
    setLocale('zh');
    expect(routeTrail('/services/timetable').map(routeName)).toEqual(['客户服务', '班列线路与时刻']);
  });

  it('the fallback menu, a section’s navigation, 客户服务 and a page number', () => {
    expect(menuFromRoutes(ROUTES).map((m) => m.name)).toEqual([
      'About Us',
      'News',
      'Business',
      'Customer Services',
      'Party Building and Trade Union',
      'Cooperation',
      'Information Disclosure',
      'Social Responsibility',
    ]);
    expect(sectionOf([], '/news_center/notice')).toEqual({
      name: 'News',
      url: '/news_center',
      items: [
        { name: 'Company News', url: '/news_center/company_announcement/1' },
        { name: 'Media Coverage', url: '/news_center/media_coverage/2' },
        { name: 'Notices', url: '/news_center/notice' },
      ],
    });
    const track: Service = { name: 'Cargo Tracking', icon: 'track', url: 'https://track.example.com/', description: '' };
    const menu = withServices([{ key: '1', name: 'About Us', url: '/about', children: [] }], [track]);
    expect(menu.map((m) => m.name)).toEqual(['About Us', 'Customer Services']);
    expect(withPageNumber('Notices', 2)).toBe('Notices (Page 2)');
  });

  it('search shortcuts: English words lead to the service pages, named and described in English', () => {
    const contact = shortcutsFor('Phone number', [], SITE);
    expect(contact[0]).toMatchObject({ path: '/contact', name: 'Contact Us' });
    expect(shortcutsFor('report', [], SITE).map((s) => s.path)).toContain('/whistleblowing');
    expect(shortcutsFor('privacy', [], SITE)[0]).toMatchObject({ path: '/privacy', name: 'Privacy Policy' });
    const all = ['contact', 'report', 'accessibility', 'privacy', 'copyright', 'sitemap'].flatMap((w) => shortcutsFor(w, [], SITE));
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(all.flatMap((s) => [s.name, s.description ?? '']).filter((t) => CJK.test(t))).toEqual([]);
    // A logistics company's visitors search for logistics: no page about logs.
    expect(shortcutsFor('logistics', [], SITE)).toEqual([]);
  });
});
