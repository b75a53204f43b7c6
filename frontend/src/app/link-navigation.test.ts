import { HOVER_INTENT_MS, routeLinksInPlace } from './link-navigation';

let stop: () => void;
/** Whether the browser would have followed the last click itself (the app left it alone). */
let leftToBrowser: boolean | null;
// Last in line: notes what the app did with the click, and keeps jsdom from loading a document.
const lastListener = (event: Event) => {
  leftToBrowser = !event.defaultPrevented;
  event.preventDefault();
};

const address = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

function click(html: string, init: MouseEventInit = {}): boolean {
  document.body.innerHTML = html;
  leftToBrowser = null;
  const target = document.querySelector('[data-click]') ?? document.querySelector('a')!;
  target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init }));
  return leftToBrowser!;
}

beforeEach(() => {
  window.history.replaceState(null, '', '/portal/article/5');
  stop = routeLinksInPlace();
  window.addEventListener('click', lastListener);
});
afterEach(() => {
  stop();
  window.removeEventListener('click', lastListener);
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

describe('a click on one of the app’s links', () => {
  it('opens its page in place: a new history entry, no document load', () => {
    const push = jest.spyOn(window.history, 'pushState');
    const entries = window.history.length;
    expect(click('<a href="/portal/news_center/notice">通知公告</a>')).toBe(false);
    expect(push).toHaveBeenCalledTimes(1);
    expect(address()).toBe('/portal/news_center/notice');
    expect(window.history.length).toBe(entries + 1);
    push.mockRestore();
  });

  it('keeps the query, and works from anything inside the link', () => {
    expect(click('<a href="/portal/news_center/notice?page=2"><span data-click>通知公告</span></a>')).toBe(false);
    expect(address()).toBe('/portal/news_center/notice?page=2');
    expect(click(`<a href="${window.location.origin}/portal/article/2101">全文</a>`)).toBe(false);
    expect(address()).toBe('/portal/article/2101');
  });

  it('to the page already shown adds no history entry', () => {
    const entries = window.history.length;
    expect(click('<a href="/portal/article/5">本页</a>')).toBe(false);
    expect(address()).toBe('/portal/article/5');
    expect(window.history.length).toBe(entries);
  });

  it('to a spec hash route (a link in an article’s body) opens that route’s real URL', () => {
    expect(click('<a href="#/about/honor">荣誉资质</a>')).toBe(false);
    expect(address()).toBe('/portal/about/honor');
    expect(click('<a href="/portal/#/news_center/notice">通知公告</a>')).toBe(false);
    expect(address()).toBe('/portal/news_center/notice');
  });
});

describe('clicks left to the browser', () => {
  it.each([
    ['Ctrl', { ctrlKey: true }],
    ['Cmd', { metaKey: true }],
    ['Shift', { shiftKey: true }],
    ['Alt', { altKey: true }],
    ['the middle button', { button: 1 }],
  ])('a click with %s (a new tab or window, a download)', (_, init) => {
    expect(click('<a href="/portal/news_center/notice">通知公告</a>', init)).toBe(true);
    expect(address()).toBe('/portal/article/5');
  });

  it.each([
    ['a new tab', '<a href="/portal/news_center/notice" target="_blank" rel="noopener">通知公告</a>'],
    ['a download', '<a href="/portal/news_center/notice" download>通知公告</a>'],
    ['the API', '<a href="/portal/api/files/a.pdf">附件</a>'],
    ['an uploaded file', '<a href="/portal/files/covers/train.jpg">图片</a>'],
    ['a feed', '<a href="/portal/feed/23.xml">RSS</a>'],
    ['another site', '<a href="https://example.com/">外部</a>'],
    ['another path of this site', '<a href="/other/">其他</a>'],
    ['the skip link’s place on this page', '<a href="#main-content">跳到主要内容</a>'],
    ['the menu’s place on this page', '<a href="#site-nav" role="button">菜单</a>'],
  ])('a link to %s', (_, html) => {
    expect(click(html)).toBe(true);
    expect(address()).toBe('/portal/article/5');
  });

  it('a click the page has already handled', () => {
    document.body.innerHTML = '<a href="/portal/news_center/notice">通知公告</a>';
    const link = document.querySelector('a')!;
    link.addEventListener('click', (event) => event.preventDefault());
    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(address()).toBe('/portal/article/5');
  });

  it('no click at all once stopped', () => {
    stop();
    expect(click('<a href="/portal/news_center/notice">通知公告</a>')).toBe(true);
    expect(address()).toBe('/portal/article/5');
    stop = () => {};
  });
});

describe('a spec hash route reached in the page', () => {
  it('becomes its real URL (the hashchange of `#/about`)', () => {
    window.location.hash = '#/about';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(address()).toBe('/portal/about');
  });

  it('but a fragment of the page stays as it is', () => {
    window.location.hash = '#main-content';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(address()).toBe('/portal/article/5#main-content');
  });
});

describe('a visitor about to open a link', () => {
  let intents: string[];
  let stopIntents: () => void;
  beforeEach(() => {
    jest.useFakeTimers();
    intents = [];
    stopIntents = routeLinksInPlace(document, (route) => intents.push(route));
  });
  afterEach(() => {
    stopIntents();
    jest.useRealTimers();
  });

  const link = (html: string) => {
    document.body.innerHTML = html;
    return document.querySelector('a')!;
  };

  it('tells the route at once for a finger on the link or the keyboard on it', () => {
    link('<a href="/portal/article/2301?listPage=2"><span>通知</span></a>').querySelector('span')!.dispatchEvent(new Event('touchstart', { bubbles: true }));
    document.querySelector('a')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(intents).toEqual(['/article/2301?listPage=2', '/article/2301?listPage=2']);
  });

  it('tells it for a pointer that rests on the link, not for one passing over it', () => {
    const anchor = link('<a href="/portal/news_center/notice">通知公告</a>');
    anchor.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    jest.advanceTimersByTime(HOVER_INTENT_MS / 2);
    anchor.dispatchEvent(new MouseEvent('mouseout', { bubbles: true }));
    jest.advanceTimersByTime(HOVER_INTENT_MS);
    expect(intents).toEqual([]);
    anchor.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    jest.advanceTimersByTime(HOVER_INTENT_MS);
    expect(intents).toEqual(['/news_center/notice']);
  });

  it('tells nothing of a link the browser opens itself', () => {
    for (const html of ['<a href="https://www.sasac.gov.cn/">国资委</a>', '<a href="/portal/api/files/a.pdf" download>附件</a>', '<a href="/portal/feed/21.xml" target="_blank">RSS</a>']) {
      link(html).dispatchEvent(new Event('touchstart', { bubbles: true }));
    }
    expect(intents).toEqual([]);
  });
});
