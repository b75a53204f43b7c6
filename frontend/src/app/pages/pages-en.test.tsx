// The app's own pages on the English portal (`/portal/en/…`): every word the app writes is English.
// What the CMS and the config would give (names, titles, the company) is given here in English.
import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';

import type { ArticleSummary } from '../../features/articles';
import type { Category } from '../../features/categories';
import type { Site } from '../../features/site';
import { setLocale } from '../../lib/locale';
import { category } from '../../test/categories';
import { makeStore } from '../store';
import AccessibilityPage from './accessibility-page';
import ContactPage from './contact-page';
import GroupPage from './group-page';
import HomePage from './home-page';
import LegalPage from './legal-page';
import PrivacyPage from './privacy-page';
import SitemapPage from './sitemap-page';
import WhistleblowingPage from './whistleblowing-page';

const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

let mockSite: Partial<Site> | undefined;
let mockTree: Category[] = [];
jest.mock('../../features/site', () => ({
  ...jest.requireActual('../../features/site'),
  useGetSiteQuery: () => ({ data: mockSite, isLoading: false }),
  useMourning: () => false,
}));
jest.mock('../../features/categories', () => ({
  ...jest.requireActual('../../features/categories'),
  useGetCategoriesQuery: () => ({ data: mockTree, isLoading: false, isError: false }),
}));
jest.mock('../../features/articles', () => ({
  ...jest.requireActual('../../features/articles'),
  useGetArticlesQuery: (args: { categoryId: number }, options?: { skip?: boolean }) =>
    options?.skip ? { data: undefined, isLoading: false } : { data: mockList(args.categoryId), isLoading: false },
}));
// The home page's header and footer are the layout's (tested with it).
jest.mock('../layout/layout', () => ({
  CompanyTitle: () => null,
  SiteHeader: () => null,
  SiteFooter: () => null,
  useCompanyName: () => 'Tongda Land Port Group',
}));

function mockList(categoryId: number) {
  const content: ArticleSummary[] = [1, 2, 3].map((n) => ({
    id: categoryId * 100 + n,
    categoryId,
    title: `Story ${n} of section ${categoryId}`,
    summary: 'A train left for Europe.',
    publishTime: `2026-11-0${n} 09:00:00`,
    ...(n < 3 ? { cover: `/files/cover-${n}.jpg` } : {}),
    ...(n === 1 ? { lead: true } : {}),
  }));
  return { content, totalElements: 1234, totalPages: 412, page: 1, size: 3 };
}

const list = (id: number, parentId: number, name: string, url: string): Category => ({
  ...category(id, parentId, name, url),
  type: 'list',
  description: `All of ${name}`,
});
const page = (id: number, parentId: number, name: string, url: string): Category => ({
  ...category(id, parentId, name, url),
  type: 'page',
});

const TREE: Category[] = [
  {
    ...category(1, 0, 'News', '/news_center', [
      list(11, 1, 'Company News', '/news_center/company_announcement/1'),
      list(12, 1, 'Media Coverage', '/news_center/media_coverage/2'),
      list(13, 1, 'Notices', '/news_center/notice'),
    ]),
    type: 'group',
  },
  { ...category(2, 0, 'About Us', '/about', [page(21, 2, 'Promotional Video', '/about/promotional-video')]), type: 'group' },
  { ...category(3, 0, 'Business', '/business', [page(31, 3, 'Rail Freight', '/business/China-Europe_train')]), type: 'group' },
  { ...category(4, 0, 'Customer Services', '/services'), type: 'group' },
  {
    ...category(5, 0, 'Party and Union', '/party-construction', [
      list(51, 5, 'Party Activities', '/party-construction/party-building-activities'),
      list(52, 5, 'Clean and Honest', '/party-construction/clean-honest'),
    ]),
    type: 'group',
  },
  { ...category(6, 0, 'Disclosure', '/disclosure', [list(61, 6, 'Major Events', '/disclosure/major_events')]), type: 'group' },
  { ...category(7, 0, 'Topics', '/topics', [list(71, 7, 'Ten Years', '/topics/decade')]), type: 'group', hidden: true },
  { ...category(8, 0, 'Liaison', '/liaison', [page(81, 8, 'Friendly Cooperation', '/liaison/friendly-cooperation')]), type: 'group' },
];

