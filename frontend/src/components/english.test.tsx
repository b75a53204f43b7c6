import { fireEvent, render, screen } from '@testing-library/react';

import { setLocale } from '../lib/locale';
import { BackToTop } from './back-to-top';
import { Breadcrumb } from './breadcrumb';
import { Carousel } from './carousel';
import { ContactCta } from './contact-cta';
import { PageErrorBoundary } from './error-boundary';
import { Lightbox } from './lightbox';
import { Loading } from './loading';
import { Menu } from './menu/menu';
import NotFoundPage from './not-found-page';
import { Pagination } from './pagination';
import { SectionNav } from './section-nav';
import { PageSkeleton } from './skeleton';
import { VideoPlayer } from './video-player';
import { WhistleblowingBlock } from './whistleblowing';

/** Chinese characters and full-width punctuation: none may show on an English page. */
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

/** Everything a visitor reads or hears of `root`: its text and its labelling attributes. */
function everything(root: Element): string {
  const attrs = Array.from(root.querySelectorAll('*')).flatMap((el) =>
    ['aria-label', 'alt', 'title', 'placeholder', 'label', 'srclang'].map((name) => el.getAttribute(name) ?? ''),
  );
  return [root.textContent ?? '', ...attrs].join('\n');
}

const expectNoChinese = (root: Element) => expect(everything(root).match(CJK)).toBeNull();

beforeEach(() => setLocale('en'));
afterEach(() => setLocale('zh'));

describe('the shared components on an English page', () => {
  it('breadcrumb, pagination, section navigation and menu', () => {
    const { container } = render(
      <>
        <Breadcrumb items={[{ name: 'News', url: '/news_center' }, { name: 'Notices' }]} />
        {/* The site's setting says Chinese; an English page still pages in English. */}
        <Pagination page={2} pageSize={10} total={95} onChange={() => {}} hrefOf={(p) => `?page=${p}`} locale="zh-CN" />
        <SectionNav title="News" url="/news_center" items={[{ name: 'Notices', url: '/news_center/notice' }]} current="/news_center/notice" />
        <Menu
          items={[{ key: 'news', name: 'News', url: '/news_center', children: [{ key: 'n', name: 'Notices', url: '/news_center/notice', children: [] }] }]}
          currentPath="/"
        />
      </>,
    );
    expectNoChinese(container);
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent('You are here:');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/portal/en/');
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toHaveTextContent('Total 95 items');
    expect(screen.getByRole('link', { name: 'Page 3' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'News: section navigation' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
  });

  it('carousel, lightbox and video', () => {
    const slides = [
      { image: '/a.jpg', alt: '', title: 'First train of the year', href: '/portal/en/article/1' },
      { image: '/b.jpg', alt: '', title: 'New warehouse opens', href: '/portal/en/article/2' },
    ];
    const images = [
      { src: '/c.jpg', alt: 'Certificate', caption: ['Certificate'], width: 800, height: 500 },
      { src: '/d.jpg', alt: 'Award', caption: ['Award'] },
    ];
    const { container } = render(
      <>
        <Carousel slides={slides} label="Photo news" stopped />
        <Lightbox images={images} index={0} onIndex={() => {}} />
        <VideoPlayer src="/film.mp4" poster="/film.jpg" title="Our story" captions="/film.en.vtt" />
      </>,
    );
    expectNoChinese(container);
    expect(screen.getByRole('button', { name: 'Play slideshow' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Next', hidden: true })).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Slide 2: New warehouse opens' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close', hidden: true })).toBeInTheDocument();
    expect(container).toHaveTextContent('1 of 2');
    expect(container.querySelector('track')).toHaveAttribute('srclang', 'en');
    // A film that cannot play says so.
    fireEvent.error(container.querySelector('video')!);
    expectNoChinese(container);
    expect(screen.getByRole('img', { name: 'Cover image of Our story' })).toBeInTheDocument();
    expect(container).toHaveTextContent('The video cannot be played at the moment.');
  });

  it('contact, reporting, loading and the 404 page', () => {
    const channel = { phone: '+86 874 6288 5312', email: 'integrity@example.com', address: '88 Hub Avenue', hours: 'Weekdays 8:30–17:30', website: 'https://www.ccdi.gov.cn/' };
    const { container } = render(
      <>
        <ContactCta hotline="400-687-5200" bookingUrl="https://ebooking.example.com/" />
        <WhistleblowingBlock channel={channel} />
        <Loading />
        <PageSkeleton kind="list" title="Notices" breadcrumb={[{ name: 'Notices' }]} />
        <NotFoundPage />
        <BackToTop />
      </>,
    );
    expectNoChinese(container);
    expect(screen.getByRole('region', { name: 'Business Enquiries' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Hotline: 400-687-5200' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Book Online' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Report Misconduct' })).toHaveTextContent('Reception hours');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getAllByText('Loading…').length).toBeGreaterThan(0);
  });

  it('the error panel, for a page that failed and a chunk that did not load', () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = ({ failure }: { failure: Error }) => {
      throw failure;
    };
    const chunk = Object.assign(new Error('Loading chunk page-news failed.'), { name: 'ChunkLoadError', type: 'timeout' });
    const { container } = render(
      <>
        <PageErrorBoundary onRetry={() => {}}>
          <Broken failure={new Error('boom')} />
        </PageErrorBoundary>
        <PageErrorBoundary onRetry={() => {}}>
          <Broken failure={chunk} />
        </PageErrorBoundary>
      </>,
    );
    error.mockRestore();
    expectNoChinese(container);
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'The page failed to load' })).toBeInTheDocument();
    expect(container).toHaveTextContent("The page's script could not be loaded (timed out).");
    expect(screen.getAllByRole('button', { name: 'Reload' })).toHaveLength(2);
  });
});