const SITE: Partial<Site> = {
  companyName: 'Tongda Land Port Group',
  shortName: 'Tongda',
  email: 'info@example.org',
  phone: '010-1234 5678',
  hotline: '400-000 0000',
  address: '1 Port Road, Tongda',
  postcode: '100000',
  icpNumber: 'ICP 00000001',
  policeFilingNumber: 'PSB 00000000000001',
  copyright: '© 2026 Tongda Land Port Group',
  figures: [{ value: '1,200', label: 'Trains a year' }],
  partners: [{ name: 'Euro Rail', url: 'https://rail.example.org' }],
  services: [{ name: 'Track a container', icon: 'track', url: 'https://track.example.org', description: 'Where your box is' }],
  contact: {
    hours: 'Weekdays 8:30–17:30',
    departments: [{ name: 'Freight Sales', duties: 'Bookings and rates', phone: '010-1111 2222', email: 'sales@example.org' }],
    media: { name: 'Press Office', duties: 'Interviews', phone: '010-3333 4444', email: 'press@example.org' },
    mapImage: '/files/map.png',
    mapAlt: 'Map of the port',
    directions: ['Metro Line 2 to Port Road, exit B'],
  },
  whistleblowing: { phone: '010-12388', email: 'integrity@example.org', address: 'PO Box 1, Tongda', hours: 'Weekdays', website: 'https://www.example.org' },
};

const props = (path: string, title: string) => ({
  path,
  title,
  categoriesLoading: false,
  breadcrumb: [{ name: title }],
  paginationLocale: 'en' as const,
  breadcrumbFor: () => [],
  urlOf: () => undefined,
  shareUrl: `http://127.0.0.1/portal/en${path}`,
});

/** No CJK in the text nor in what is heard or hovered. */
function expectEnglish(container: HTMLElement) {
  expect(container.textContent).not.toMatch(CJK);
  for (const el of container.querySelectorAll('*')) {
    for (const attribute of ['aria-label', 'title', 'alt', 'placeholder']) expect(el.getAttribute(attribute) ?? '').not.toMatch(CJK);
  }
}

beforeEach(() => {
  setLocale('en');
  mockSite = SITE;
  mockTree = TREE;
});
afterEach(() => setLocale('zh'));

describe('the statements in English', () => {
  it('无障碍声明: Accessibility mode, the keyboard, the standards and whom to ask', () => {
    const { container } = render(<AccessibilityPage {...props('/accessibility', 'Accessibility Statement')} />);
    expectEnglish(container);
    const text = container.textContent!;
    expect(text).toContain('Tongda Land Port Group wants every visitor');
    expect(screen.getByRole('heading', { level: 2, name: 'What Accessibility mode offers' })).toBeInTheDocument();
    for (const aid of ['Text size', 'Page zoom', '150%', 'High contrast', 'Read aloud', 'Reset']) expect(text).toContain(aid);
    expect(text).toContain('Web Content Accessibility Guidelines (WCAG) 2.1, Level AA');
    expect(screen.getByText('Email')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/portal/en/contact');
  });

  it('法律声明: copyright in the company’s name, its filings and the law that applies', () => {
    const { container } = render(<LegalPage {...props('/legal', 'Legal Notice')} />);
    expectEnglish(container);
    const text = container.textContent!;
    expect(text).toContain('belongs to Tongda Land Port Group');
    expect(text).toContain('Copyright Law of the People’s Republic of China');
    expect(text).toContain('ICP registration number: ICP 00000001');
    expect(text).toContain('Public security filing number: PSB 00000000000001');
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/portal/en/privacy');
  });

  it('隐私政策: what is recorded and kept, and the visitor’s rights', () => {
    const { container } = render(<PrivacyPage {...props('/privacy', 'Privacy Policy')} />);
    expectEnglish(container);
    const text = container.textContent!;
    expect(text).toContain('Tongda Land Port Group is committed to protecting');
    for (const fact of ['IP address', 'User-Agent', 'no less than six months', 'Cybersecurity Law', 'Personal Information Protection Law'])
      expect(text).toContain(fact);
    expect(screen.getByRole('link', { name: 'Legal notice' })).toHaveAttribute('href', '/portal/en/legal');
  });

  it('names no company the config does not, in English', () => {
    mockSite = { companyName: '', email: '', phone: '', icpNumber: '', policeFilingNumber: '', copyright: '' };
    const views = [
      render(<AccessibilityPage {...props('/accessibility', 'Accessibility Statement')} />),
      render(<LegalPage {...props('/legal', 'Legal Notice')} />),
      render(<PrivacyPage {...props('/privacy', 'Privacy Policy')} />),
    ];
    for (const { container } of views) expectEnglish(container);
    const [a11y, legal, privacy] = views.map((v) => v.container.textContent!);
    expect(a11y).toContain('We want every visitor');
    expect(legal).toContain('belongs to the operator of this website');
    expect(privacy).toContain('The operator of this website is committed');
    expect(screen.queryByRole('heading', { name: 'Website registration' })).toBeNull();
  });
});

describe('the other pages in English', () => {
  it('信访举报: the channel, what is handled and how to report', () => {
    const { container } = render(<WhistleblowingPage {...props('/whistleblowing', 'Report Misconduct')} />);
    expectEnglish(container);
    for (const heading of ['Reporting channels', 'What we handle', 'How to report'])
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    expect(container.textContent).toContain('The discipline inspection and supervision office of Tongda Land Port Group accepts');
    expect(screen.getByRole('link', { name: 'Clean and Honest' })).toHaveAttribute('href', '/portal/en/party-construction/clean-honest');
  });

  it('联系我们: the company’s lines, departments and where to report', () => {
    const { container } = render(<ContactPage {...props('/contact', 'Contact Us')} />);
    expectEnglish(container);
    expect(screen.getByRole('heading', { level: 1, name: 'Contact us' })).toBeInTheDocument();
    for (const label of ['Customer hotline', 'Switchboard', 'Office hours', 'Postal address', 'Postcode', 'Telephone'])
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    for (const heading of ['Getting here', 'Departments', 'Media enquiries'])
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Report misconduct' })).toHaveAttribute('href', '/portal/en/whistleblowing');
    expect(container.textContent).toContain('see Report misconduct. For partnership proposals');
  });

  it('a group’s page: each section’s newest items, how many, and where it leads', () => {
    const { container } = render(<GroupPage {...props('/news_center', 'News')} />);
    expectEnglish(container);
    expect(screen.getAllByText('1,234 items')).toHaveLength(3);
    expect(screen.getAllByText('View all ›')).toHaveLength(3);
  });

  it('a group with no section yet says so', () => {
    mockTree = [];
    const { container } = render(<GroupPage {...props('/social_responsibility', 'Social Responsibility')} />);
    expectEnglish(container);
    expect(screen.getByText('This section is under construction. Please check back soon.')).toBeInTheDocument();
  });

  it('网站地图: the menu and every other page, by their English names', () => {
    const { container } = render(<SitemapPage {...props('/sitemap', 'Site Map')} />);
    expectEnglish(container);
    expect(screen.getByRole('heading', { level: 1, name: 'Sitemap' })).toBeInTheDocument();
    const others = screen.getByRole('region', { name: 'Other pages' });
    expect(within(others).getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/portal/en/contact');
    expect(screen.getByRole('region', { name: 'Sections' })).toBeInTheDocument();
  });

  it('the home page: its modules, their “More” links and labels', () => {
    // A store only for what the page reads through a selector (none of it known here).
    const { container } = render(
      <Provider store={makeStore()}>
        <HomePage />
      </Provider>,
    );
    expectEnglish(container);
    expect(screen.getByText('Top story')).toBeInTheDocument();
    for (const heading of [
      'Customer Services',
      'Special Topics',
      'In the Media',
      'Party Building and Trade Union',
      'Disclosure',
      'Our Business',
      'Tongda in Figures',
      'Partners',
    ])
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'More Notices' })).toHaveAttribute('href', '/portal/en/news_center/notice');
    expect(screen.getByRole('link', { name: 'More Party Building and Trade Union' })).toHaveAttribute('href', '/portal/en/party-construction');
    expect(screen.getByRole('link', { name: 'More Disclosure' })).toHaveAttribute('href', '/portal/en/disclosure');
  });
});
